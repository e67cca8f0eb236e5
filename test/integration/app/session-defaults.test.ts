/**
 * An agent definition's `defaultMode` / `defaultConfigOptions` applied to every new session through the
 * composition root (`createBosunServices` → `newSession`), against the scripted agent: only a mode the agent
 * lists and option values of the option's kind are sent, values already current are not, and by the time
 * `newSession` answers the session is in its default state.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { must, servicesPerTest } from '../../support/services'

const startServices = servicesPerTest()

async function start(scenario: string, v2: boolean, defaults: { defaultMode?: string; defaultConfigOptions?: Record<string, string | boolean> }) {
  const { sink, handlers, workspace } = await startServices([{ id: 'agent', name: 'Agent', scenario, v2 }], ({ home }) => {
    const file = join(home, 'agents.json')
    const stored = JSON.parse(readFileSync(file, 'utf8')) as { agents: Record<string, unknown>[] }
    Object.assign(stored.agents[0]!, defaults)
    writeFileSync(file, JSON.stringify(stored))
  })
  const newSession = async () => {
    const { sessionId } = must(await handlers.newSession({ agentId: 'agent', cwd: workspace }))
    const session = must(await handlers.getSnapshot(undefined)).sessions.find((s) => s.sessionId === sessionId)!
    return { sessionId, session }
  }
  /** What Bosun asked the agent to change, in order. */
  const sets = async () =>
    must(await handlers.listInspectorMessages({ agentId: 'agent' }))
      .messages.filter((m) => m.direction === 'out' && m.kind === 'request' && (m.method === 'session/set_mode' || m.method === 'session/set_config_option'))
      .map((m) => ({ method: m.method, params: (m.message as { params: Record<string, unknown> }).params }))
  /** Warnings shown in the session (a refused default would be one). */
  const notices = (sessionId: string) => sink.of('sessionActions').filter((b) => b.sessionId === sessionId).flatMap((b) => b.actions).filter((a) => a.type === 'updates' && a.updates.some((u) => u.sessionUpdate === 'notice'))
  return { handlers, newSession, sets, notices }
}

const current = (session: { configOptions: { id: string; currentValue: unknown }[] }) =>
  Object.fromEntries(session.configOptions.map((o) => [o.id, o.currentValue]))

