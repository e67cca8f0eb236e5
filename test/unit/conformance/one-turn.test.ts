/**
 * F3 (v1: one turn per session at a time): a second message while the first turn runs is refused in main, and the
 * agent is never sent a second `session/prompt`; once the turn ended, the next one goes out. Another session of the
 * same agent is not held back.
 */
import { describe, expect, it } from 'vitest'
import { Deferred } from '../../../main/base/deferred'
import type { PromptOutcome } from '../../../main/acp/types'
import { fakeAgentConnection, sessionsOn } from '../../support/fake-agent-connection'

describe('one turn per session (F3)', () => {
  it('a second message while a turn runs is refused and never reaches the agent', async () => {
    const turns: { sessionId: string; done: Deferred<PromptOutcome> }[] = []
    let next = 0
    const { connection } = fakeAgentConnection({
      newSession: async () => ({ sessionId: `s${++next}` }),
      prompt: (sessionId: string) => {
        const done = new Deferred<PromptOutcome>()
        turns.push({ sessionId, done })
        return done.promise
      },
    })
    const service = sessionsOn(connection)
    const open = async () => {
      const created = await service.newSession('a', '/w')
      if (!created.ok) throw new Error(created.error.message)
      return created.value.sessionId
    }
    const a = await open()
    const b = await open()
    const first = service.prompt(a, [{ type: 'text', text: 'one' }])
    await expect.poll(() => turns.length).toBe(1)
    const second = await service.prompt(a, [{ type: 'text', text: 'two' }])
    expect(second).toMatchObject({ ok: false, error: { kind: 'invalid-argument' } })
    expect(turns).toHaveLength(1)
    // Another session's turn is its own.
    void service.prompt(b, [{ type: 'text', text: 'elsewhere' }])
    await expect.poll(() => turns.map((t) => t.sessionId)).toEqual(['s1', 's2'])
    turns[0]!.done.resolve({ stopReason: 'end_turn' })
    expect(await first).toMatchObject({ ok: true })
    void service.prompt(a, [{ type: 'text', text: 'three' }])
    await expect.poll(() => turns.map((t) => t.sessionId)).toEqual(['s1', 's2', 's1'])
    service.dispose()
  })
})
