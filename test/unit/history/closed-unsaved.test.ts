/**
 * A session closed while the history cannot be written (a full disk, a database another program locks) is not lost:
 * the recorder keeps its last state and writes it once writing works again. Opened from the history meanwhile, it comes
 * back as it was when closed, not as the file last had it; and no new session takes its id while it waits.
 */
import { describe, expect, it } from 'vitest'
import { ok } from '../../../main/base/errors'
import { createLogger } from '../../../main/base/log'
import type { SessionWrite, StoredSession } from '../../../main/history/history-store'
import { FileHistoryStore } from '../../support/file-history-store'
import { createHistoryService, type HistorySessionsPort } from '../../../main/history/service'
import { encodeEntry, encodeSessionState } from '../../../main/history/entry-codec'
import { applyActions, createSessionState } from '../../../common/session/reducer'
import type { SessionState } from '../../../common/session/types'
import { RecordingSink } from '../../support/recording-sink'

/** A store on a file whose writes fail while `failing`; it holds what was written before (`stored`). */
class FailingStore extends FileHistoryStore {
  failing = false
  stored: StoredSession | undefined
  override write(writes: SessionWrite[]): void {
    if (this.failing) throw new Error('SQLITE_FULL: database or disk is full')
    this.written.push(...writes)
  }
  override load(sessionId: string): StoredSession | undefined {
    return this.stored?.row.sessionId === sessionId ? this.stored : undefined
  }
  override has(sessionId: string): boolean {
    return this.stored?.row.sessionId === sessionId
  }
}

function storedOf(state: SessionState): StoredSession {
  return {
    row: {
      sessionId: state.sessionId,
      agentId: state.agentId,
      acpSessionId: state.acpSessionId,
      cwd: state.cwd,
      title: null,
      createdAt: 1,
      updatedAt: 1,
      protocolVersion: 1,
      capabilities: null,
      turnState: 'idle',
      state: encodeSessionState(state),
      customTitle: null,
      archived: false,
    },
    entries: state.entries.map((entry, position) => ({ position, entryId: entry.id, kind: entry.kind, ...encodeEntry(entry) })),
  }
}

const prompt = (text: string) => ({ type: 'local_prompt' as const, content: [{ type: 'text' as const, text }] })

describe('a session closed while the history cannot be written', () => {
  it('is opened again as it was closed, its id kept meanwhile, and written once the store works', async () => {
    const store = new FailingStore()
    const events = new RecordingSink()
    const history = createHistoryService({ store, events, logger: createLogger('test', () => undefined), openProblem: null, intervalMs: 60_000 })
    const restored: SessionState[] = []
    history.bind({
      has: () => false,
      roomForAnother: () => ok(undefined),
      restore: (state: SessionState) => {
        restored.push(state)
        return ok({ sessionId: state.sessionId })
      },
    } as unknown as HistorySessionsPort)
    const created = createSessionState({ sessionId: 'a/s1', acpSessionId: 's1', agentId: 'a', protocolVersion: 1, cwd: '/w' })
    const first = applyActions(created, [prompt('first')])
    // The file has the first prompt; then writes fail, and the session goes on and is closed.
    store.stored = storedOf(first)
    history.hooks.created(created, {})
    history.hooks.changed(first)
    history.flush()
    store.failing = true
    const closed = applyActions(first, [prompt('second, never written')])
    history.hooks.changed(closed)
    history.hooks.closed('a/s1')
    expect(history.problem()).toMatch(/could not save the history/)
    expect(history.hooks.isTaken('a/s1')).toBe(true)
    // Listed meanwhile (the store lists nothing here), as it was closed, and the list was told to refresh.
    expect(events.of('historyChanged').length).toBeGreaterThan(0)
    const listed = await history.handlers.historyList({})
    expect(listed.ok && listed.value.sessions).toEqual([expect.objectContaining({ sessionId: 'a/s1', agentId: 'a', cwd: '/w', title: 'first', archived: false, interrupted: false })])

    expect(await history.handlers.historyOpen({ sessionId: 'a/s1' })).toEqual(ok({ sessionId: 'a/s1' }))
    expect(restored).toHaveLength(1)
    expect(restored[0]!.entries.map((e) => (e.kind === 'user_message' ? (e.content[0] as { text: string }).text : e.kind))).toEqual(['first', 'second, never written'])
    // Tracked again, and written whole once the store works.
    store.failing = false
    store.written.length = 0
    history.flush()
    expect(store.written.map((w) => w.entries.map((e) => e.position))).toEqual([[0, 1]])
    // Open again, it is no longer held: the store lists it from now on.
    const after = await history.handlers.historyList({})
    expect(after.ok && after.value.sessions).toEqual([])
    expect(history.hooks.isTaken('a/s1')).toBe(true)
    history.dispose()
  })
})
