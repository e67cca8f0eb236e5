/**
 * `_meta` is opaque and preserved when storing (I1): what the session keeps of it (message chunks, whole messages,
 * session info, plans) is written by the recorder to the history database and comes back when the session is
 * opened from it.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { applyActions, createSessionState } from '../../../common/session/reducer'
import type { SessionAction, SessionState } from '../../../common/session/types'
import { createLogger } from '../../../main/base/log'
import type { HistoryStore } from '../../../main/history/history-store'
import { HistoryRecorder } from '../../../main/history/recorder'
import { restoreSessionState } from '../../../main/history/restore'
import { openHistoryStore } from '../../../main/history/sqlite-history-store'

const cleanup: (() => void)[] = []
afterEach(() => {
  for (const fn of cleanup.splice(0)) fn()
})

function storeAndRecorder(): { store: HistoryStore; recorder: HistoryRecorder } {
  const home = mkdtempSync(join(tmpdir(), 'bosun-meta-'))
  const { store } = openHistoryStore(home)
  const recorder = new HistoryRecorder(store, { logger: createLogger('test', () => undefined) })
  cleanup.push(() => {
    recorder.dispose()
    store.dispose()
    rmSync(home, { recursive: true, force: true })
  })
  return { store, recorder }
}

const updates = (...list: Record<string, unknown>[]): SessionAction => ({ type: 'updates', updates: list as { sessionUpdate: string }[] })
const text = (t: string) => ({ type: 'text', text: t })

describe.each([1, 2] as const)('_meta through the history store and back (v%i)', (version) => {
  it('message chunks, whole messages, session info and plans keep theirs', () => {
    const { store, recorder } = storeAndRecorder()
    let state: SessionState = createSessionState({ sessionId: 'a/s1', acpSessionId: 's1', agentId: 'a', protocolVersion: version, cwd: '/w' })
    recorder.track(state)
    const apply = (...actions: SessionAction[]) => {
      state = applyActions(state, actions)
      recorder.changed(state)
    }
    apply(
      { type: 'local_prompt', content: [text('go')] },
      { type: 'turn_started' },
      updates(
        { sessionUpdate: 'agent_thought_chunk', messageId: 't1', content: text('hm'), _meta: { effort: 'high' } },
        { sessionUpdate: 'agent_message_chunk', messageId: 'm1', content: text('Hel'), _meta: { traceparent: '00-abc-def-01' } },
        { sessionUpdate: 'agent_message_chunk', messageId: 'm1', content: text('lo'), _meta: { vendor: { tokens: [1, 2] } } },
        version === 1
          ? { sessionUpdate: 'plan', entries: [{ content: 'step', priority: 'high', status: 'pending', _meta: { id: 'e1' } }], _meta: { source: 'planner' } }
          : { sessionUpdate: 'plan_update', plan: { planId: 'p1', type: 'items', entries: [{ content: 'step', priority: 'high', status: 'pending', _meta: { id: 'e1' } }], _meta: { source: 'planner' } }, _meta: { seq: 3 } },
        ...(version === 2 ? [{ sessionUpdate: 'agent_message', messageId: 'm2', content: [text('whole')], _meta: { own: true } }] : []),
      ),
    )
    recorder.flush()
    // A later write that changes nothing but the session info's _meta still reaches the database.
    apply(updates({ sessionUpdate: 'session_info_update', _meta: { project: { id: 7 } } }))
    recorder.flush()
    expect(state.infoMeta).toEqual({ project: { id: 7 } })

    const restored = restoreSessionState(store.load('a/s1')!).state
    expect(restored.entries).toEqual(JSON.parse(JSON.stringify(state.entries)))
    expect(restored.entries).toContainEqual(expect.objectContaining({ kind: 'agent_message', chunkMeta: [{ traceparent: '00-abc-def-01' }, { vendor: { tokens: [1, 2] } }] }))
    expect(restored.entries).toContainEqual(expect.objectContaining({ kind: 'agent_thought', chunkMeta: [{ effort: 'high' }] }))
    if (version === 2) expect(restored.entries).toContainEqual(expect.objectContaining({ kind: 'agent_message', _meta: { own: true } }))
    expect(restored.infoMeta).toEqual({ project: { id: 7 } })
    expect(restored.plans).toEqual(state.plans)
    expect(restored.plans[0]).toMatchObject({ _meta: { source: 'planner' }, entries: [{ _meta: { id: 'e1' } }], ...(version === 2 ? { updateMeta: { seq: 3 } } : {}) })
  })
})
