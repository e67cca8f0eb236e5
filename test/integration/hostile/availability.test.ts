/**
 * Issue 13, availability: a hostile agent cannot take Bosun down. Each test sends one attack at CI size
 * (the big sizes are in `npm run hostile`), then checks that every session still serialises and that a
 * well-behaved control agent still runs a turn.
 */
import { describe, expect, it, vi } from 'vitest'
import { TRUNCATION_MARKER } from '../../../common/bounded'
import { HANDSHAKE_LIMITS } from '../../../main/acp/handshake'
import { MAX_PENDING_PER_SESSION } from '../../../main/permissions/broker'
import { MAX_STDOUT_NOTES, STDOUT_NOTE } from '../../../main/agents/agent-host'
import { MAX_EARLY_BYTES, MAX_EARLY_UPDATES } from '../../../main/sessions/early-updates'
import { MAX_TOOL_TITLE_CHARS } from '../../../common/session/reducer/tool-calls'
import { checkDraft, parseFormSchema } from '../../../renderer/components/elicitation/validate'
import type { ElicitationView, ToolCallEntry } from '../../../common/session/types'
import { brokenSessions, hostilePerTest, must, nextUpdate, repeatUntil, tallyPerFile } from './harness'

// Each test starts two agents, and most flood: on a loaded 2-core machine some take over 40 s (30 s is the project's default).
vi.setConfig({ testTimeout: 90_000 })

const tally = tallyPerFile('availability')
const start = hostilePerTest()

async function openHostileSession(setup: Awaited<ReturnType<typeof start>>): Promise<string> {
  return must(await setup.handlers.newSession({ agentId: 'hostile', cwd: setup.workspace })).sessionId
}

