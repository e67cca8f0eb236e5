/**
 * The command of an `execute` tool call, read from its raw input (`command` or `cmd`, a string or an argv
 * array), or `null`. Agents put the command there, not in a dedicated field, so it is a best effort.
 */
export function commandOf(rawInput: unknown): string | null {
  if (typeof rawInput !== 'object' || rawInput === null) return null
  const value = (rawInput as Record<string, unknown>).command ?? (rawInput as Record<string, unknown>).cmd
  if (typeof value === 'string') return value
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.join(' ')
  return null
}
