/**
 * A session's settings (`session/set_config_option`, `set_mode`, `set_model`) are raced against the session-call
 * deadline, as new, load and resume are: a reattach sets the mode back before the prompt goes (restoreMode), so an
 * agent that never answered one held every later prompt of the session, and the person's change, for ever.
 */
import { describe, expect, it } from 'vitest'
import { fakeAgentConnection, sessionsOn } from '../../support/fake-agent-connection'

describe('a setting the agent never answers', () => {
  it('fails after the deadline', async () => {
    const { connection } = fakeAgentConnection({ setConfigOption: () => new Promise(() => undefined), setMode: () => new Promise(() => undefined) })
    const timers: (() => void)[] = []
    const service = sessionsOn(connection, { scheduler: { setTimeout: (fn: () => void) => timers.push(fn), clearTimeout: () => undefined }, sessionCallTimeoutMs: 1_000 })
    const created = await service.newSession('a', '/w')
    if (!created.ok) throw new Error(created.error.message)
    for (const call of [service.setConfigOption(created.value.sessionId, 'model', 'fast'), service.setMode(created.value.sessionId, 'code')]) {
      for (let i = 0; i < 5; i++) await Promise.resolve()
      for (const run of timers.splice(0)) run()
      expect(await Promise.race([call, new Promise((resolve) => setTimeout(() => resolve('still waiting'), 100))])).toMatchObject({ ok: false, error: { kind: 'timeout' } })
    }
    service.dispose()
  })
})
