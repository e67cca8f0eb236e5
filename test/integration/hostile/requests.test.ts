/**
 * A hostile agent's answers and requests: what it answers to Bosun's calls (errors and session ids of any size and
 * depth) and what it asks Bosun to do (files, terminals, permissions) are bounded, and a well-behaved agent that asks
 * for a lot at once is served, not stopped. Found by probing (see the closing note of the stop that added it).
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { AGENT_ERROR_BOUNDS } from '../../../main/acp/connection'
import { MAX_OUTPUT_BYTE_LIMIT } from '../../../main/terminals/terminal-handlers'
import { MAX_PERMISSION_OPTIONS } from '../../../main/permissions/normalize'
import { MAX_PATH_CHARS } from '../../../main/fs/confine'
import type { ToolCallEntry } from '../../../common/session/types'
import { MAX_TOOL_TITLE_CHARS } from '../../../common/session/reducer/tool-calls'
import { MAX_COMMANDS, MAX_CONFIG_OPTIONS, MAX_CONFIG_VALUES, MAX_CONFIG_VALUES_TOTAL, MAX_MODEL_ID_CHARS } from '../../../common/session/reducer/metadata'
import { cpuMsSince } from '../../support/cpu-time'
import { brokenSessions, hostilePerTest, must, tallyPerFile } from './harness'

const tally = tallyPerFile('requests')
const start = hostilePerTest()
type Setup = Awaited<ReturnType<typeof start>>
const MB = 1024 * 1024

const openSession = async (setup: Setup) => must(await setup.handlers.newSession({ agentId: 'hostile', cwd: setup.workspace })).sessionId
const stateOf = async (setup: Setup, sessionId: string) => must(await setup.handlers.getSnapshot(undefined)).sessions.find((s) => s.sessionId === sessionId)!
/** What the window gets must cross both hosts' transports: JSON (the browser host) and structured clone (Electron's IPC). */
const crossesTransports = (value: unknown) => {
  JSON.stringify(value)
  structuredClone(value)
}

