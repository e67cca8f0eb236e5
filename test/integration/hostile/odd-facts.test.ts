/**
 * A hostile agent's session facts: `session/new` answered with 5,000 modes and models, or 5,000 config options (ids
 * repeated, unknown types, items that are not objects, a current mode and model it never listed), then 100,000
 * commands (names repeated) and a current mode it never listed. The session keeps bounded lists with one entry per
 * id, the turn ends, and a mode the agent did not list is refused by name.
 */
import { expect, it } from 'vitest'
import type { SessionState } from '../../../common/session/types'
import { MAX_COMMANDS, MAX_CONFIG_OPTIONS, MAX_MODES, MAX_MODELS } from '../../../common/session/reducer/metadata'
import { brokenSessions, hostilePerTest, must, tallyPerFile } from './harness'

const tally = tallyPerFile('odd-facts')
const start = hostilePerTest()
type Setup = Awaited<ReturnType<typeof start>>

const unique = (ids: string[]) => new Set(ids).size === ids.length

/** A session of the agent in `variant`, its turn run: its state once the turn ended. */
async function oddSession(setup: Setup): Promise<{ sessionId: string; state: SessionState }> {
  const { sessionId } = must(await setup.handlers.newSession({ agentId: 'hostile', cwd: setup.workspace }))
  expect(must(await setup.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'go' }] })).stopReason).toBe('end_turn')
  const state = must(await setup.handlers.getSnapshot(undefined)).sessions.find((s) => s.sessionId === sessionId)!
  const commands = state.availableCommands.map((c) => c.name)
  expect(unique(commands)).toBe(true)
  expect(commands).toHaveLength(Math.min(2_000, MAX_COMMANDS))
  expect(JSON.stringify(state).length).toBeLessThan(2 * 1024 * 1024)
  expect(JSON.stringify(state.entries)).toContain('after odd facts')
  return { sessionId, state }
}

it('modes and models by the thousand, repeated and odd: one of each id is kept, bounded; a mode it never listed is refused by name', async () => {
  const setup = await start('odd-session', { count: 5_000 })
  const { sessionId, state } = await oddSession(setup)
  tally.inputs += 4
  const modes = state.modes!.availableModes.map((m) => m.id)
  expect(unique(modes)).toBe(true)
  expect(modes.length).toBeLessThanOrEqual(MAX_MODES)
  expect(modes).toContain('mode99')
  const models = state.models!.availableModels.map((m) => m.id)
  expect(unique(models)).toBe(true)
  expect(models.length).toBeLessThanOrEqual(MAX_MODELS)
  expect(state.modes!.currentModeId).toBe('no-such-mode')
  const refused = await setup.handlers.setMode({ sessionId, modeId: 'no-such-mode' })
  expect(refused).toMatchObject({ ok: false, error: { message: 'The agent does not offer the mode no-such-mode in this session.' } })
  tally.sessionsBroken += await brokenSessions(setup)
}, 60_000)

it('config options by the thousand, repeated, of unknown types and with values repeated: one of each id and value is kept, bounded', async () => {
  const setup = await start('odd-session', { count: 5_000, extraArgs: ['--variant', 'options'] })
  const { state } = await oddSession(setup)
  tally.inputs += 3
  const options = state.configOptions.map((o) => o.id)
  expect(unique(options)).toBe(true)
  expect(options.length).toBeLessThanOrEqual(MAX_CONFIG_OPTIONS)
  for (const option of state.configOptions) expect(unique(option.options.map((v) => v.value))).toBe(true)
  tally.sessionsBroken += await brokenSessions(setup)
}, 60_000)
