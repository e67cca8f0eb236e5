/**
 * A mode whose name says the agent acts without asking ("YOLO", "Bypass Permissions", "Full Access") widens what runs
 * unasked as much as auto-approve does, so main asks the person before the page's word sets it: in a session (the mode
 * select, or a mode config option) and as an agent's default for every session. Refused, nothing changes; other modes
 * ask nothing.
 */
import { expect, it } from 'vitest'
import { RecordingConfirmation } from '../../support/confirmations'
import type { ConfirmationRequest } from '../../../main/trust/confirmation'
import { must, servicesPerTest } from '../../support/services'

const start = servicesPerTest()

/** The person: starts the agents (confirmed once), and answers `answer` about modes. */
class ModeConfirmation extends RecordingConfirmation {
  override async confirm(request: ConfirmationRequest) {
    if (request.kind !== 'auto-approve') return { confirmed: true, by: 'person' as const }
    return super.confirm(request)
  }
}

it('asks before a session switches to a mode that acts without asking, and keeps the mode when refused', async () => {
  const confirmation = new ModeConfirmation(false)
  const setup = await start([{ id: 'gemini-like', name: 'Gemini-like', scenario: 'session-models' }], undefined, { confirmation })
  const { handlers } = setup
  const sessionId = must(await handlers.newSession({ agentId: 'gemini-like', cwd: setup.workspace })).sessionId
  const mode = async () => must(await handlers.getSnapshot(undefined)).sessions.find((s) => s.sessionId === sessionId)!.modes?.currentModeId

  // It went to the agent at once: a page could let the agent run anything without a question.
  expect(await handlers.setMode({ sessionId, modeId: 'yolo' })).toMatchObject({ ok: false, error: { kind: 'not-confirmed' } })
  expect(await mode()).toBe('default')
  expect(confirmation.of('auto-approve')).toHaveLength(1)
  expect(confirmation.of('auto-approve')[0]).toMatchObject({ title: 'Let the agent act without asking', confirmLabel: 'Switch' })
  expect(confirmation.of('auto-approve')[0]!.message).toContain('"YOLO"')

  // Another mode asks nothing; confirmed, the mode is set.
  must(await handlers.setMode({ sessionId, modeId: 'autoEdit' }))
  expect(confirmation.asked).toHaveLength(1)
  confirmation.answer = true
  must(await handlers.setMode({ sessionId, modeId: 'yolo' }))
  expect(await mode()).toBe('yolo')
  expect(confirmation.asked).toHaveLength(2)
})

it('asks before a mode config option takes a value that acts without asking', async () => {
  const confirmation = new ModeConfirmation(false)
  const setup = await start([{ id: 'claude-like', name: 'Claude-like', scenario: 'e2e-claude-like', v2: true }], undefined, { confirmation })
  const { handlers } = setup
  const sessionId = must(await handlers.newSession({ agentId: 'claude-like', cwd: setup.workspace })).sessionId
  const configId = must(await handlers.getSnapshot(undefined)).sessions.find((s) => s.sessionId === sessionId)!.configOptions.find((o) => o.category === 'mode')!.id
  expect(await handlers.setConfigOption({ sessionId, configId, value: 'bypassPermissions' })).toMatchObject({ ok: false, error: { kind: 'not-confirmed' } })
  expect(confirmation.of('auto-approve')[0]!.message).toContain('"Bypass Permissions"')
  must(await handlers.setConfigOption({ sessionId, configId, value: 'plan' }))
  expect(confirmation.asked).toHaveLength(1)
})

