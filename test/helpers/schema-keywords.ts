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

/** What every host accepts as a property name of a tool's input (Claude Code drops a tool with any other). */
export const PROPERTY_NAME = /^[A-Za-z0-9_.-]{1,64}$/

/** The property names of `schema`, at any depth, that some host refuses. */
export function badPropertyNames(schema: unknown, into: string[] = []): string[] {
  if (Array.isArray(schema)) for (const item of schema) badPropertyNames(item, into)
  else if (schema && typeof schema === 'object') {
    for (const [key, inner] of Object.entries(schema)) {
      if (key === 'properties' && inner && typeof inner === 'object') {
        for (const [name, property] of Object.entries(inner)) {
          if (!PROPERTY_NAME.test(name)) into.push(name)
          badPropertyNames(property, into)
        }
      } else badPropertyNames(inner, into)
    }
  }

  return into
}
