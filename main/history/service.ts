/**
 * The history's calls (`common/contract/history.ts`) and the hooks the sessions service reports through.
 * Owns the database and the recorder; opened sessions are handed to the sessions service, which holds
 * only those in memory.
 */
import { fail, ok, type Failure, type Result } from '../base/errors'
import type { IDisposable } from '../base/lifecycle'
import type { Logger } from '../base/log'
import type { CallHandlers, EventSink } from '../../common/contract'
import type { HistorySummary } from '../../common/contract/history'
import type { SessionState } from '../../common/session/types'
import type { AgentSessionInfo } from '../acp/types'
import type { SessionHistoryHooks } from '../sessions/sessions-service'
import { exportFileName, exportTitle, sessionToJson, sessionToMarkdown } from './export'
import { isHistoryOff, type HistoryStore, type StoredSession } from './history-store'
import { dropRescued, isRescued, restoreRescued, saveRescued } from './rescue'
import { HistoryRecorder } from './recorder'
import { restoreSessionState, settled } from './restore'
import { searchTextOfBody } from './entry-codec'
import { toFtsQuery } from './sqlite-history-store'
import { listedFoldersHere } from '../fs/folders'
import { findSessionImage } from './images'
import type { SaveFile } from '../app/services'

/** What the history needs from the sessions service (late-bound: the service is built with our hooks). */
export interface HistorySessionsPort {
  has(sessionId: string): boolean
  state(sessionId: string): SessionState | undefined
  restore(state: SessionState): Result<{ sessionId: string }>
  /** Whether one more session may open (main bounds how many are open); asked before a stored session is read. */
  roomForAnother(): Result<undefined>
  closeSession(sessionId: string): Result<undefined>
  /** Applies every queued batch (so the recorder has the newest states). */
  snapshot(): unknown
  listAgentSessions(agentId: string, cwd: string, signal?: AbortSignal): Promise<Result<AgentSessionInfo[] | null>>
  openAgentSession(
    agentId: string,
    acpSessionId: string,
    cwd: string,
    options?: { additionalDirectories?: readonly string[]; missingFolders?: readonly string[]; title?: string | null },
  ): Promise<Result<{ sessionId: string }>>
  /** `session/delete` to a running agent that advertises it (E10); `sent: false` when nothing was asked. */
  deleteAgentSession(agentId: string, acpSessionId: string): Promise<Result<{ sent: boolean }>>
}

export type HistoryHandlers = Pick<
  CallHandlers,
  'historyList' | 'historyOpen' | 'historyRename' | 'historyArchive' | 'historyDelete' | 'historySearch' | 'historyExport' | 'saveImage' | 'historyAgentSessions' | 'historyCancelAgentSessions' | 'historyOpenAgentSession'
>

export interface HistoryService extends IDisposable {
  hooks: SessionHistoryHooks
  handlers: HistoryHandlers
  bind(sessions: HistorySessionsPort): void
  /** Writes what is pending (quit). */
  flush(): void
  /** The current problem, if any (unreadable file set aside, failing writes). */
  problem(): string | null
}

const SNIPPET_RADIUS = 80

/** The text around the first word of `query` found in `text`, the word marked with \u0002…\u0003. */
export function snippetOf(text: string, query: string): string {
  const words = (query.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []).sort((a, b) => b.length - a.length)
  const lower = text.toLowerCase()
  let at = -1
  let length = 0
  for (const word of words) {
    at = lower.indexOf(word)
    if (at >= 0) {
      length = word.length
      break
    }
  }
  if (at < 0) return text.slice(0, SNIPPET_RADIUS * 2).replace(/\s+/g, ' ')
  const start = Math.max(0, at - SNIPPET_RADIUS)
  const end = Math.min(text.length, at + length + SNIPPET_RADIUS)
  // eslint-disable-next-line no-control-regex -- the marks are control characters on purpose: they cannot occur in the text
  const clean = (s: string) => s.replace(/[\u0002\u0003]/g, '').replace(/\s+/g, ' ')
  return `${start > 0 ? '…' : ''}${clean(text.slice(start, at))}\u0002${clean(text.slice(at, at + length))}\u0003${clean(text.slice(at + length, end))}${end < text.length ? '…' : ''}`
}