it('asks before an agent’s definition makes such a mode the default of every session, and saves nothing when refused', async () => {
  const confirmation = new ModeConfirmation(false)
  const setup = await start([{ id: 'gemini-like', name: 'Gemini-like', scenario: 'session-models' }], undefined, { confirmation })
  const { handlers } = setup
  const def = must(await handlers.listAgentDefinitions(undefined)).agents.find((a) => a.id === 'gemini-like')!
  const draft = { id: def.id, name: def.name, command: def.command, argsText: def.args.join(' '), env: [], secretEnv: [], defaultCwd: '' }
  // Saved at once (the launch is the same): every session the person then started ran in YOLO, nothing asked.
  expect(await handlers.saveAgentDefinition({ draft: { ...draft, defaultMode: 'yolo' } })).toMatchObject({ ok: false, error: { kind: 'not-confirmed' } })
  expect(await handlers.saveAgentDefinition({ draft: { ...draft, defaultConfigOptions: { mode: 'bypassPermissions' } } })).toMatchObject({ ok: false, error: { kind: 'not-confirmed' } })
  expect(await handlers.saveAgentDefinition({ draft: { ...draft, defaultConfigOptions: { 'skip-permissions': true } } })).toMatchObject({ ok: false, error: { kind: 'not-confirmed' } })
  expect(must(await handlers.listAgentDefinitions(undefined)).agents.find((a) => a.id === 'gemini-like')).not.toHaveProperty('defaultMode')
  expect(confirmation.of('auto-approve').map((r) => r.detail)).toEqual(['yolo', 'bypassPermissions', 'skip-permissions'].map((m) => expect.stringContaining(`Default mode: "${m}"`)))
  // Another default asks nothing.
  must(await handlers.saveAgentDefinition({ draft: { ...draft, defaultMode: 'autoEdit', defaultConfigOptions: { 'run-tests': true } } }))
  expect(confirmation.asked).toHaveLength(3)
})

/** The agent's names are its own: a harmless id may be named "YOLO", a mode whose id says bypass may be named "Ask first". */
it('goes by the id as well as the name, and says which one it went by: a mode named "Ask first" whose id says bypass is quoted with its id', async () => {
  const confirmation = new ModeConfirmation(false)
  const setup = await start([{ id: 'odd', name: 'Odd', scenario: 'unattended-names' }], undefined, { confirmation })
  const { handlers } = setup
  const sessionId = must(await handlers.newSession({ agentId: 'odd', cwd: setup.workspace })).sessionId
  expect(await handlers.setMode({ sessionId, modeId: 'bypassPermissions' })).toMatchObject({ ok: false, error: { kind: 'not-confirmed' } })
  // It read: Switch "Odd" to "Ask first"? Its name says the agent will then run commands… (the name said nothing of the kind).
  const message = confirmation.of('auto-approve')[0]!.message
  expect(message).toContain('"Ask first" (id "bypassPermissions")')
  expect(message).toContain('Its id says "bypass"')
  expect(message).not.toContain('Its name says')
  expect(await handlers.setMode({ sessionId, modeId: 'mode-3' })).toMatchObject({ ok: false, error: { kind: 'not-confirmed' } })
  expect(confirmation.of('auto-approve')[1]!.message).toContain('Its name says "YOLO"')
})

it('asks before a select option named for acting without asking is turned on (Bypass permissions: On), not when it is turned off', async () => {
  const confirmation = new ModeConfirmation(false)
  const setup = await start([{ id: 'odd', name: 'Odd', scenario: 'unattended-option' }], undefined, { confirmation })
  const { handlers } = setup
  const sessionId = must(await handlers.newSession({ agentId: 'odd', cwd: setup.workspace })).sessionId
  const guard = async () => must(await handlers.getSnapshot(undefined)).sessions.find((s) => s.sessionId === sessionId)!.configOptions.find((o) => o.id === 'guard')!.currentValue
  // Went to the agent at once: only the value's own name was read, and "On" says nothing.
  expect(await handlers.setConfigOption({ sessionId, configId: 'guard', value: 'on' })).toMatchObject({ ok: false, error: { kind: 'not-confirmed' } })
  expect(await guard()).toBe('off')
  expect(confirmation.of('auto-approve')[0]!.message).toContain('"Bypass permissions: On" (id "guard = on")')
  confirmation.answer = true
  must(await handlers.setConfigOption({ sessionId, configId: 'guard', value: 'on' }))
  must(await handlers.setConfigOption({ sessionId, configId: 'guard', value: 'off' }))
  expect(await guard()).toBe('off')
  expect(confirmation.of('auto-approve')).toHaveLength(2)
})