describe('session defaults from the agent definition', () => {
  it('v1 legacy modes: the default mode goes out as session/set_mode when the agent lists it', async () => {
    const { newSession, sets } = await start('session-defaults-modes', false, { defaultMode: 'code' })
    const { session } = await newSession()
    expect(session.modes?.currentModeId).toBe('code')
    expect(await sets()).toEqual([{ method: 'session/set_mode', params: { sessionId: session.acpSessionId, modeId: 'code' } }])

    // Every new session gets it, not only the first.
    const second = await newSession()
    expect(second.session.modes?.currentModeId).toBe('code')
    expect(await sets()).toHaveLength(2)
  })

  it('a default the agent refuses: the session still starts, in the agent\'s mode, with a warning that says why', async () => {
    const { newSession, sets, notices } = await start('session-defaults-refused', false, { defaultMode: 'code' })
    const { sessionId, session } = await newSession()
    expect(await sets()).toEqual([{ method: 'session/set_mode', params: { sessionId: session.acpSessionId, modeId: 'code' } }])
    expect(session.modes?.currentModeId).toBe('ask')
    const shown = JSON.stringify([...notices(sessionId), ...session.notices])
    expect(shown).toContain('modes are locked in this workspace')
  })

  it('v1 legacy modes: a mode the agent does not list sends nothing', async () => {
    const { newSession, sets } = await start('session-defaults-modes', false, { defaultMode: 'architect' })
    const { session } = await newSession()
    expect(session.modes?.currentModeId).toBe('ask')
    expect(await sets()).toEqual([])
  })

  describe.each([
    ['v1', false, {}],
    ['v2', true, { type: 'id' }],
  ])('%s config options', (label, v2, selectType) => {
    it('sets the mode option from defaultMode and the offered option values; skips unknown options and values that do not fit', async () => {
      const { newSession, sets, notices } = await start(`session-defaults-${label}`, v2, {
        defaultMode: 'code',
        defaultConfigOptions: { model: 'smart', 'run-tests': true, effort: 'extreme', 'not-offered': 'x', 'run-tests-typo': true },
      })
      const { sessionId, session } = await newSession()
      expect(session.protocolVersion).toBe(v2 ? 2 : 1)
      expect(current(session)).toEqual({ mode: 'code', model: 'smart', effort: 'low', 'run-tests': true })
      const acp = session.acpSessionId
      expect(await sets()).toEqual([
        { method: 'session/set_config_option', params: { sessionId: acp, configId: 'model', value: 'smart', ...selectType } },
        { method: 'session/set_config_option', params: { sessionId: acp, configId: 'run-tests', value: true, type: 'boolean' } },
        { method: 'session/set_config_option', params: { sessionId: acp, configId: 'mode', value: 'code', ...selectType } },
      ])
      expect(notices(sessionId)).toEqual([])
    })

    it('an explicit value for the mode option wins over defaultMode; values already current are not sent', async () => {
      const { newSession, sets } = await start(`session-defaults-${label}`, v2, {
        defaultMode: 'code',
        defaultConfigOptions: { mode: 'ask', model: 'fast', effort: 'high', 'run-tests': 'yes' },
      })
      const { session } = await newSession()
      expect(current(session)).toEqual({ mode: 'ask', model: 'fast', effort: 'high', 'run-tests': false })
      expect(await sets()).toEqual([
        { method: 'session/set_config_option', params: { sessionId: session.acpSessionId, configId: 'effort', value: 'high', ...selectType } },
      ])
    })
  })

  it.each([
    ['v1', false],
    ['v2', true],
  ])('%s: changing an option of a session whose agent restarted brings the session back first, as a message does', async (label, v2) => {
    const { handlers, newSession, sets } = await start(`session-defaults-${label}`, v2, {})
    const { sessionId, session } = await newSession()
    must(await handlers.restartAgent({ agentId: 'agent' }))
    must(await handlers.setConfigOption({ sessionId, configId: 'model', value: 'smart' }))
    expect((await sets()).at(-1)).toMatchObject({ method: 'session/set_config_option', params: { sessionId: session.acpSessionId, configId: 'model', value: 'smart' } })
    const after = must(await handlers.getSnapshot(undefined)).sessions.find((s) => s.sessionId === sessionId)!
    expect(current(after)).toMatchObject({ model: 'smart' })
  })

  it.each([
    ['v1', false],
    ['v2', true],
  ])('%s: a mode, an option or a value the agent did not offer never reaches it (E12, E13, E14)', async (label, v2) => {
    const { handlers, newSession, sets } = await start(`session-defaults-${label}`, v2, {})
    const { sessionId } = await newSession()
    const refused = [
      // No modes in this session (its config options are the mode): no session/set_mode.
      await handlers.setMode({ sessionId, modeId: 'code' }),
      await handlers.setConfigOption({ sessionId, configId: 'approval', value: 'never-ask' }),
      await handlers.setConfigOption({ sessionId, configId: 'model', value: 'expensive' }),
      await handlers.setConfigOption({ sessionId, configId: 'model', value: true }),
      await handlers.setConfigOption({ sessionId, configId: 'run-tests', value: 'yes' }),
    ]
    for (const result of refused) expect(result).toEqual({ ok: false, error: expect.objectContaining({ kind: 'invalid-argument' }) })
    expect(await sets()).toEqual([])
  })

  it('v1 legacy modes: a mode the agent does not list is refused and not sent; a listed one is', async () => {
    const { handlers, newSession, sets } = await start('session-defaults-modes', false, {})
    const { sessionId, session } = await newSession()
    expect(await handlers.setMode({ sessionId, modeId: 'bypassPermissions' })).toEqual({ ok: false, error: expect.objectContaining({ kind: 'invalid-argument', message: expect.stringContaining('bypassPermissions') }) })
    // Nor an option: this session has none.
    expect((await handlers.setConfigOption({ sessionId, configId: 'mode', value: 'code' })).ok).toBe(false)
    expect(await sets()).toEqual([])
    must(await handlers.setMode({ sessionId, modeId: 'code' }))
    expect(await sets()).toEqual([{ method: 'session/set_mode', params: { sessionId: session.acpSessionId, modeId: 'code' } }])
  })

  it('without defaults nothing is sent', async () => {
    const { newSession, sets } = await start('session-defaults-v1', false, {})
    const { session } = await newSession()
    expect(current(session)).toEqual({ mode: 'ask', model: 'fast', effort: 'low', 'run-tests': false })
    expect(await sets()).toEqual([])
  })
})