describe('a hostile agent', () => {
  it('floods permission requests: the excess is cancelled with one note, nothing is lost', async () => {
    const count = 2_000
    const setup = await start('permission-flood', { count })
    const sessionId = await openHostileSession(setup)
    const turn = setup.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'go' }] })
    await nextUpdate(setup, sessionId, (u) => u.sessionUpdate === 'notice' && String(u.title).includes('too many permissions'))
    const pending = must(await setup.handlers.listPendingPermissions(undefined))
    expect(pending.length).toBe(MAX_PENDING_PER_SESSION)
    // Cancel until the agent has every answer (the flood keeps arriving after the first cancel).
    must(await repeatUntil(setup, turn, () => setup.handlers.cancel({ sessionId })))
    const [report] = setup.reports()
    tally.inputs += count
    tally.messagesLost += count - Number(report?.answered ?? 0)
    expect(report).toMatchObject({ answered: count, cancelled: count })
    const state = must(await setup.handlers.getSnapshot(undefined)).sessions.find((s) => s.sessionId === sessionId)!
    expect(Object.keys(state.permissions).length).toBeLessThan(count)
    // One note per flood (a flood that refills after a cancel is a new one).
    expect(state.notices.filter((n) => n.title.includes('too many permissions')).length).toBeLessThanOrEqual(count / MAX_PENDING_PER_SESSION)
    tally.sessionsBroken += await brokenSessions(setup)
  })

  it('floods URL and form elicitations: capped per scope and per connection, every request answered', async () => {
    const count = 500
    const setup = await start('elicitation-flood', { count })
    const sessionId = await openHostileSession(setup)
    const turn = setup.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'go' }] })
    await nextUpdate(setup, sessionId, (u) => u.sessionUpdate === 'notice' && String(u.description).includes('more at once'))
    const state = must(await setup.handlers.getSnapshot(undefined)).sessions.find((s) => s.sessionId === sessionId)!
    const open = (Object.values(state.elicitations) as ElicitationView[]).filter((e) => e.status === 'pending')
    expect(open.filter((e) => e.mode === 'url').length).toBeLessThanOrEqual(8)
    expect(open.length).toBeLessThanOrEqual(32)
    must(await repeatUntil(setup, turn, () => setup.handlers.cancel({ sessionId })))
    const [report] = setup.reports()
    tally.inputs += 2 * count
    tally.messagesLost += 2 * count - Number(report?.answered ?? 0)
    expect(report).toMatchObject({ answered: 2 * count })
    tally.sessionsBroken += await brokenSessions(setup)
  })

  it('sends a 6,000-level rawInput, a 4 MB title and a 50,000-step plan: kept bounded with a marker', async () => {
    const setup = await start('deep-raw', { count: 6_000 })
    const sessionId = await openHostileSession(setup)
    expect(must(await setup.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'go' }] })).stopReason).toBe('end_turn')
    tally.inputs += 3
    const state = must(await setup.handlers.getSnapshot(undefined)).sessions.find((s) => s.sessionId === sessionId)!
    const tool = state.entries.find((e): e is ToolCallEntry => e.kind === 'tool_call' && e.toolCallId === 'deep')!
    expect(JSON.stringify(tool.rawInput)).toContain(TRUNCATION_MARKER)
    expect(JSON.stringify(tool.rawOutput)).toContain(TRUNCATION_MARKER)
    // The title is cut where every card and approval draws it: 4,096 characters and "…".
    expect(tool.title?.length).toBe(MAX_TOOL_TITLE_CHARS + 1)
    expect(tool.title?.endsWith('…')).toBe(true)
    expect(JSON.stringify(state).length).toBeLessThan(8 * 1024 * 1024)
    tally.sessionsBroken += await brokenSessions(setup)
  })

  it('introduces itself with 2 MB names and 5,000 login methods: what Bosun keeps and shows of it is bounded', async () => {
    const setup = await start('big-hello', { count: 5_000 })
    const statusSeen = setup.sink.next('agentStatus', (view) => view.agentId === 'hostile' && view.status === 'ready')
    await openHostileSession(setup)
    tally.inputs += 5
    const limits = HANDSHAKE_LIMITS
    const status = await statusSeen
    expect(status.agentInfo?.name.length).toBeLessThanOrEqual(limits.infoChars)
    expect(JSON.stringify(status).length).toBeLessThan(4 * 1024)

    const { methods } = must(await setup.handlers.listAuthMethods({ agentId: 'hostile' }))
    expect(methods).toHaveLength(limits.authMethods)
    expect(methods[0]).toMatchObject({ id: 'long-description' })
    expect(methods[0]!.description!.length).toBeLessThanOrEqual(limits.authDescriptionChars)
    // A terminal login whose args are too many to keep is left out rather than run with some of them.
    expect(methods.map((m) => m.id)).not.toContain('many-args')
    expect(methods.map((m) => m.id)).toContain('big-meta')
    expect(JSON.stringify(methods).length).toBeLessThan(128 * 1024)

    const check = must(await setup.handlers.checkAgentConnection({ agentId: 'hostile' }))
    expect(JSON.stringify(check).length).toBeLessThan(128 * 1024)
    tally.sessionsBroken += await brokenSessions(setup)
  })

  it('writes thousands of bad lines: skipped, and the session goes on', async () => {
    const count = 5_000
    const setup = await start('garbage', { count })
    const sessionId = await openHostileSession(setup)
    expect(must(await setup.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'go' }] })).stopReason).toBe('end_turn')
    tally.inputs += count
    const state = must(await setup.handlers.getSnapshot(undefined)).sessions.find((s) => s.sessionId === sessionId)!
    const text = JSON.stringify(state.entries)
    if (!text.includes('after garbage')) tally.messagesLost++
    expect(text).toContain('after garbage')
    // The lines that are not JSON are in the agent's log for the person to read, a bounded number of them.
    const log = must(await setup.handlers.getAgentLog({ agentId: 'hostile' })).text
    const noted = log.split('\n').filter((line) => line.startsWith(STDOUT_NOTE))
    expect(noted).toContain(`${STDOUT_NOTE} not json at all`)
    expect(noted).toHaveLength(MAX_STDOUT_NOTES + 1)
    expect(noted.at(-1)).toBe(`${STDOUT_NOTE} … more lines that are not JSON are not shown`)
    tally.sessionsBroken += await brokenSessions(setup)
  })

  it('never reads its stdin: the bounded queue fills, the agent is reported unresponsive and stopped with its stderr tail', async () => {
    const count = 200
    const setup = await start('no-read', { count, limits: { maxQueuedBytes: 4 * 1024 * 1024 } })
    const sessionId = await openHostileSession(setup)
    const turn = setup.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'go' }] })
    const failed = await setup.sink.next('agentStatus', (v) => v.agentId === 'hostile' && v.status === 'failed')
    // Said once, with how much waited (it read 'stopped reading its input, so Bosun stopped it. The agent stopped reading its input (… KB waiting).').
    expect(failed.error?.message).toMatch(/^Hostile stopped reading its input \(\d+ KB waiting\), so Bosun stopped it\.$/)
    expect(failed.error?.stderrTail).toContain('no-read: not reading stdin any more')
    const result = await turn
    expect(result.ok).toBe(false)
    tally.inputs += count
    tally.sessionsBroken += await brokenSessions(setup)
  })

  it('closes its stdout and lives on, ignoring SIGTERM: stopped within seconds and reported as what it did, not as the signal', async () => {
    const setup = await start('close-stdout')
    const sessionId = await openHostileSession(setup)
    expect(must(await setup.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'go' }] })).stopReason).toBe('end_turn')
    tally.inputs++
    const pid = setup.reports()[0]!.pid as number
    const down = await setup.sink.next('agentStatus', (v) => v.agentId === 'hostile' && v.error != null)
    // Before: "Hostile was killed by SIGKILL.", as if something else had killed it.
    expect(down.error?.message).toBe('Hostile closed its output while still running, so Bosun stopped it.')
    expect(() => process.kill(pid, 0)).toThrow()
    tally.sessionsBroken += await brokenSessions(setup)
  })

  // Before answering session/new: many small updates (the count bound), then fewer 64 KiB ones (the size bound).
  for (const [mode, count, what] of [
    ['early-flood', MAX_EARLY_UPDATES * 3, 'more updates than the early buffer keeps'],
    ['early-big', 1_000, 'more bytes than the early buffer keeps'],
  ] as const) {
    it(`sends ${what} before answering session/new: bounded, with a note`, async () => {
      const setup = await start(mode, { count })
      const sessionId = await openHostileSession(setup)
      tally.inputs += count
      const state = must(await setup.handlers.getSnapshot(undefined)).sessions.find((s) => s.sessionId === sessionId)!
      const text = JSON.stringify(state.entries)
      expect(text).toContain('early 0 ')
      expect(text).not.toContain(`early ${count - 1} `)
      if (mode === 'early-big') expect(text.length).toBeGreaterThan(MAX_EARLY_BYTES * 0.9)
      expect(text.length).toBeLessThan(MAX_EARLY_BYTES * 1.1)
      expect(state.notices.some((n) => n.title === 'Some early updates were dropped')).toBe(true)
      tally.sessionsBroken += await brokenSessions(setup)
    })
  }

  it('never answers session/new: it times out with a clear error', async () => {
    const setup = await start('hang-new', { limits: { sessionCallTimeoutMs: 1_000 } })
    const created = await setup.handlers.newSession({ agentId: 'hostile', cwd: setup.workspace })
    expect(created).toMatchObject({ ok: false, error: { kind: 'timeout' } })
    if (!created.ok) expect(created.error.message).toMatch(/did not answer session\/new within 1 s/)
    tally.inputs++
    tally.sessionsBroken += await brokenSessions(setup)
  })

  it('ignores Stop: after the watchdog the session offers to stop the agent, which ends the turn', async () => {
    const setup = await start('ignore-cancel', { limits: { stopWatchdogMs: 300 } })
    const sessionId = await openHostileSession(setup)
    const turn = setup.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'go' }] })
    await nextUpdate(setup, sessionId, (u) => u.sessionUpdate === 'agent_message_chunk')
    must(await setup.handlers.cancel({ sessionId }))
    await nextUpdate(setup, sessionId, (u) => u.sessionUpdate === 'notice' && u.title === 'The agent has not stopped')
    must(await setup.handlers.stopAgent({ agentId: 'hostile' }))
    await turn
    const state = must(await setup.handlers.getSnapshot(undefined)).sessions.find((s) => s.sessionId === sessionId)!
    expect(state.turn.state).toBe('idle')
    tally.inputs++
    tally.sessionsBroken += await brokenSessions(setup)
  })

  for (const [mode, count] of [
    ['request-flood', 20_000],
    ['notification-flood', 50_000],
  ] as const) {
    it(`${mode === 'request-flood' ? 'floods requests' : 'floods notifications'} Bosun does not serve: read at the pace main handles them, every request answered, the session goes on`, async () => {
      const setup = await start(mode, { count })
      const sessionId = await openHostileSession(setup)
      expect(must(await setup.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'go' }] })).stopReason).toBe('end_turn')
      tally.inputs += count
      if (mode === 'request-flood') {
        const [report] = setup.reports()
        tally.messagesLost += count - Number(report?.answered ?? 0)
        expect(report).toMatchObject({ answered: count, codes: { '-32601': count } })
      }
      const state = must(await setup.handlers.getSnapshot(undefined)).sessions.find((s) => s.sessionId === sessionId)!
      expect(JSON.stringify(state.entries)).toContain(`after ${count} `)
      tally.sessionsBroken += await brokenSessions(setup)
    })
  }

  it('writes without end: at the session limit the turn is stopped, what came before is kept, the rest dropped', async () => {
    const limit = 2 * 1024 * 1024
    const setup = await start('endless', { count: 1_000, limits: { maxSessionBytes: limit } })
    const sessionId = await openHostileSession(setup)
    // No Stop from the test: main cancels the turn itself at the limit, and the agent ends it.
    const turn = must(await setup.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'go' }] }))
    expect(turn.stopReason).toBe('cancelled')
    const [report] = setup.reports()
    // It wrote about the limit before main's cancel reached it, then 1,000 chunks (1 MB) more.
    expect(Number(report?.bytes)).toBeGreaterThan(limit * 0.8)
    tally.inputs += Number(report?.sent ?? 0) + 1_000
    const state = must(await setup.handlers.getSnapshot(undefined)).sessions.find((s) => s.sessionId === sessionId)!
    expect(state.turn.state).toBe('idle')
    expect(state.cannotContinue?.reason).toMatch(/reached Bosun's limit of 2.0 MiB/)
    expect(state.notices.map((n) => n.title)).toContain('This session reached its limit of 2.0 MiB')
    // What arrived before the limit is there; the session holds not much more than the limit.
    const kept = JSON.stringify(state.entries)
    expect(kept).toContain('endless endless')
    expect(state.entries.some((e) => e.kind === 'tool_call' && e.toolCallId === 'endless-99')).toBe(true)
    expect(kept).not.toContain('after cancel')
    expect(kept.length).toBeLessThan(limit * 1.25)
    // Another prompt is refused with the reason (the renderer shows it instead of the composer).
    const again = await setup.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'more' }] })
    expect(again).toMatchObject({ ok: false, error: { message: expect.stringMatching(/limit of 2.0 MiB/) } })
    tally.sessionsBroken += await brokenSessions(setup)
  })

  it('asks for a form of 100 catastrophic patterns: main and the renderer check it at once', async () => {
    const count = 100
    const setup = await start('regex', { count })
    const sessionId = await openHostileSession(setup)
    const turn = setup.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'go' }] })
    const batch = await setup.sink.next('sessionActions', (b) => b.sessionId === sessionId && b.actions.some((a) => a.type === 'elicitation_requested'))
    const requested = batch.actions.find((a) => a.type === 'elicitation_requested')!
    const view = (requested as { elicitation: ElicitationView }).elicitation
    const content: Record<string, string> = {}
    for (let i = 0; i < count; i++) content[`f${i}`] = 'a'.repeat(5_000) + '!'
    // The renderer's validation (what runs while the person types).
    const parsed = parseFormSchema(view.requestedSchema)
    if (!parsed.ok) throw new Error(parsed.message)
    const draft = checkDraft(parsed.schema, content)
    expect(Object.keys(draft.errors).length).toBeGreaterThan(0)
    expect(draft.unchecked).toEqual([])
    // Main's, on submit.
    const refused = await setup.handlers.respondElicitation({ elicitationRequestId: view.elicitationRequestId, action: 'accept', content })
    expect(refused.ok).toBe(false)
    must(await setup.handlers.respondElicitation({ elicitationRequestId: view.elicitationRequestId, action: 'decline' }))
    must(await turn)
    expect(setup.reports()).toEqual([expect.objectContaining({ answered: 1, action: 'decline' })])
    tally.inputs += count
    tally.sessionsBroken += await brokenSessions(setup)
  })
})
