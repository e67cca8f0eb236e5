/**
 * Redaction for everything the agent tools show or export (inspector, stderr log, auth terminal,
 * check results). Two layers:
 * - structural: values that are secret by their place in the protocol — MCP server `env`/`headers`
 *   (checklist E3), auth request params and results (J6), elicitation answers' `content` (G21);
 * - textual: every known secret value of every agent, replaced wherever it appears, so a key the agent
 *   echoes into a message or stderr is caught too: as it is, JSON-escaped, base64 (standard and URL-safe,
 *   at any alignment), hex (either case) and URL-encoded, at any depth, and across the chunks of a stream
 *   ({@link SecretSet.pendingPrefixLength}: hold back what could be the start of a secret).
 */

export const REDACTED = '«redacted»'

/** Methods whose params (other than `methodId`) and results are auth data (J6). */
const AUTH_METHODS = new Set(['authenticate', 'auth/login', 'auth/logout', 'logout', 'auth/status'])
/** Agent→client requests whose answer carries what the person typed (G21). */
const ELICITATION_METHODS = new Set(['elicitation/create', 'session/elicitation'])

/**
 * The secret values to hide. Values shorter than {@link MIN_SECRET_CHARS} are ignored: replacing a
 * 1–3 character string everywhere would shred every message without protecting anything real.
 */
export const MIN_SECRET_CHARS = 4
/** Encoded forms shorter than this are not searched for (too likely to match by chance). */
const MIN_ENCODED_CHARS = 8
/** Past this depth the walk stops copying and hides a whole subtree that holds a secret. */
const MAX_COPY_DEPTH = 64

/**
 * The forms a secret takes when an agent encodes it: base64 and base64url at the three byte alignments
 * (only the characters that depend on the secret alone), hex in both cases, URL encoding.
 */
export function encodedForms(secret: string): string[] {
  const bytes = new TextEncoder().encode(secret)
  const forms = new Set<string>()
  for (let offset = 0; offset < 3; offset++) {
    const padded = new Uint8Array(offset + bytes.length)
    padded.set(bytes, offset)
    const b64 = base64(padded)
    // Characters that mix prefix bits (the first group) or suffix bits (the last group) are dropped.
    const start = offset === 0 ? 0 : 4
    const total = offset + bytes.length
    const end = total % 3 === 0 ? b64.length : Math.floor(total / 3) * 4
    const core = b64.slice(start, end).replace(/=+$/, '')
    if (core.length >= MIN_ENCODED_CHARS) {
      forms.add(core)
      forms.add(core.replaceAll('+', '-').replaceAll('/', '_'))
    }
  }
  let hex = ''
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0')
  if (hex.length >= MIN_ENCODED_CHARS) {
    forms.add(hex)
    forms.add(hex.toUpperCase())
  }
  for (const url of [encodeURIComponent(secret), encodeURIComponent(secret).replaceAll('%20', '+')]) if (url !== secret) forms.add(url)
  forms.delete(secret)
  return [...forms]
}

function base64(bytes: Uint8Array): string {
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary)
}

export class SecretSet {
  private values: string[] = []
  /** The JSON-escaped forms (how a value appears inside a serialized message). */
  private escaped: string[] = []
  private bySource = new Map<string, readonly string[]>()

  /** Sets the secret values known for `source` (an agent id), replacing what it had. */
  set(source: string, values: Iterable<string>): void {
    const list = [...new Set([...values].filter((v) => typeof v === 'string' && v.length >= MIN_SECRET_CHARS))]
    if (list.length === 0) this.bySource.delete(source)
    else this.bySource.set(source, list)
    this.rebuild()
  }

  add(source: string, value: string): void {
    const known = this.bySource.get(source) ?? []
    if (!known.includes(value)) this.set(source, [...known, value])
  }

  get size(): number {
    return this.values.length
  }

  /** Longest secret first, so a secret containing another is replaced whole; encoded forms count as secrets. */
  private rebuild(): void {
    const all = new Set<string>()
    for (const list of this.bySource.values()) {
      for (const v of list) {
        all.add(v)
        for (const form of encodedForms(v)) all.add(form)
      }
    }
    this.values = [...all].sort((a, b) => b.length - a.length)
    this.escaped = this.values.map((v) => JSON.stringify(v).slice(1, -1))
    this.byFirstChar = new Map()
    for (const value of this.values) {
      const first = value.charCodeAt(0)
      const list = this.byFirstChar.get(first)
      if (list) list.push(value)
      else this.byFirstChar.set(first, [value])
    }
  }

  /** The values (longest first) by their first character: the stream window looks only at those a tail can start. */
  private byFirstChar = new Map<number, string[]>()

  /** True when `text` holds a secret in any known form. */
  containsSecret(text: string): boolean {
    for (const value of this.values) if (text.includes(value)) return true
    return false
  }

  /** `text` with every secret value replaced by {@link REDACTED}. */
  redactText(text: string): string {
    if (this.values.length === 0 || !text) return text
    let out = text
    for (const value of this.values) if (out.includes(value)) out = out.split(value).join(REDACTED)
    return out
  }

  /** Like {@link redactText} for serialized JSON: also matches the escaped form of each value. */
  redactJson(json: string): string {
    if (this.values.length === 0) return json
    let out = json
    for (let i = 0; i < this.values.length; i++) {
      for (const form of [this.escaped[i]!, this.values[i]!]) if (out.includes(form)) out = out.split(form).join(REDACTED)
    }
    return out
  }

  /**
   * `value` with every secret replaced in every string inside it (object keys included). Copy-on-write:
   * unchanged parts are shared with the input, which is never mutated; with no secrets it is `value` itself.
   */
  redactDeep<T>(value: T): T {
    if (this.values.length === 0) return value
    return this.redactAny(value, 0) as T
  }

