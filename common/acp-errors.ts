import { cutText } from './bounded'
import type { TurnError } from './session/types'

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
  return cutText(details, MAX_DETAILS_CHARS)
}

/** The agent's own words in an error's `data`: a string, or its `details`, `message` or `error.message` string. */
function wordsInData(data: unknown): { text: string; field: string | null } | undefined {
  if (typeof data === 'string') return data.trim() === '' ? undefined : { text: data, field: null }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return undefined
  const record = data as Record<string, unknown>
  for (const field of ['details', 'message'] as const) {
    const value = record[field]
    if (typeof value === 'string' && value.trim() !== '') return { text: value, field }
  }
  const error = record['error']
  const message = typeof error === 'object' && error !== null ? (error as Record<string, unknown>)['message'] : undefined
  return typeof message === 'string' && message.trim() !== '' ? { text: message, field: 'error' } : undefined
}

/** JSON-RPC's generic words that the SDKs put before the agent's own ("Internal error: Incorrect API key provided…"). */
const GENERIC_PREFIX = /^\s*Internal error:\s*(?=\S)/

/** `text` without JSON-RPC's "Internal error: " before the agent's own words (kept when nothing follows it). */
export const withoutGenericPrefix = (text: string): string => text.replace(GENERIC_PREFIX, '')

/** What an agent's error is shown as: its words first, then what its `data` says in words, then the data itself. */
export interface AgentErrorWords {
  /** The agent's message, without JSON-RPC's "Internal error: " before its own words, a JSON-encoded API error read. */
  message: string
  /** What `data` says in words (a string, or its `details`, `message` or `error.message`), unless the message says it. */
  details?: string
  /** `data` as JSON, when it holds more than those words (for a "Details" fold); bounded. */
  data?: string
}

/**
 * An agent's JSON-RPC error as words a person reads: OpenCode passes a missing key on as `{"code":-32603,"message":
 * "Internal error: …","data":{…}}`, which showed "Internal error: " and the raw JSON of `data`.
 */
export function agentErrorWords(message: string, data?: unknown): AgentErrorWords {
  const said = readableErrorMessage(withoutGenericPrefix(message))
  const words: AgentErrorWords = { message: said }
  const inData = wordsInData(data)
  const text = inData?.text.trim()
  if (text !== undefined && !said.includes(text)) words.details = cutText(text, MAX_DETAILS_CHARS)
  // Raw only when there is more in it than the words taken from it.
  const more = typeof data === 'object' && data !== null && (inData === undefined || Array.isArray(data) || Object.keys(data).length > 1 || inData.field === 'error')
  if (more) {
    let json: string | undefined
    try {
      json = JSON.stringify(data, null, 2)
    } catch {
      json = undefined
    }
    if (json !== undefined && json !== '{}' && json !== '[]') words.data = cutText(json, MAX_DATA_CHARS)
  }
  return words
}

/**
 * A turn's error as the session keeps it: the agent's words, what its `data` says in words on the next line, the rest of
 * `data` as JSON (for a "Details" fold).
 */
export function turnErrorFrom(error: { message: string; code?: unknown; data?: unknown }): TurnError {
  const words = agentErrorWords(error.message, error.data)
  return {
    message: words.details !== undefined ? `${words.message}\n${words.details}` : words.message,
    ...(typeof error.code === 'number' ? { code: error.code } : {}),
    ...(words.data !== undefined ? { data: words.data } : {}),
  }
}

/** What the raw `data` of an agent error may take in what is kept and shown. */
const MAX_DATA_CHARS = 16_384

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

/**
 * What an agent's error says of a missing or refused key, when it says so in the words agents use: codex-acp's
 * "Missing environment variable: OPENAI_API_KEY" (as -32603, not "authentication required", so no sign-in is offered),
 * a model provider's 401 passed on as text ("Incorrect API key provided", "invalid x-api-key", "API key not valid").
 * `name`: the variable it names, when it names one. Null for any other error.
 */
export function keyProblemOf(message: string): { name: string | null } | null {
  const text = message.slice(0, 4096)
  const missing = /missing (?:the )?environment variable:?\s*[`'"]?([A-Za-z_][A-Za-z0-9_]{0,127})/i.exec(text)
  // A variable's name as agents write them (OPENAI_API_KEY), not the next word of a sentence ("… variable for Codex").
  if (missing) return { name: /^[A-Z_][A-Z0-9_]+$/.test(missing[1]!) ? missing[1]! : null }
  const notSet = /\b([A-Z][A-Z0-9_]{0,126}_(?:API_KEY|TOKEN|KEY))\b[^.\n]{0,40}\b(?:is not set|not set|is missing|missing|is empty)/.exec(text)
  if (notSet) return { name: notSet[1]! }
  if (/\b(?:incorrect|invalid|missing|no|not valid|expired)\b[^.\n]{0,20}\b(?:x-)?api[ _-]?key\b|\bapi[ _-]?key\b[^.\n]{0,30}\b(?:not valid|invalid|incorrect|missing|not set|expired)\b/i.test(text)) return { name: null }
  return null
}
