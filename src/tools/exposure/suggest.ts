function editDistance(a: string, b: string): number {
  let previous = Array.from({length: b.length + 1}, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1))
    previous = current
  }

  return previous[b.length]
}

/**
 * "Did you mean": up to five of `candidates` like `wanted`, those that share most of its words first (words split at
 * spaces, `:`, `_` and `-`), then the fewest edits away. A candidate that shares no word and is more than a few edits
 * away is no suggestion at all. Used for unknown commands and unknown tool names alike.
 */
export function closeMatches(wanted: string, candidates: readonly string[]): string[] {
  const lower = wanted.toLowerCase()
  const words = lower.split(/[\s:_-]+/).filter(Boolean)
  return candidates
    .map((name) => {
      const candidate = name.toLowerCase()
      return {distance: editDistance(lower, candidate), name, shared: words.filter((w) => candidate.includes(w)).length}
    })
    .filter((c) => c.shared > 0 || c.distance <= Math.max(2, Math.floor(c.name.length / 3)))
    .sort((a, b) => b.shared - a.shared || a.distance - b.distance || a.name.localeCompare(b.name))
    .slice(0, 5)
    .map((c) => c.name)
}