/** A second save while one's dialog is open. */
const BUSY_SAVING = 'Another export or image is being saved; finish that one first.'

export function createHistoryService(options: {
  store: HistoryStore
  events: EventSink
  logger: Logger
  /** A problem found while opening the database (shown until writes that failed work again, or the app restarts). */
  openProblem: string | null
  /** Electron: a save dialog; resolves with the path written, or null when the person cancelled. */
  saveFile?: SaveFile
  intervalMs?: number
  /** Hides secret values in failures that carry an agent's words (its stderr tail), as the other calls do. */
  redactFailure?: (failure: Failure) => Failure
  /** Hides secret values in an agent's words shown as they are (the titles of its `session/list`), as in its updates. */
  redactText?: (text: string) => string
  /** An agent's name for what the history says (default: its id). */
  agentName?: (agentId: string) => string
  /**
   * Where sessions that could not be written when Bosun quit are kept (`rescue.ts`), to be written once the history
   * opens. Without it, a quit while history is off loses them.
   */
  rescueDir?: string
}): HistoryService {
  const { store, events, logger } = options
  let writeProblem: string | null = null
  let openProblem = options.openProblem
  let sessions: HistorySessionsPort | undefined
  const changed = () => events.emit('historyChanged', {})
  const recorder = new HistoryRecorder(store, {
    logger,
    ...(options.intervalMs !== undefined ? { intervalMs: options.intervalMs } : {}),
    onProblem: (message, error) => {
      writeProblem = message
      // Writes work again: whatever opening said (history off until the file could be opened) is over.
      if (message === null) openProblem = null
      // History off since it opened is said where the history is, from the start: no notice for each session after.
      if (message && !isHistoryOff(error)) events.emit('appNotice', { severity: 'error', title: 'History not saved', description: message.slice(0, 4096) })
      changed()
      if (message === null) void restoreUnsaved()
    },
    onListChanged: changed,
    ...(options.rescueDir !== undefined
      ? { rescue: (unsaved, when) => keepUnsaved(options.rescueDir!, unsaved, when), rescueDone: (sessionId: string) => dropRescued(options.rescueDir!, sessionId) }
      : {}),
  })

  /**
   * While the history cannot be written, the sessions it lacks go to files of their own (`rescue.ts`): at quit, at their
   * close, and the open ones from time to time (said once, not at every time).
   */
  let keptOpen = false
  const keepUnsaved = (dir: string, unsaved: StoredSession[], when: 'quit' | 'closed' | 'open') => {
    const { saved, failed } = saveRescued(dir, unsaved)
    if (saved.length > 0 && (when !== 'open' || !keptOpen)) logger.warn(`history: ${saved.length} session(s) not written to the history yet; kept in ${dir} until it opens${when === 'open' ? ' (kept again from time to time while they change)' : ''}`)
    if (when === 'open' && saved.length > 0) keptOpen = true
    for (const { sessionId, reason } of failed) logger.error(`history: session ${sessionId} could not be kept anywhere (${reason}); its last changes are lost`)
  }

  /** Writes the sessions kept at an earlier quit, once the history is open; says so when there were any. */
  let restoring = false
  const restoreUnsaved = async () => {
    const dir = options.rescueDir
    if (dir === undefined || restoring || store.file === null) return
    restoring = true
    try {
      if (store.isOff?.()) return
      const { restored, unreadable } = await restoreRescued(dir, store, (sessionId) => recorder.holds(sessionId))
      for (const file of unreadable) logger.warn(`history: ${file} is not a session Bosun kept whole; renamed to ${file}.unreadable`)
      if (restored.length === 0) return
      logger.info(`history: wrote ${restored.length} session(s) kept when Bosun could not write the history`)
      events.emit('appNotice', {
        severity: 'info',
        title: restored.length === 1 ? 'A session was recovered' : `${restored.length} sessions were recovered`,
        description: `Bosun could not write ${restored.length === 1 ? 'this session' : 'these sessions'} to the history when it last quit. ${restored.length === 1 ? 'It is' : 'They are'} in the history now.`,
      })
      changed()
    } catch (error) {
      // Tried again when writes work again, and at the next start.
      logger.warn('history: the sessions kept when Bosun could not write the history are not written yet', error)
    } finally {
      restoring = false
    }
  }
  void restoreUnsaved()
  const problem = () => writeProblem ?? openProblem
  const redact = (failure: Failure) => options.redactFailure?.(failure) ?? failure

  /** `fn`'s result, or what failed as an io-error; `fn` may answer later (a read from the store's own thread). */
  const io = async <T>(what: string, fn: () => Result<T> | Promise<Result<T>>): Promise<Result<T>> => {
    try {
      return await fn()
    } catch (error) {
      logger.warn(`${what} failed`, error)
      return fail({ kind: 'io-error', message: `${what} failed: ${error instanceof Error ? error.message : String(error)}` })
    }
  }

  /** The newest state of a session: from memory when open (after writing it), else from the database. */
  /** An open session's state as it stands now (`snapshot` first: what is queued for it is in), or undefined. */
  const openState = (sessionId: string): SessionState | undefined => {
    if (!sessions?.has(sessionId)) return undefined
    sessions.snapshot()
    return sessions.state(sessionId)
  }
  const readState = (sessionId: string): SessionState | undefined => {
    if (sessions?.has(sessionId)) return openState(sessionId)
    const stored = store.load(sessionId)
    if (!stored) return undefined
    const { state, settle } = restoreSessionState(stored)
    return settled(state, settle)
  }

  const hooks: SessionHistoryHooks = {
    // A store that keeps nothing (history off): no session is tracked, so nothing is encoded for it.
    created: (state, info) => {
      if (store.file !== null) recorder.track(state, info)
    },
    changed: (state, current) => recorder.changed(state, current),
    closed: (sessionId) => {
      recorder.forget(sessionId)
      // Kept until the history can be written: listed from memory meanwhile, so the list says so now.
      if (recorder.holds(sessionId)) changed()
    },
    discarded: (sessionId) => {
      recorder.drop(sessionId)
      try {
        store.delete(sessionId)
      } catch {
        // Nothing was written, or the disk refuses: either way nothing to show.
      }
    },
    isTaken: (sessionId) => {
      // A session closed and not saved yet keeps its id too, and so does one kept when Bosun quit.
      if (recorder.holds(sessionId)) return true
      if (options.rescueDir !== undefined && isRescued(options.rescueDir, sessionId)) return true
      try {
        return store.has(sessionId)
      } catch {
        return false
      }
    },
  }

  const openStored = (sessionId: string): Result<{ sessionId: string }> => {
    if (!sessions) return fail({ kind: 'internal', message: 'History is not ready.' })
    if (sessions.has(sessionId)) return ok({ sessionId })
    // Full (a renderer opening the whole history): said before the session is read from the file.
    const room = sessions.roomForAnother()
    if (!room.ok) return room
    // Closed while its writes failed, and not saved yet: what it held is newer than the file's, and is written whole.
    const unsaved = recorder.takeClosed(sessionId)
    const stored = unsaved ?? store.load(sessionId)
    if (!stored) return fail({ kind: 'not-found', message: `No stored session ${sessionId}.` })
    const { state, settle, asStored, storedEnd } = restoreSessionState(stored)
    const current = settled(state, settle)
    // The settled state (an interrupted turn ended) is written on the next tick, and so are entries read again (over
    // the rows as stored, the rows past them removed).
    const times = { createdAt: stored.row.createdAt, updatedAt: stored.row.updatedAt }
    // (Its agent's capabilities too, when they were never written.)
    const capabilities = unsaved?.row.capabilities ? { capabilities: JSON.parse(unsaved.row.capabilities) as unknown } : {}
    recorder.track(current, unsaved ? { ...times, ...capabilities } : { written: asStored, storedEnd, ...times })
    const restored = sessions.restore(current)
    if (!restored.ok) recorder.drop(sessionId)
    return restored
  }

  /**
   * After a session is deleted here: the agent's own copy too (E10), where the agent can be asked. Nothing waits for it
   * and it changes nothing here; a failure is logged and said in a notice. When Bosun keeps another session the agent
   * calls by the same id (an agent that numbers its sessions anew after a restart), which one the agent has now is not
   * known, so it is not asked.
   */
  const deleteAgentCopy = async (deleted: { sessionId: string; agentId: string; acpSessionId: string }) => {
    try {
      const kept = await (store.listLater ? store.listLater({ includeArchived: true }) : store.list({ includeArchived: true }))
      if (kept.some((s) => s.sessionId !== deleted.sessionId && s.agentId === deleted.agentId && s.acpSessionId === deleted.acpSessionId)) return
      const result = await sessions?.deleteAgentSession(deleted.agentId, deleted.acpSessionId)
      if (!result || result.ok) return
      const failure = redact(result.error)
      const name = options.agentName?.(deleted.agentId) ?? deleted.agentId
      logger.warn(`session/delete of ${deleted.sessionId} failed: ${failure.message}`)
      events.emit('appNotice', {
        severity: 'warning',
        title: `${name} kept its own copy of the deleted session`.slice(0, 512),
        description: `Bosun deleted the session here; ${name} answered the request to delete its copy with: ${failure.message}`.slice(0, 4096),
      })
    } catch (error) {
      logger.warn(`session/delete of ${deleted.sessionId} failed`, error)
    }
  }

  /**
   * The newest stored session under each of the agent's ids. An agent that numbers its sessions from 1 again after a
   * restart gave an id to a newer session (kept as `<id>#n`): the agent's is the newest stored under the id, not the
   * one that had it first. What was shown so far is posted first, so a session opened in this run is in it.
   */
  const storedUnder = async (agentId: string): Promise<Map<string, HistorySummary>> => {
    recorder.flush()
    const kept = await (store.listLater ? store.listLater({ includeArchived: true }) : store.list({ includeArchived: true }))
    const newest = new Map<string, HistorySummary>()
    for (const s of kept) {
      if (s.agentId !== agentId) continue
      const seen = newest.get(s.acpSessionId)
      if (!seen || s.createdAt > seen.createdAt) newest.set(s.acpSessionId, s)
    }
    return newest
  }

  /**
   * The agents' `session/list`s in flight, by agent and folder, for the person's Cancel (B16). Each is removed when it
   * ends, so there are never more than the listings running.
   */
  const listings = new Map<string, Set<AbortController>>()
  const listingKey = (agentId: string, cwd: string) => `${agentId}\n${cwd}`
  const listAgentSessions = async (port: HistorySessionsPort, agentId: string, cwd: string) => {
    const key = listingKey(agentId, cwd)
    const controller = new AbortController()
    const running = listings.get(key) ?? new Set<AbortController>()
    listings.set(key, running.add(controller))
    try {
      return await port.listAgentSessions(agentId, cwd, controller.signal)
    } finally {
      running.delete(controller)
      if (running.size === 0 && listings.get(key) === running) listings.delete(key)
    }
  }

  /**
   * A save through the dialog runs (an image or an export), from its look-up to the dialog's end: calls meanwhile are
   * refused at once. Each looked through or rendered a whole session first (an export of a large stored session takes
   * seconds of main's thread), only for the dialog to refuse it.
   */
  let saving = false
  const handlers: HistoryHandlers = {
    historyAgentSessions: async ({ agentId, cwd }) => {
      if (!sessions) return fail({ kind: 'internal', message: 'History is not ready.' })
      const listed = await listAgentSessions(sessions, agentId, cwd)
      if (!listed.ok) return fail(redact(listed.error))
      if (listed.value === null) return ok({ supported: false, sessions: [] })
      return io('Reading the history', async () => {
        const kept = await storedUnder(agentId)
        return ok({
          supported: true,
          sessions: listed.value!.map((s) => ({
            acpSessionId: s.sessionId,
            cwd: s.cwd,
            // The agent's words, as a session_info_update's title is (its folders stay as given: they are opened by them).
            title: s.title !== null && options.redactText ? options.redactText(s.title) : s.title,
            updatedAt: s.updatedAt,
            ...(s.additionalDirectories ? { additionalDirectories: s.additionalDirectories } : {}),
            // Open here counts, written or not.
            stored: kept.has(s.sessionId) || sessions?.has(`${agentId}/${s.sessionId}`) === true,
          })),
        })
      })
    },
    historyCancelAgentSessions: async ({ agentId, cwd }) => {
      // Those asking answer `cancelled` at once; a page in flight is withdrawn, its late answer dropped (B16).
      for (const controller of listings.get(listingKey(agentId, cwd)) ?? []) controller.abort()
      return ok(undefined)
    },
    historyOpenAgentSession: async ({ agentId, acpSessionId, cwd, additionalDirectories, title }) => {
      if (!sessions) return fail({ kind: 'internal', message: 'History is not ready.' })
      // One Bosun already keeps (the newest under the id): open it from the database (the next prompt reattaches it).
      const stored = await io('Opening the session', async () => {
        const kept = (await storedUnder(agentId)).get(acpSessionId)
        return kept ? openStored(kept.sessionId) : ok(null)
      })
      if (!stored.ok || stored.value) return stored as Result<{ sessionId: string }>
      // The listed folders are the session's complete list (E17), not added to anything: those that are folders here.
      const { folders, missing } = await listedFoldersHere(additionalDirectories ?? [], cwd)
      const opened = await sessions.openAgentSession(agentId, acpSessionId, cwd, { additionalDirectories: folders, missingFolders: missing, title: title ?? null })
      return opened.ok ? opened : fail(redact(opened.error))
    },
    historyList: ({ includeArchived }) =>
      io('Reading the history', async () => {
        const options = includeArchived ? { includeArchived } : {}
        // The history thread answers after what it is writing; main reads its agents meanwhile.
        const stored = await (store.listLater ? store.listLater(options) : store.list(options))
        // Closed while the history could not be written: listed from memory (newer than any stored copy), and opened so.
        const held = recorder.closedSummaries()
        const sessions = held.length === 0 ? stored : [...held, ...stored.filter((s) => !held.some((h) => h.sessionId === s.sessionId))].sort((a, b) => b.updatedAt - a.updatedAt)
        const p = problem()
        return ok({ sessions, problem: p ? { message: p } : null })
      }),
    historyOpen: ({ sessionId }) => io('Opening the session', () => openStored(sessionId)),
    historyRename: ({ sessionId, title }) =>
      io('Renaming the session', () => {
        const name = title?.trim() ? title.trim() : null
        if (!store.rename(sessionId, name)) return fail({ kind: 'not-found', message: `No stored session ${sessionId}.` })
        changed()
        return ok(undefined)
      }),
    historyArchive: ({ sessionId, archived }) =>
      io('Archiving the session', () => {
        if (!store.setArchived(sessionId, archived)) return fail({ kind: 'not-found', message: `No stored session ${sessionId}.` })
        changed()
        return ok(undefined)
      }),
    historyDelete: ({ sessionId }) =>
      io('Deleting the session', () => {
        const open = sessions?.has(sessionId) === true
        // Whose session it is, read before it goes (an open one may not be written yet).
        const identity = (open ? sessions!.state(sessionId) : undefined) ?? store.summary(sessionId)
        recorder.drop(sessionId)
        if (open) sessions!.closeSession(sessionId)
        const deleted = store.delete(sessionId)
        changed()
        if (!deleted && !open) return fail({ kind: 'not-found', message: `No stored session ${sessionId}.` })
        if (identity) void deleteAgentCopy({ sessionId, agentId: identity.agentId, acpSessionId: identity.acpSessionId })
        // An open session the recorder had not written yet is as deleted as a stored one.
        return ok(undefined)
      }),
    historySearch: ({ query, limit }) =>
      io('Searching', async () => {
        if (!toFtsQuery(query)) return ok({ hits: [] })
        // What was shown so far is posted first: the search, answered after it, finds it.
        recorder.flush()
        const rows = await (store.searchLater ? store.searchLater(query, limit ?? 50) : store.search(query, limit ?? 50))
        return ok({ hits: rows.map(({ body, ...hit }) => ({ ...hit, snippet: snippetOf(searchTextOfBody(body), query).slice(0, 4096) })) })
      }),
    historyExport: async ({ sessionId, format }) => {
      const saveFile = options.saveFile
      // One save through the dialog at a time (see `saving`); the browser host answers with the content, nothing waits.
      if (saveFile && saving) return fail({ kind: 'busy', message: BUSY_SAVING })
      if (saveFile) saving = true
      try {
        const read = await io('Exporting the session', () => {
          const state = readState(sessionId)
          if (!state) return fail({ kind: 'not-found', message: `No session ${sessionId}.` })
          const summary = store.summary(sessionId)
          const content = format === 'markdown' ? sessionToMarkdown(state, summary, options.agentName?.(state.agentId)) : sessionToJson(state, summary)
          return ok({ content, fileName: exportFileName(exportTitle(state, summary), format) })
        })
        if (!read.ok) return read
        const { content, fileName } = read.value
        const mimeType = format === 'markdown' ? 'text/markdown' : 'application/json'
        if (!saveFile) return ok({ fileName, mimeType, content })
        try {
          return ok({ fileName, mimeType, savedTo: await saveFile(fileName, content, format) })
        } catch (error) {
          return fail({ kind: 'io-error', message: `Saving the export failed: ${error instanceof Error ? error.message : String(error)}` })
        }
      } finally {
        if (saveFile) saving = false
      }
    },
    saveImage: async ({ sessionId, sha256 }) => {
      const saveFile = options.saveFile
      if (!saveFile) return fail({ kind: 'unsupported', message: 'Saving an image through Bosun is not available here.' })
      // One at a time, from the look-up to the dialog's end: calls at once each looked through the whole session first.
      if (saving) return fail({ kind: 'busy', message: BUSY_SAVING })
      saving = true
      try {
        const found = await io('Saving the image', () => {
          // Only from an open session (what the page draws): a stored one would be read and every image hashed again
          // for each call, new objects each time. A page shows images of open sessions only, so this is a page that
          // lags a close (or lies), and the person is told how to get the image.
          if (!sessions?.has(sessionId)) return fail({ kind: 'not-found', message: 'This session is not open: open it from the history to save its images.' })
          const state = openState(sessionId)
          if (!state) return fail({ kind: 'not-found', message: `No session ${sessionId}.` })
          const image = findSessionImage(state, sha256)
          return image ? ok(image) : fail({ kind: 'not-found', message: 'The session holds no such image.' })
        })
        if (!found.ok) return found
        const { fileName, base64 } = found.value
        return ok({ savedTo: await saveFile(fileName, Buffer.from(base64, 'base64'), 'image') })
      } catch (error) {
        return fail({ kind: 'io-error', message: `Saving the image failed: ${error instanceof Error ? error.message : String(error)}` })
      } finally {
        saving = false
      }
    },
  }

  return {
    hooks,
    handlers,
    bind: (port) => {
      sessions = port
    },
    flush: () => recorder.flush(),
    problem,
    dispose() {
      for (const running of listings.values()) for (const controller of running) controller.abort()
      listings.clear()
      recorder.dispose()
      store.dispose()
    },
  }
}
