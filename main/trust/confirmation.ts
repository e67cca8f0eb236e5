/**
 * Main's own confirmation with the person, for every decision that widens what can run or open: saving an
 * agent definition whose command, arguments or environment changed, starting such an agent for the first
 * time, turning auto-approve on, remembering an "always" answer as a rule, installing agents from another registry.
 *
 * The renderer is treated as one XSS away from hostile, so it can never be the one that confirms. The
 * Electron shell implements {@link ConfirmationService} with a native dialog on the main window
 * (`main/shell/confirmation.ts`): the renderer can neither draw nor click it. The browser host has no
 * such surface: whoever holds its token is the owner, so {@link ownerConfirmation} approves, and the gate
 * code path stays the same (the decision is logged and recorded like a person's).
 */
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import type { Logger } from '../base/log'
import { appendToFile, rotateFile } from '../base/append-file'

export type ConfirmationKind = 'agent-definition' | 'agent-start' | 'auto-approve' | 'remember-decision' | 'mcp-server' | 'registry-source'

/** What main asks. Every text is main's own; agent- or renderer-supplied values only appear quoted ({@link quoteExact}). */
export interface ConfirmationRequest {
  kind: ConfirmationKind
  /** Short heading (the dialog's title). */
  title: string
  /** The question, one or two sentences. */
  message: string
  /** The exact facts being approved (command, arguments, environment…), shown verbatim. */
  detail: string
  /** The approving button ("Save agent", "Start agent", "Turn on"). The other button is always "Cancel", and the default. */
  confirmLabel: string
}

/** Who answered: the person in a native dialog, the browser host's owner (token holder), or main itself (refused unasked). */
export type ConfirmationAnswerer = 'person' | 'owner' | 'refused'

export interface ConfirmationAnswer {
  confirmed: boolean
  by: ConfirmationAnswerer
}

export interface ConfirmationService {
  confirm(request: ConfirmationRequest): Promise<ConfirmationAnswer>
}

/** The browser host: the token holder is the owner, so every confirmation is granted (and recorded by {@link recordConfirmations}). */
export function ownerConfirmation(log: Logger): ConfirmationService {
  return {
    async confirm(request) {
      log.info(`confirmed as the browser host's owner: ${request.kind}: ${request.message.slice(0, 200)}`)
      return { confirmed: true, by: 'owner' }
    },
  }
}

/** Fail closed: a host that did not provide a way to ask the person gets nothing that needs asking. */
export function refuseAllConfirmation(log: Logger): ConfirmationService {
  return {
    async confirm(request) {
      log.warn(`refused without asking (no confirmation surface): ${request.kind}: ${request.message.slice(0, 200)}`)
      return { confirmed: false, by: 'refused' }
    },
  }
}

/** At most this many confirmations wait behind the one shown; more are refused (a hostile renderer cannot queue a dialog storm). */
export const MAX_WAITING_CONFIRMATIONS = 4

/**
 * One confirmation at a time: a second one waits until the first is answered. Identical requests waiting
 * or shown at once (two starts of the same agent) share one answer.
 */
export function serializeConfirmations(inner: ConfirmationService, maxWaiting = MAX_WAITING_CONFIRMATIONS): ConfirmationService {
  let tail: Promise<unknown> = Promise.resolve()
  const inFlight = new Map<string, Promise<ConfirmationAnswer>>()
  let waiting = 0
  return {
    confirm(request) {
      const key = JSON.stringify([request.kind, request.title, request.message, request.detail, request.confirmLabel])
      const same = inFlight.get(key)
      if (same) return same
      if (waiting >= maxWaiting) return Promise.resolve({ confirmed: false, by: 'refused' })
      waiting++
      const answer = tail.then(
        () => inner.confirm(request),
        () => inner.confirm(request),
      )
      const settled = answer.catch((): ConfirmationAnswer => ({ confirmed: false, by: 'refused' }))
      inFlight.set(key, settled)
      tail = settled.finally(() => {
        waiting--
        inFlight.delete(key)
      })
      return settled
    },
  }
}

