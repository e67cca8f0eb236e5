/** `@` mentions in the composer: the query being typed, and a fast fuzzy match over the folder's paths. */

/** The `@query` right before the caret (start of text or after whitespace), or null. */
export function mentionQuery(beforeCaret: string): { query: string; start: number } | null {
  const match = /(^|\s)@([^\s@]*)$/.exec(beforeCaret)
  if (!match) return null
  return { query: match[2]!, start: match.index + match[1]!.length }
}

/**
 * Paths matching `query` as a subsequence (case-insensitive), best first: matches in the file name beat
 * matches spread over folders, contiguous runs and early starts score higher, shorter paths break ties.
 */
export function fuzzyPaths(paths: readonly string[], query: string, limit = 20): string[] {
  const q = query.toLowerCase()
  if (q === '') return paths.slice(0, limit)
  const scored: { path: string; score: number }[] = []
  for (const path of paths) {
    const score = fuzzyScore(path.toLowerCase(), q)
    if (score !== null) scored.push({ path, score })
  }
  scored.sort((a, b) => b.score - a.score || a.path.length - b.path.length || a.path.localeCompare(b.path))
  return scored.slice(0, limit).map((s) => s.path)
}

function fuzzyScore(path: string, q: string): number | null {
  const nameStart = path.replace(/\/$/, '').lastIndexOf('/') + 1
  let score = 0
  let at = 0
  let run = 0
  for (const ch of q) {
    const found = path.indexOf(ch, at)
    if (found < 0) return null
    run = found === at ? run + 1 : 1
    score += run * 2 + (found >= nameStart ? 3 : 0) - Math.min(found - at, 10) * 0.1
    at = found + 1
  }
  if (path.slice(nameStart).startsWith(q)) score += 10
  return score
}

export function baseNameOf(path: string): string {
  const trimmed = path.replace(/\/$/, '')
  return trimmed.slice(trimmed.lastIndexOf('/') + 1) || trimmed
}
