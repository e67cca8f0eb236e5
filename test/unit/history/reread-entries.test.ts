/**
 * Sessions stored before the reducer understood v2 subagents kept each `subagent_update` and `session_message` as a
 * 'not understood' line whose stored form is the update itself. Opened from the history they show as what they are
 * (the subagent's card, its brief and report as the card's text), and a session opened to go on rewrites its rows:
 * the rows past its fewer entries go, so nothing stale comes back the next time.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { applyActions, createSessionState } from '../../../common/session/reducer'
import type { Entry, SessionState, ToolCallEntry } from '../../../common/session/types'
import { createLogger } from '../../../main/base/log'
import type { HistoryStore } from '../../../main/history/history-store'
import { HistoryRecorder } from '../../../main/history/recorder'
import { restoreSessionState, settled } from '../../../main/history/restore'
import { openHistoryStore as openInThread } from '../../../main/history/sqlite-history-store'
import { openHistoryStore as openOnItsThread } from '../../../main/history/worker-history-store'

const cleanup: (() => void)[] = []
afterEach(() => {
  for (const fn of cleanup.splice(0)) fn()
})

/** The store on main's thread, or on its own (its writes are encoded there: the rows to remove are said through it). */
const opens = [
  ['on main’s thread', openInThread],
  ['on its own thread', openOnItsThread],
] as const
let openStore: (home: string) => { store: HistoryStore } = openInThread

function storeAndRecorder(): { store: HistoryStore; recorder: () => HistoryRecorder } {
  const home = mkdtempSync(join(tmpdir(), 'bosun-reread-'))
  const { store } = openStore(home)
  const recorders: HistoryRecorder[] = []
  cleanup.push(() => {
    for (const r of recorders) r.dispose()
    store.dispose()
    rmSync(home, { recursive: true, force: true })
  })
  return {
    store,
    recorder: () => {
      const r = new HistoryRecorder(store, { logger: createLogger('test', () => undefined) })
      recorders.push(r)
      return r
    },
  }
}

const text = (t: string) => ({ type: 'text', text: t })
const unknown = (position: number, raw: Record<string, unknown>): Entry => ({ kind: 'unknown', id: `unknown#${position}`, sessionUpdate: raw.sessionUpdate as string, raw })

/** A v2 session as Bosun wrote it before it understood subagents. */
function oldSession(): SessionState {
  const state = createSessionState({ sessionId: 'a/s1', acpSessionId: 's1', agentId: 'a', protocolVersion: 2, cwd: '/w' })
  const entries: Entry[] = [
    { kind: 'user_message', id: 'user#0', content: [text('Survey the repo')] } as Entry,
    unknown(1, { sessionUpdate: 'subagent_update', sessionId: 'child', title: 'Survey', state: { state: 'running' } }),
    unknown(2, { sessionUpdate: 'session_message', senderSessionId: 's1', recipientSessionId: 'child', content: [text('List the files')] }),
    unknown(3, { sessionUpdate: 'session_message', senderSessionId: 'child', recipientSessionId: 's1', content: [text('Three files')] }),
    unknown(4, { sessionUpdate: 'subagent_update', sessionId: 'child', state: { state: 'idle', stopReason: 'end_turn' } }),
    unknown(5, { sessionUpdate: 'session_message', senderSessionId: 'nobody', recipientSessionId: 's1', content: [text('Stray')] }),
    unknown(6, { sessionUpdate: 'something_new', x: 1 }),
    { kind: 'agent_message', id: 'agent#7', content: [text('The repo has three files.')] } as Entry,
  ]
  return { ...state, entries }
}

const shape = (entries: readonly Entry[]) => entries.map((e) => (e.kind === 'unknown' ? `unknown ${e.sessionUpdate}` : e.kind === 'tool_call' ? `tool ${e.toolCallId}` : e.kind))

describe.each(opens)('a session stored before subagents were understood (store %s)', (_label, open) => {
  beforeEach(() => {
    openStore = open
  })

  it('shows each subagent as its card, with the brief and the report; what is still not understood stays', () => {
    const { store, recorder } = storeAndRecorder()
    const old = recorder()
    old.track(oldSession())
    old.flush()
    const { state } = restoreSessionState(store.load('a/s1')!)
    expect(shape(state.entries)).toEqual(['user_message', 'tool subagent:child', 'unknown session_message', 'unknown something_new', 'agent_message'])
    const card = state.entries[1] as ToolCallEntry
    expect(card).toMatchObject({ title: 'Subagent: Survey', status: 'completed' })
    expect(JSON.stringify(card.content)).toContain('List the files')
    expect(JSON.stringify(card.content)).toContain('Three files')
    // The lines that stay keep their ids (no two entries share one).
    expect(state.entries[2]!.id).toBe('unknown#5')
    expect(new Set(state.entries.map((e) => e.id)).size).toBe(state.entries.length)
  })

  it('opened to go on, it is written as it now shows: the rows past its entries go, and the next opening shows the same', () => {
    const { store, recorder } = storeAndRecorder()
    const old = recorder()
    old.track(oldSession())
    old.flush()
    old.forget('a/s1')

    // As the history service opens a stored session to go on with it.
    const stored = store.load('a/s1')!
    const { state, settle, asStored, storedEnd } = restoreSessionState(stored)
    const next = recorder()
    let current = settled(state, settle)
    next.track(current, { written: asStored, storedEnd })
    current = applyActions(current, [{ type: 'updates', updates: [{ sessionUpdate: 'agent_message', messageId: 'm9', content: [text('Later')] }] }])
    next.changed(current)
    next.flush()

    const again = restoreSessionState(store.load('a/s1')!)
    expect(shape(again.state.entries)).toEqual(shape(current.entries))
    expect(store.load('a/s1')!.entries).toHaveLength(current.entries.length)
    expect(again.asStored).toBe(again.state)
  })

  it('opened only to read, it keeps its place and its time in the history (reading again is not activity)', () => {
    const { store, recorder } = storeAndRecorder()
    const old = recorder()
    old.track(oldSession(), { createdAt: 1_000, updatedAt: 2_000 })
    old.flush()
    old.forget('a/s1')
    const before = store.summary('a/s1')!.updatedAt

    const stored = store.load('a/s1')!
    const { state, settle, asStored, storedEnd } = restoreSessionState(stored)
    const later = new HistoryRecorder(store, { logger: createLogger('test', () => undefined), now: () => 9_000 })
    cleanup.unshift(() => later.dispose())
    const current = settled(state, settle)
    later.track(current, { written: asStored, storedEnd, createdAt: stored.row.createdAt, updatedAt: stored.row.updatedAt })
    later.flush()
    // Rewritten as it now shows, but not moved to the top of the list as if it had been used now.
    expect(store.load('a/s1')!.entries).toHaveLength(state.entries.length)
    expect(store.summary('a/s1')!.updatedAt).toBe(before)
    // Going on with it is using it.
    later.changed(applyActions(current, [{ type: 'updates', updates: [{ sessionUpdate: 'agent_message', messageId: 'm9', content: [text('Later')] }] }]))
    later.flush()
    expect(store.summary('a/s1')!.updatedAt).toBe(9_000)
  })

  it('a v1 session is read as stored (both kinds are v2’s)', () => {
    const { store, recorder } = storeAndRecorder()
    const old = recorder()
    old.track({ ...oldSession(), protocolVersion: 1 })
    old.flush()
    const { state } = restoreSessionState(store.load('a/s1')!)
    expect(state.entries.filter((e) => e.kind === 'unknown')).toHaveLength(6)
  })
})
