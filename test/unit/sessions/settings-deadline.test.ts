/**
 * A session's settings (`session/set_config_option`, `set_mode`, `set_model`) are raced against the session-call
 * deadline, as new, load and resume are: a reattach sets the mode back before the prompt goes (restoreMode), so an
 * agent that never answered one held every later prompt of the session, and the person's change, for ever.
 */
import { describe, expect, it } from 'vitest'
import { fakeAgentConnection, sessionsOn } from '../../support/fake-agent-connection'

describe('a setting the agent never answers', () => {
  it('fails after the deadline', async () => {
    // The first session offers a model option, the second (v1 legacy) modes: main sends only what a session offers.
    const offered = [
      { configOptions: [{ id: 'model', name: 'Model', type: 'select', currentValue: 'smart', options: [{ value: 'smart', name: 'Smart' }, { value: 'fast', name: 'Fast' }] }] },
      { modes: { currentModeId: 'ask', availableModes: [{ id: 'ask', name: 'Ask' }, { id: 'code', name: 'Code' }] } },
    ]
    let sessions = 0
    const { connection } = fakeAgentConnection({
      newSession: async () => ({ sessionId: `s${++sessions}`, ...offered[sessions - 1], raw: {} }),
      setConfigOption: () => new Promise(() => undefined),
      setMode: () => new Promise(() => undefined),
    })
    const timers: (() => void)[] = []
    const service = sessionsOn(connection, { scheduler: { setTimeout: (fn: () => void) => timers.push(fn), clearTimeout: () => undefined }, sessionCallTimeoutMs: 1_000 })
    const withOption = await service.newSession('a', '/w')
    const withModes = await service.newSession('a', '/w')
    if (!withOption.ok || !withModes.ok) throw new Error('no session')
    for (const call of [service.setConfigOption(withOption.value.sessionId, 'model', 'fast'), service.setMode(withModes.value.sessionId, 'code')]) {
      for (let i = 0; i < 5; i++) await Promise.resolve()
      for (const run of timers.splice(0)) run()
      expect(await Promise.race([call, new Promise((resolve) => setTimeout(() => resolve('still waiting'), 100))])).toMatchObject({ ok: false, error: { kind: 'timeout' } })
    }
    service.dispose()
  })
})