it('asks when a new session would take a saved default that its agent names for acting without asking, though its id said nothing when saved', async () => {
  const confirmation = new ModeConfirmation(false)
  const setup = await start([{ id: 'odd', name: 'Odd', scenario: 'unattended-names' }], undefined, { confirmation })
  const { handlers } = setup
  const def = must(await handlers.listAgentDefinitions(undefined)).agents.find((a) => a.id === 'odd')!
  const draft = { id: def.id, name: def.name, command: def.command, argsText: def.args.join(' '), env: [], secretEnv: [], defaultCwd: '' }
  // "mode-3" and "guard = on" say nothing by their ids: saved without a question, as before.
  must(await handlers.saveAgentDefinition({ draft: { ...draft, defaultMode: 'mode-3' } }))
  expect(confirmation.of('auto-approve')).toHaveLength(0)
  // Every new session then ran in the agent's "YOLO", and nobody was asked.
  const sessionId = must(await handlers.newSession({ agentId: 'odd', cwd: setup.workspace })).sessionId
  const session = async () => must(await handlers.getSnapshot(undefined)).sessions.find((s) => s.sessionId === sessionId)!
  expect((await session()).modes?.currentModeId).toBe('default')
  expect(confirmation.of('auto-approve')).toHaveLength(1)
  expect(confirmation.of('auto-approve')[0]!.message).toContain('"YOLO" (id "mode-3") in this session?')
  expect(JSON.stringify((await session()).notices)).toContain('You did not confirm “YOLO”')
  // Confirmed, the next session takes it.
  confirmation.answer = true
  const next = must(await handlers.newSession({ agentId: 'odd', cwd: setup.workspace })).sessionId
  expect(must(await handlers.getSnapshot(undefined)).sessions.find((s) => s.sessionId === next)!.modes?.currentModeId).toBe('mode-3')
  expect(confirmation.of('auto-approve')).toHaveLength(2)
})

/** Bosun's warning about a switch the agent made itself, in the session's notices (titles only). */
const switchNotices = async (handlers: Awaited<ReturnType<typeof start>>['handlers'], sessionId: string) =>
  must(await handlers.getSnapshot(undefined))
    .sessions.find((s) => s.sessionId === sessionId)!
    .notices.filter((n) => n.fromBosun && n.title.startsWith('The agent switched this session to'))
    .map((n) => ({ title: n.title, description: n.description, repeats: n.repeats }))

it('tells the person, in Bosun’s words, when the agent switches the session to such a mode by itself; not when the person chose it', async () => {
  const confirmation = new ModeConfirmation(true)
  const setup = await start([{ id: 'odd', name: 'Odd', scenario: 'unattended-names' }], undefined, { confirmation })
  const { handlers } = setup
  const sessionId = must(await handlers.newSession({ agentId: 'odd', cwd: setup.workspace })).sessionId
  // The mode select changed to YOLO under the message box, and nothing more was said.
  must(await handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'switch yourself' }] }))
  expect(await switchNotices(handlers, sessionId)).toEqual([
    {
      title: 'The agent switched this session to “YOLO” (id “mode-3”) by itself',
      description: expect.stringMatching(/^Bosun did not ask you: the agent did it\. Its name says “YOLO”, .* choose another mode under the message box\.$/),
      repeats: undefined,
    },
  ])
  // Told once while it stays so; again (one notice, counted) once it switched back and then in again.
  must(await handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'again' }] }))
  expect(await switchNotices(handlers, sessionId)).toHaveLength(1)
  must(await handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'switch back' }] }))
  must(await handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'switch yourself' }] }))
  expect(await switchNotices(handlers, sessionId)).toMatchObject([{ repeats: 2 }])
  // A session where the person chose it (confirmed in main's dialog): the agent reporting it says nothing.
  const chosen = must(await handlers.newSession({ agentId: 'odd', cwd: setup.workspace })).sessionId
  must(await handlers.setMode({ sessionId: chosen, modeId: 'mode-3' }))
  must(await handlers.prompt({ sessionId: chosen, prompt: [{ type: 'text', text: 'switch yourself' }] }))
  expect(await switchNotices(handlers, chosen)).toEqual([])
})

