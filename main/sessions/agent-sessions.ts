/**
 * The agent's own sessions, beside the ones open here: its `session/list` for a folder (E-section, B16 for a cancel) and
 * the deletion of its copy (`session/delete`, E10). Neither opens a session; `SessionsService` answers for both.
 */
import { isAbsolute, resolve } from 'node:path'
import { fail, ok, toFailure, type Result } from '../base/errors'
import type { AcpClientConnection, AgentSessionInfo } from '../acp/types'
import type { AgentPort } from './sessions-service'
import { titleText } from '../../common/session/title'
import { undelivered } from './session-notices'

/** What the agent's sessions need of the sessions service. */
export interface AgentSessionsPort {
  /** Starts the agent if needed (a listing does; a deletion never does). */
  connect: AgentPort['connect']
  /** The agent's live connection when it runs, never starting it. */
  running(agentId: string): AcpClientConnection | undefined
  /** A session call raced against its deadline (`session/list`, `session/delete`). */
  withTimeout<T>(method: string, call: Promise<T>): Promise<T>
  /** Bosun's id of the open session the agent calls `acpSessionId`, if any. */
  resolve(agentId: string, acpSessionId: string): string | undefined
}

/**
 * Asks the agent to delete its own copy of a session (`session/delete`, E10), only when the agent is running (it is
 * not started for this) and advertises it, and only when no session open here is the one the agent calls by that id
 * now (an agent that numbers its sessions anew after a restart). `sent: false`: nothing was asked. A -32002 counts
 * as deleted.
 */
export async function deleteAgentSession(port: AgentSessionsPort, agentId: string, acpSessionId: string): Promise<Result<{ sent: boolean }>> {
  const connection = port.running(agentId)
  if (!connection?.deleteSession || !connection.handshake?.capabilities.deleteSession) return ok({ sent: false })
  if (port.resolve(agentId, acpSessionId) !== undefined) return ok({ sent: false })
  try {
    await port.withTimeout('session/delete', connection.deleteSession(acpSessionId))
    return ok({ sent: true })
  } catch (error) {
    return fail(undelivered(toFailure(error), 'the request to delete the session'))
  }
}

/**
 * The agent's own sessions for a folder (`session/list`, up to 5 pages); `null` when the agent does not list them.
 * `signal`: the person cancelled; answered `cancelled` at once, the page asked withdrawn (B16), the agent left to start.
 */
export async function listAgentSessions(port: AgentSessionsPort, agentId: string, cwd: string, signal?: AbortSignal): Promise<Result<AgentSessionInfo[] | null>> {
  const cancelled = () => fail({ kind: 'cancelled', message: 'Listing the agent’s sessions was cancelled.' })
  const connected = await unlessAborted(port.connect(agentId), signal)
  if (connected === ABORTED) return cancelled()
  if (!connected.ok) return connected
  const { connection } = connected.value
  if (!connection.listSessions || !connection.handshake?.capabilities.listSessions) return ok(null)
  try {
    // By id: an agent that lists a session twice (on one page, or again on each page its cursors cycle through) gets one row.
    const all = new Map<string, AgentSessionInfo>()
    const cursors = new Set<string>()
    let cursor: string | undefined
    for (let page = 0; page < 5; page++) {
      if (signal?.aborted) return cancelled()
      const { sessions, nextCursor } = await port.withTimeout('session/list', connection.listSessions({ cwd, ...(cursor !== undefined ? { cursor } : {}) }, signal))
      // The agent filters by folder and may write it its own way (a trailing slash, `.` segments): the same folder is kept.
      for (const s of sessions) {
        if (all.has(s.sessionId) || !sameFolder(s.cwd, cwd)) continue
        // Its title as the sidebar lists every title: a right-to-left override made "Fix login \u202Efdp.exe" read "… exe.pdf".
        all.set(s.sessionId, s.title === null ? s : { ...s, title: titleText(s.title) })
      }
      // An empty cursor is a cursor (v2 says so); only none ends the list. One handed back again would repeat a page.
      if (nextCursor === null || cursors.has(nextCursor)) break
      cursors.add(nextCursor)
      cursor = nextCursor
    }
    return ok([...all.values()])
  } catch (error) {
    return fail(undelivered(toFailure(error), 'the request for its sessions'))
  }
}

const ABORTED = Symbol('aborted')

/** `promise`'s value, or {@link ABORTED} as soon as `signal` aborts (the work itself goes on). */
function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T | typeof ABORTED> {
  if (!signal) return promise
  if (signal.aborted) return Promise.resolve(ABORTED)
  return new Promise<T | typeof ABORTED>((resolve, reject) => {
    const onAbort = () => resolve(ABORTED)
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
  })
}

/** Whether two absolute paths name the same folder, written differently (trailing separators, `.` and `..`). */
function sameFolder(a: string, b: string): boolean {
  return a === b || (isAbsolute(a) && resolve(a) === resolve(b))
}