describe('a hostile agent answers', () => {
  it('session/new with a session id of 2,000,000 characters: refused with the reason, nothing is made of it', async () => {
    const setup = await start('huge-session-id', { count: 2_000_000 })
    const created = await setup.handlers.newSession({ agentId: 'hostile', cwd: setup.workspace })
    tally.inputs++
    expect(created.ok).toBe(false)
    if (created.ok) return
    expect(created.error.message).toContain('session id of 2,000,000 characters; Bosun takes ids of 1 to 1,024 characters')
    expect(must(await setup.handlers.getSnapshot(undefined)).sessions).toEqual([])
    tally.sessionsBroken += await brokenSessions(setup)
  })

  for (const variant of ['', 'big-message']) {
    it(`session/new and a prompt with an error whose data is nested 1,000,000 levels${variant ? ' and whose message is 50 MB' : ''}: the error reaches the window bounded`, async () => {
      const setup = await start('deep-new-error', { count: 1_000_000, extraArgs: ['--variant', variant] })
      const created = await setup.handlers.newSession({ agentId: 'hostile', cwd: setup.workspace })
      tally.inputs++
      expect(created.ok).toBe(false)
      crossesTransports(created)
      expect(JSON.stringify(created).length).toBeLessThan(AGENT_ERROR_BOUNDS.messageChars + 2 * AGENT_ERROR_BOUNDS.data.maxTotalChars)
      tally.sessionsBroken += await brokenSessions(setup)
    }, 60_000)
  }

  it('a prompt with an error whose data is nested 1,000,000 levels and whose message is 50 MB: the turn fails with it bounded, the session goes on', async () => {
    const setup = await start('deep-prompt-error', { count: 1_000_000, extraArgs: ['--variant', 'big-message'] })
    const sessionId = await openSession(setup)
    const turn = await setup.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'go' }] })
    tally.inputs++
    crossesTransports(turn)
    expect(JSON.stringify(turn).length).toBeLessThan(AGENT_ERROR_BOUNDS.messageChars + 2 * AGENT_ERROR_BOUNDS.data.maxTotalChars)
    const state = await stateOf(setup, sessionId)
    crossesTransports(state)
    expect(JSON.stringify(state).length).toBeLessThan(1 * MB)
    tally.sessionsBroken += await brokenSessions(setup)
  }, 60_000)

  it('with 20,000 commands, 300 config options of 300 values and a mode id of 1 MB: the session keeps a bounded list of each', async () => {
    const setup = await start('big-facts', { count: 20_000 })
    const sessionId = await openSession(setup)
    expect(must(await setup.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'go' }] })).stopReason).toBe('end_turn')
    tally.inputs += 5
    const state = await stateOf(setup, sessionId)
    expect(state.availableCommands).toHaveLength(MAX_COMMANDS)
    expect(state.configOptions).toHaveLength(MAX_CONFIG_OPTIONS)
    expect(state.configOptions[0]!.options).toHaveLength(Math.min(300, MAX_CONFIG_VALUES))
    // The first four options hold the 1,000 values; each of the other 46 keeps only its current one.
    expect(state.configOptions.reduce((n, option) => n + option.options.length, 0)).toBe(MAX_CONFIG_VALUES_TOTAL + MAX_CONFIG_OPTIONS - Math.ceil(MAX_CONFIG_VALUES_TOTAL / Math.min(300, MAX_CONFIG_VALUES)))
    expect(state.modes?.currentModeId?.length).toBeLessThanOrEqual(MAX_MODEL_ID_CHARS + 1)
    expect(state.usage).toBeNull()
    // Before: what one update's bound let through (2,014 commands, the 90,000 option values, the 1 MB mode id), 20 MB kept.
    expect(JSON.stringify(state).length).toBeLessThan(4 * MB)
    expect(JSON.stringify(state.entries)).toContain('after facts')
    tally.sessionsBroken += await brokenSessions(setup)
  }, 60_000)

  it('initialize with a _meta nested 1,000,000 levels: the agent starts, and the method keeps no _meta', async () => {
    const setup = await start('deep-hello', { count: 1_000_000 })
    await openSession(setup)
    tally.inputs++
    const { methods } = must(await setup.handlers.listAuthMethods({ agentId: 'hostile' }))
    expect(methods.map((m) => m.id)).toEqual(['a'])
    tally.sessionsBroken += await brokenSessions(setup)
  }, 60_000)

  it('session/update, a permission request, an unknown request and notification nested 1,000,000 levels: answered, the turn ends', async () => {
    const setup = await start('deep-update', { count: 1_000_000 })
    const sessionId = await openSession(setup)
    const turn = setup.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'go' }] })
    const asked = await setup.sink.next('sessionActions', (batch) => batch.sessionId === sessionId && batch.actions.some((a) => a.type === 'permission_requested'))
    const request = asked.actions.find((a) => a.type === 'permission_requested')!
    must(await setup.handlers.respondPermission({ requestId: (request as { request: { requestId: string } }).request.requestId, optionId: 'allow' }))
    expect(must(await turn).stopReason).toBe('end_turn')
    tally.inputs += 5
    expect(setup.reports()[0]).toMatchObject({ answers: ['result', 'error -32601'] })
    const state = await stateOf(setup, sessionId)
    crossesTransports(state)
    expect(JSON.stringify(state.entries)).toContain('after deep update')
    tally.sessionsBroken += await brokenSessions(setup)
  }, 60_000)
})

