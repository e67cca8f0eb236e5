/**
 * The Logs tab's bounded text: new stderr is appended and only the last `maxChars` are kept, cut at a line
 * start so the first line shown is whole. Pure, so it can be tested without a DOM.
 */
export const LOG_TAIL_CHARS = 256 * 1024

export function appendTail(current: string, chunk: string, maxChars = LOG_TAIL_CHARS): { text: string; trimmed: boolean } {
  const joined = current + chunk
  if (joined.length <= maxChars) return { text: joined, trimmed: false }
  let cut = joined.slice(joined.length - maxChars)
  const newline = cut.indexOf('\n')
  if (newline >= 0 && newline < cut.length - 1) cut = cut.slice(newline + 1)
  return { text: cut, trimmed: true }
}
