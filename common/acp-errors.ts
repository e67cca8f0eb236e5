/** ACP's JSON-RPC error code for "authentication required": the agent wants the person to sign in first. */
export const AUTH_REQUIRED_CODE = -32000

/** What a details text may take of an agent error's `data`. */
const MAX_DETAILS_CHARS = 4096

/**
 * An agent error's `data` as words to show under its message: `data.details` or a string as written, anything
 * else as its JSON; undefined when there is nothing to say.
 */
export function errorDetails(data: unknown): string | undefined {
  let details: string | undefined
  if (typeof data === 'string') details = data
  else if (typeof data === 'object' && data !== null && typeof (data as { details?: unknown }).details === 'string') details = (data as { details: string }).details
  else if (data !== undefined && data !== null) {
    try {
      details = JSON.stringify(data)
    } catch {
      details = undefined
    }
  }
  if (details === undefined || details.trim() === '') return undefined
  return details.length > MAX_DETAILS_CHARS ? `${details.slice(0, MAX_DETAILS_CHARS)}…` : details
}

/** Longest agent error message parsed to see whether it is a JSON-encoded API error. */
const MAX_JSON_MESSAGE_CHARS = 16_384

/**
 * An agent error's message as words: Gemini CLI passes its model API's error on as the JSON it got
 * (`{"error":{"code":400,"message":"API key not valid…","status":"INVALID_ARGUMENT"}}`), which said nothing at a
 * glance; the API's own message (and its status) is what happened. Any other message is returned as it is.
 */
export function readableErrorMessage(message: string): string {
  const text = message.trim()
  if (!text.startsWith('{') || !text.endsWith('}') || text.length > MAX_JSON_MESSAGE_CHARS) return message
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return message
  }
  const record = (value: unknown) => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined)
  const outer = record(parsed)
  const inner = record(outer?.error) ?? outer
  const said = inner?.message
  if (typeof said !== 'string' || said.trim() === '') return message
  const status = inner?.status
  return typeof status === 'string' && status.trim() !== '' && !said.includes(status) ? `${said.trim()} (${status.trim()})` : said.trim()
}