it('tells the person when the agent turns on an option named for acting without asking by itself', async () => {
  const setup = await start([{ id: 'odd', name: 'Odd', scenario: 'unattended-option' }])
  const { handlers } = setup
  const sessionId = must(await handlers.newSession({ agentId: 'odd', cwd: setup.workspace })).sessionId
  must(await handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'switch yourself' }] }))
  expect(await switchNotices(handlers, sessionId)).toMatchObject([{ title: 'The agent switched this session to “Bypass permissions: On” (id “guard = on”) by itself' }])
})

it('tells the person when the agent starts a new session in such a mode (gemini --yolo, a bypass default in its own settings)', async () => {
  const setup = await start([{ id: 'odd', name: 'Odd', scenario: 'unattended-start' }])
  const { handlers } = setup
  const sessionId = must(await handlers.newSession({ agentId: 'odd', cwd: setup.workspace })).sessionId
  expect(await handlers.getSnapshot(undefined).then((s) => must(s).sessions.find((x) => x.sessionId === sessionId)!.notices.filter((n) => n.fromBosun).map((n) => n.title))).toEqual([
    'The agent started this session in “YOLO” (id “yolo”)',
  ])
  // The person switching away is told nothing more.
  must(await handlers.setMode({ sessionId, modeId: 'default' }))
  expect(await switchNotices(handlers, sessionId)).toEqual([])
})

it('withdraws the warning that the agent started the session in such a mode once a default of the person’s switched it away; warns again when the agent switches back by itself', async () => {
  const setup = await start([{ id: 'odd', name: 'Odd', scenario: 'unattended-start' }])
  const { handlers } = setup
  const def = must(await handlers.listAgentDefinitions(undefined)).agents.find((a) => a.id === 'odd')!
  must(await handlers.saveAgentDefinition({ draft: { id: def.id, name: def.name, command: def.command, argsText: def.args.join(' '), env: [], secretEnv: [], defaultCwd: '', defaultMode: 'default' } }))
  const sessionId = must(await handlers.newSession({ agentId: 'odd', cwd: setup.workspace })).sessionId
  const session = async () => must(await handlers.getSnapshot(undefined)).sessions.find((s) => s.sessionId === sessionId)!
  // Started in YOLO, then set to the person's default: the session is no longer in YOLO, so nothing says it is.
  expect((await session()).modes?.currentModeId).toBe('default')
  expect((await session()).notices.filter((n) => n.fromBosun).map((n) => n.title)).toEqual([])
  // The agent going back to YOLO by itself is told.
  must(await handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'switch yourself' }] }))
  expect((await session()).notices.filter((n) => n.fromBosun).map((n) => n.title)).toEqual(['The agent switched this session to “YOLO” (id “yolo”) by itself'])
})

it('tells the same when the agent switches by Gemini CLI’s text marker ([MODE_UPDATE] mode-3)', async () => {
  const setup = await start([{ id: 'odd', name: 'Odd', scenario: 'unattended-names' }])
  const { handlers } = setup
  const sessionId = must(await handlers.newSession({ agentId: 'odd', cwd: setup.workspace })).sessionId
  must(await handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'marker' }] }))
  const session = must(await handlers.getSnapshot(undefined)).sessions.find((s) => s.sessionId === sessionId)!
  expect(session.modes?.currentModeId).toBe('mode-3')
  expect(await switchNotices(handlers, sessionId)).toMatchObject([{ title: 'The agent switched this session to “YOLO” (id “mode-3”) by itself' }])
})
