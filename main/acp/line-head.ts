/**
 * What an NDJSON line's first bytes say about it (its `id`, `method`, and whether it is a response), read without
 * parsing the rest: for a line too long to read whole, and for an id JSON.parse would change.
 */
import type { JsonRpcId } from './types'

/** What the first bytes of a line say about it, from its top-level keys; `undefined` where they do not say. */
export interface LineHead {
  /** `id`: a string or number as given, `null` for null or any other value. */
  id?: JsonRpcId | null
  /** With `withIdText`: the text of the last top-level `id` value, as written (what JSON.parse keeps of duplicate keys). */
  idText?: string
  /** `method`, when it is a scalar (a string, or whatever else the agent put there). */
  method?: unknown
  /** A top-level `result` or `error` key came first. */
  response: boolean
}

/**
 * Reads the top-level keys of a JSON object from its first bytes (an over-long line's head), without parsing the rest:
 * string-, nesting- and escape-aware, it stops where the text ends. Only `id` and `method` values are decoded.
 */
export function scanLineHead(text: string, withIdText = false): LineHead {
  const head: LineHead = { response: false }
  let i = skipSpace(text, 0)
  if (text[i] !== '{') return head
  i++
  for (;;) {
    i = skipSpace(text, i)
    if (text[i] !== '"') return head
    const keyEnd = stringEnd(text, i)
    if (keyEnd < 0) return head
    let key: unknown
    try {
      key = JSON.parse(text.slice(i, keyEnd))
    } catch {
      return head
    }
    i = skipSpace(text, keyEnd)
    if (text[i] !== ':') return head
    i = skipSpace(text, i + 1)
    if (key === 'result' || key === 'error') head.response = true
    const end = valueEnd(text, i)
    if (end < 0) return head
    if (key === 'id' || key === 'method') {
      let value: unknown
      try {
        value = JSON.parse(text.slice(i, end))
      } catch {
        return head
      }
      if (key === 'method') head.method = value
      else {
        head.id = typeof value === 'string' || typeof value === 'number' ? value : null
        if (withIdText) head.idText = text.slice(i, end)
      }
    }
    i = skipSpace(text, end)
    if (text[i] !== ',') return head
    i++
  }
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++
  return i
}

/** The index after the string that opens at `i`, or -1 when the text ends inside it. */
function stringEnd(text: string, i: number): number {
  for (let j = i + 1; j < text.length; j++) {
    const c = text.charCodeAt(j)
    if (c === 0x5c) j++
    else if (c === 0x22) return j + 1
  }
  return -1
}

/** The index after the JSON value that starts at `i`, or -1 when the text ends before it does. */
function valueEnd(text: string, i: number): number {
  const first = text[i]
  if (first === undefined) return -1
  if (first === '"') return stringEnd(text, i)
  if (first === '{' || first === '[') {
    let depth = 0
    for (let j = i; j < text.length; j++) {
      const c = text[j]
      if (c === '"') {
        j = stringEnd(text, j) - 1
        if (j < 0) return -1
      } else if (c === '{' || c === '[') depth++
      else if (c === '}' || c === ']') {
        depth--
        if (depth === 0) return j + 1
      }
    }
    return -1
  }
  // A number, true, false or null: it ends at a delimiter (at the end of the text it may go on).
  for (let j = i; j < text.length; j++) if (',}] \t\n\r'.includes(text[j]!)) return j
  return -1
}