/** The record of confirmations is rotated (one old copy kept) beyond this size. */
export const CONFIRMATION_LOG_MAX_BYTES = 1024 * 1024
export const CONFIRMATION_LOG_FILE = 'confirmations.jsonl'

export interface RecordedConfirmation {
  at: string
  host: 'electron' | 'web'
  kind: ConfirmationKind
  message: string
  detail: string
  confirmed: boolean
  by: ConfirmationAnswerer
}

/**
 * Appends every question and its answer to `<home>/confirmations.jsonl` (bounded: rotated at 1 MiB),
 * so what was approved, when and by whom (person, owner, refused) can be read back later.
 */
export function recordConfirmations(
  inner: ConfirmationService,
  options: { home: string; host: 'electron' | 'web'; log: Logger; now?: () => Date },
): ConfirmationService & { flush(): Promise<void> } {
  const path = join(options.home, CONFIRMATION_LOG_FILE)
  const now = options.now ?? (() => new Date())
  let writing: Promise<void> = Promise.resolve()
  let rotationWarned = false
  const append = (record: RecordedConfirmation) => {
    const line = JSON.stringify(record) + '\n'
    writing = writing.then(async () => {
      try {
        await fs.mkdir(options.home, { recursive: true })
        const size = await fs.stat(path).then(
          (s) => s.size,
          () => 0,
        )
        if (size + line.length > CONFIRMATION_LOG_MAX_BYTES) {
          // A folder named `<file>.1` keeps the record from rotating: it keeps its newest half instead (said once).
          const { why } = await rotateFile(path, CONFIRMATION_LOG_MAX_BYTES / 2)
          if (why && !rotationWarned) options.log.warn(why)
          rotationWarned ||= why !== undefined
        }
        await appendToFile(path, line)
      } catch (error) {
        options.log.error('cannot record a confirmation', error)
      }
    })
  }
  return {
    async confirm(request) {
      const answer = await inner.confirm(request)
      append({
        at: now().toISOString(),
        host: options.host,
        kind: request.kind,
        message: request.message,
        detail: request.detail.slice(0, 16_384),
        confirmed: answer.confirmed,
        by: answer.by,
      })
      return answer
    },
    flush: async () => {
      let seen: Promise<void>
      do {
        seen = writing
        await seen
      } while (seen !== writing)
    },
  }
}

/**
 * A string as it will be used, in double quotes, with everything outside printable ASCII written as an
 * escape: a line break, a bidi override or a zero-width space in a command cannot hide in the dialog.
 */
export function quoteExact(value: string): string {
  let out = '"'
  for (const char of value) {
    const code = char.codePointAt(0)!
    if (char === '"' || char === '\\') out += `\\${char}`
    else if (char === '\n') out += '\\n'
    else if (char === '\t') out += '\\t'
    else if (char === '\r') out += '\\r'
    else if (code >= 0x20 && code <= 0x7e) out += char
    else if (code <= 0xffff) out += `\\u${code.toString(16).padStart(4, '0')}`
    else out += `\\u{${code.toString(16)}}`
  }
  return out + '"'
}

/**
 * {@link quoteExact} of a name the agent chose, its first `max` characters: the words after it in a dialog's message
 * (what Bosun will do) stay in view, and the dialog says how much it left out.
 */
export function quoteCut(value: string, max: number): string {
  if (value.length <= max) return quoteExact(value)
  // Not between the two halves of a surrogate pair.
  const kept = /[\uD800-\uDBFF]$/.test(value.slice(0, max)) ? value.slice(0, max - 1) : value.slice(0, max)
  return `${quoteExact(kept)} (cut: ${value.length - kept.length} more characters)`
}

/** Dialog details longer than this are cut, and say so (a native dialog cannot scroll through megabytes). */
export const MAX_DETAIL_CHARS = 12_000

export function boundDetail(detail: string): string {
  if (detail.length <= MAX_DETAIL_CHARS) return detail
  const rest = detail.length - MAX_DETAIL_CHARS
  return `${detail.slice(0, MAX_DETAIL_CHARS)}\n[… ${rest} more characters not shown. Cancel unless you know what the rest is.]`
}