describe('a hostile agent asks', () => {
  it('for twelve 3 MB files at once, with room for eight queued: every one is read as fast as it reads them, and it is not stopped', async () => {
    const count = 12
    const setup = await start('fs-read-flood', { count, extraArgs: ['--file', 'big.txt'], limits: { maxQueuedBytes: 8 * MB } })
    const line = '0123456789abcdef'.repeat(4) + '\n'
    writeFileSync(join(setup.workspace, 'big.txt'), line.repeat(Math.floor((3 * MB) / line.length)))
    const sessionId = await openSession(setup)
    expect(must(await setup.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'go' }] })).stopReason).toBe('end_turn')
    tally.inputs += count
    const [report] = setup.reports()
    const size = Math.floor((3 * MB) / line.length) * line.length
    expect(report).toMatchObject({ answered: count, kinds: { [`ok ${size}`]: count } })
    expect(setup.sink.of('agentStatus').filter((s) => s.agentId === 'hostile').map((s) => s.status)).not.toContain('failed')
    tally.sessionsBroken += await brokenSessions(setup)
  }, 90_000)

  it('for a terminal running `yes` with an outputByteLimit as large as JSON allows: Bosun keeps at most its own limit', async () => {
    const setup = await start('term-yes', { count: 1_500, extraArgs: ['--variant', 'max'] })
    const sessionId = await openSession(setup)
    expect(must(await setup.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'go' }] })).stopReason).toBe('end_turn')
    tally.inputs++
    const output = setup.reports().find((r) => r.outputChars !== undefined)
    expect(Number(output?.outputChars)).toBeGreaterThan(0)
    expect(Number(output?.outputChars)).toBeLessThanOrEqual(MAX_OUTPUT_BYTE_LIMIT)
    tally.sessionsBroken += await brokenSessions(setup)
  }, 60_000)

  it('for permissions that each patch a new tool call with 3 MB: they count against the session limit, which holds', async () => {
    const setup = await start('perm-patch-flood', { count: 12, limits: { maxSessionBytes: 4 * MB } })
    const sessionId = await openSession(setup)
    await setup.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'go' }] })
    tally.inputs += 12
    const state = await stateOf(setup, sessionId)
    expect(state.cannotContinue?.reason).toMatch(/limit of 4\.0 MiB/)
    // Before: every patch was applied, 36 MB against a limit of 4.
    expect(JSON.stringify(state).length).toBeLessThan(12 * MB)
    tally.sessionsBroken += await brokenSessions(setup)
  }, 90_000)

  it('to write one file 100 times in one tool call: the card shows one diff of it, not a hundred copies', async () => {
    const count = 100
    const setup = await start('fs-write-accumulate', { count, extraArgs: ['--file', 'again.txt'] })
    const sessionId = await openSession(setup)
    expect(must(await setup.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'go' }] })).stopReason).toBe('end_turn')
    tally.inputs += count
    expect(setup.reports()[0]).toMatchObject({ written: count, errors: 0 })
    const state = await stateOf(setup, sessionId)
    const tool = state.entries.find((e): e is ToolCallEntry => e.kind === 'tool_call' && e.toolCallId === 'edit-1')!
    const diffs = tool.content.filter((c) => (c as { type?: string }).type === 'diff') as { path: string; oldText: string | null; newText: string }[]
    expect(diffs).toHaveLength(1)
    expect(diffs[0]!.oldText).toBeNull()
    expect(diffs[0]!.newText.startsWith(`${count - 1} `)).toBe(true)
    expect(JSON.stringify(state).length).toBeLessThan(2 * MB)
    tally.sessionsBroken += await brokenSessions(setup)
  }, 90_000)

  it('for 100 terminals one after another, each with 1 MB of arguments: the cards keep 4 KB of each, and a full session starts none', async () => {
    const count = 100
    const setup = await start('term-churn', { count, limits: { maxSessionBytes: 256 * 1024 } })
    const sessionId = await openSession(setup)
    await setup.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'go' }] })
    tally.inputs += count
    const kinds = (setup.reports()[0] as { kinds: Record<string, number> }).kinds
    const refused = Object.entries(kinds).find(([kind]) => kind.includes('cannot continue'))
    // Before: every one started and its whole command line was kept, 100 MB against a limit of 256 KB.
    expect(kinds.ok).toBeGreaterThan(0)
    expect(refused?.[1]).toBeGreaterThan(0)
    const state = await stateOf(setup, sessionId)
    expect(state.cannotContinue?.reason).toMatch(/limit of 256 KiB/)
    expect(Object.values(state.terminals).every((t) => (t.command ?? '').length <= MAX_TOOL_TITLE_CHARS + 1)).toBe(true)
    expect(JSON.stringify(state).length).toBeLessThan(1 * MB)
    tally.sessionsBroken += await brokenSessions(setup)
  }, 120_000)

  it('100,000 tool_call_updates, each replacing the tool call’s content: the card holds the last content, the turn ends', async () => {
    const count = 100_000
    const setup = await start('tool-update-flood', { count, extraArgs: ['--variant', '3'] })
    const sessionId = await openSession(setup)
    expect(must(await setup.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'go' }] })).stopReason).toBe('end_turn')
    tally.inputs += count
    const card = (await stateOf(setup, sessionId)).entries.find((e) => e.kind === 'tool_call')
    expect(card?.kind === 'tool_call' && { status: card.status, content: card.content?.map((c) => String((c as { content?: { text?: string } }).content?.text).split(' ')[0]) }).toEqual({
      status: 'completed',
      content: ['99997', '99998', '99999'],
    })
    tally.sessionsBroken += await brokenSessions(setup)
  }, 60_000)

  it('in a session of /proc, for /proc/self/pagemap (its size says 0, and it does not end): refused as too large, not read for ever', async () => {
    // (Bosun runs in this process: /proc/self is this process, named by its pid once resolved.)
    const count = 2
    const setup = await start('fs-read-flood', { count, extraArgs: ['--file', '/proc/self/pagemap'] })
    const sessionId = must(await setup.handlers.newSession({ agentId: 'hostile', cwd: '/proc' })).sessionId
    expect(must(await setup.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'go' }] })).stopReason).toBe('end_turn')
    tally.inputs += count
    expect(setup.reports()[0]).toMatchObject({ answered: count, kinds: { [`error -32602 /proc/${process.pid}/pagemap is larger than 10 MiB.`]: count } })
    tally.sessionsBroken += await brokenSessions(setup)
  }, 60_000)

  it('in a session of /dev, for /dev/zero: refused as not a regular file at once, never read', async () => {
    const setup = await start('fs-read-flood', { count: 2, extraArgs: ['--file', '/dev/zero'] })
    const sessionId = must(await setup.handlers.newSession({ agentId: 'hostile', cwd: '/dev' })).sessionId
    expect(must(await setup.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'go' }] })).stopReason).toBe('end_turn')
    tally.inputs += 2
    expect(setup.reports()[0]).toMatchObject({ answered: 2, kinds: { 'error -32602 /dev/zero is not a regular file.': 2 } })
    tally.sessionsBroken += await brokenSessions(setup)
  }, 60_000)

  for (const [variant, what] of [
    ['deep', 'a path of 200,000 segments in its folder'],
    ['', 'an 8 MB path outside its folder'],
  ] as const) {
    it(`to read and write ${what}: refused at once with a bounded notice, and the other agent works on`, async () => {
      const count = 6
      const setup = await start('fs-long-path', { count, extraArgs: ['--variant', variant] })
      const sessionId = await openSession(setup)
      const started = process.cpuUsage()
      expect(must(await setup.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'go' }] })).stopReason).toBe('end_turn')
      // Before: each of them cost a realpath per segment (minutes), or the 8 MB path went to the window in each notice.
      // Main's CPU time, not the wall clock, which the machine's load stretches (the whole test took 8.4 s on a loaded machine).
      expect(cpuMsSince(started)).toBeLessThan(10_000)
      tally.inputs += count
      expect(setup.reports()[0]).toMatchObject({ answered: count, kinds: { 'error -32602': count } })
      const sent = setup.sink.of('sessionActions').reduce((bytes, batch) => bytes + JSON.stringify(batch).length, 0)
      expect(sent).toBeLessThan(1 * MB)
      const state = await stateOf(setup, sessionId)
      expect(state.notices.at(-1)?.description).toContain(`a path has at most ${MAX_PATH_CHARS.toLocaleString('en')}`)
      tally.sessionsBroken += await brokenSessions(setup)
    }, 60_000)
  }

  it('for a permission with 100,000 options: refused with the reason, and the person is told', async () => {
    const reason = `options has more than ${MAX_PERMISSION_OPTIONS} entries`
    const setup = await start('perm-options', { count: 100_000, extraArgs: ['--variant', 'many'] })
    const sessionId = await openSession(setup)
    expect(must(await setup.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'go' }] })).stopReason).toBe('end_turn')
    tally.inputs++
    const answer = setup.reports().find((r) => r.answer !== undefined)?.answer as { error?: { code: number; message: string } }
    expect(answer.error?.code).toBe(-32602)
    expect(answer.error?.message).toContain(reason)
    const state = await stateOf(setup, sessionId)
    expect(state.notices.find((n) => n.title.includes('asked for a permission Bosun cannot show'))?.description).toContain(reason)
    tally.sessionsBroken += await brokenSessions(setup)
  }, 60_000)

  it('for a permission with two options of one id (G5): both are shown, the note says the agent hears the same, the id is the answer', async () => {
    const setup = await start('perm-options', { count: 2, extraArgs: ['--variant', 'dup'] })
    const sessionId = await openSession(setup)
    const turn = setup.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'go' }] })
    await setup.sink.next('sessionActions', (batch) => batch.sessionId === sessionId && batch.actions.some((a) => a.type === 'permission_requested'))
    const [pending] = must(await setup.handlers.listPendingPermissions(undefined))
    expect(pending!.options).toEqual([
      { optionId: 'x', name: 'Allow', kind: '' },
      { optionId: 'x', name: 'Reject', kind: '' },
    ])
    expect(pending!.rememberNote).toContain('whichever you choose, it hears the same')
    must(await setup.handlers.respondPermission({ requestId: pending!.requestId, optionId: 'x' }))
    expect(must(await turn).stopReason).toBe('end_turn')
    tally.inputs++
    expect(setup.reports().find((r) => r.answer !== undefined)?.answer).toMatchObject({ result: { outcome: { outcome: 'selected', optionId: 'x' } } })
    tally.sessionsBroken += await brokenSessions(setup)
  }, 60_000)
})
