/** Keywords Gemini, OpenAI and other clients refuse in a tool's input schema. */
export const REJECTED_KEYWORDS = ['propertyNames', 'patternProperties', 'exclusiveMinimum', 'exclusiveMaximum', 'uniqueItems', 'const', '$ref', '$defs']

/** Every schema keyword used anywhere in a JSON Schema (a property named like a keyword does not count). */
export function schemaKeywords(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) schemaKeywords(item, into)
  else if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      into.add(key)
      schemaKeywords(key === 'properties' ? Object.values(inner as object) : inner, into)
    }
  }

  return into
}

/** The keywords of `schema` that major clients refuse. */
export function rejectedKeywords(schema: unknown): string[] {
  const used = schemaKeywords(schema)
  return REJECTED_KEYWORDS.filter((keyword) => used.has(keyword))
}
