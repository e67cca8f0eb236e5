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
