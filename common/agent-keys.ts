/**
 * Key variables an agent names when it cannot sign in: codex-acp, for one, answers a failed API-key login with
 * `data: { envVars: ["CODEX_API_KEY", "OPENAI_API_KEY"] }`. Bosun then offers to keep a key in the keychain
 * under one of those names. Main and the renderer read the names the same way; main alone decides (it only
 * stores a key under a name it read from the agent itself, or one the agent's definition already lists).
 */

/**
 * A name that holds a key: an environment variable name ending in `_KEY` or `_TOKEN`. Nothing else an agent
 * names is ever set, so an agent cannot have Bosun put `NODE_OPTIONS`, `LD_PRELOAD` or `PATH` in its own
 * environment.
 */
export const KEY_NAME_PATTERN = /^[A-Z][A-Z0-9_]{0,126}_(KEY|TOKEN)$/

/** At most this many names are read from one failure. */
export const MAX_KEY_NAMES = 4

/** The key variables an agent's error `data` names (`envVars: string[]`, or `envVar` / `varName`), in order. */
export function keyNamesOf(data: unknown): string[] {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return []
  const record = data as Record<string, unknown>
  const candidates: unknown[] = Array.isArray(record.envVars) ? record.envVars.slice(0, 32) : []
  candidates.push(record.envVar, record.varName)
  const names: string[] = []
  for (const candidate of candidates) {
    if (typeof candidate !== 'string' || !KEY_NAME_PATTERN.test(candidate) || names.includes(candidate)) continue
    names.push(candidate)
    if (names.length === MAX_KEY_NAMES) break
  }
  return names
}