  private redactAny(value: unknown, depth: number): unknown {
    if (typeof value === 'string') return this.redactText(value)
    if (value === null || typeof value !== 'object') return value
    // Deeper than this, a subtree holding a secret is hidden whole (checked without recursion: any depth).
    if (depth > MAX_COPY_DEPTH) return this.subtreeHasSecret(value) ? REDACTED : value
    if (Array.isArray(value)) {
      let copy: unknown[] | undefined
      for (let i = 0; i < value.length; i++) {
        const next = this.redactAny(value[i], depth + 1)
        if (next !== value[i]) (copy ??= [...value])[i] = next
      }
      return copy ?? value
    }
    let copy: Record<string, unknown> | undefined
    const record = value as Record<string, unknown>
    for (const key of Object.keys(record)) {
      const item = record[key]
      const next = this.redactAny(item, depth + 1)
      const name = this.redactText(key)
      if (next === item && name === key) continue
      copy ??= { ...record }
      if (name !== key) delete copy[key]
      // An own property even for `__proto__` (an assignment would change the copy's prototype).
      Object.defineProperty(copy, name, { value: next, enumerable: true, writable: true, configurable: true })
    }
    return copy ?? value
  }

  /** Iterative (an agent's JSON may be nested far deeper than the stack allows). */
  private subtreeHasSecret(root: object): boolean {
    const stack: unknown[] = [root]
    let visited = 0
    while (stack.length > 0) {
      const value = stack.pop()
      // A bound on the work; a value this large that was not cut before is hidden rather than searched.
      if (++visited > 1_000_000) return true
      if (typeof value === 'string') {
        if (this.containsSecret(value)) return true
      } else if (value !== null && typeof value === 'object') {
        for (const key of Object.keys(value)) {
          if (this.containsSecret(key)) return true
          stack.push((value as Record<string, unknown>)[key])
        }
      }
    }
    return false
  }

  /**
   * For streamed text: how many trailing characters of `text` could be the start of a secret that
   * continues in the next chunk (hold them back until more text arrives).
   */
  pendingPrefixLength(text: string): number {
    // Runs on every streamed chunk: tails from the longest down, so the first match is the answer; only values
    // starting with the tail's first character are compared, character by character (nothing allocated).
    const longestValue = this.values[0]?.length ?? 0
    for (let start = Math.max(0, text.length - longestValue + 1); start < text.length; start++) {
      const candidates = this.byFirstChar.get(text.charCodeAt(start))
      if (!candidates) continue
      const n = text.length - start
      for (const value of candidates) {
        if (value.length <= n) break
        let k = 1
        while (k < n && text.charCodeAt(start + k) === value.charCodeAt(k)) k++
        if (k === n) return n
      }
    }
    return 0
  }
}

/** What the redactor knows about a message's exchange (from the inspector's request/response matching). */
export interface MessageContext {
  /** The method of the request (for responses: the matched request's method). */
  method?: string
  kind: 'request' | 'response' | 'notification' | 'error' | 'invalid'
}

type Json = Record<string, unknown>

/**
 * The message with structurally secret values replaced. Copy-on-write: only the objects on the path
 * to a redacted value are copied; the rest is shared with the input (never mutated).
 */
export function redactStructure(message: unknown, context: MessageContext): unknown {
  if (!isRecord(message)) return message
  let out = message
  const method = context.method
  if (method && AUTH_METHODS.has(method)) {
    if (context.kind === 'request' && isRecord(message.params)) {
      out = { ...out, params: redactValues(message.params, new Set(['methodId'])) }
    } else if (context.kind === 'response' && message.result !== undefined && message.result !== null) {
      out = { ...out, result: isRecord(message.result) ? redactValues(message.result, new Set()) : REDACTED }
    }
  }
  if (method && ELICITATION_METHODS.has(method) && context.kind === 'response' && isRecord(message.result) && message.result.content !== undefined) {
    out = { ...out, result: { ...message.result, content: redactValues(message.result.content, new Set()) } }
  }
  return redactMcpServers(out)
}

/** Finds `mcpServers` arrays at any depth (params of session/new, load, resume, fork …) and hides env/header values. */
function redactMcpServers(value: unknown, depth = 0): unknown {
  if (depth > 6 || value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined
    value.forEach((item, i) => {
      const next = redactMcpServers(item, depth + 1)
      if (next !== item) (copy ??= [...value])[i] = next
    })
    return copy ?? value
  }
  const record = value as Json
  let copy: Json | undefined
  for (const [key, item] of Object.entries(record)) {
    let next: unknown
    if (key === 'mcpServers' && Array.isArray(item)) next = item.map(redactServer)
    else if (item !== null && typeof item === 'object') next = redactMcpServers(item, depth + 1)
    else continue
    if (next !== item) (copy ??= { ...record })[key] = next
  }
  return copy ?? record
}

function redactServer(server: unknown): unknown {
  if (!isRecord(server)) return server
  const out: Json = { ...server }
  for (const key of ['env', 'headers']) if (out[key] !== undefined) out[key] = redactNameValues(out[key])
  return out
}

/** `[{name, value}]` (the protocol's shape) or a `{name: value}` map: names stay, values go. */
function redactNameValues(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.map((entry) => (isRecord(entry) && 'value' in entry ? { ...entry, value: REDACTED } : REDACTED))
  }
  if (isRecord(value)) return Object.fromEntries(Object.keys(value).map((k) => [k, REDACTED]))
  return REDACTED
}

/** Every value replaced (keys kept, so the shape stays readable), except the `keep` keys at the top. */
function redactValues(value: unknown, keep: ReadonlySet<string>): unknown {
  if (!isRecord(value)) return REDACTED
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, keep.has(k) ? v : REDACTED]))
}

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
