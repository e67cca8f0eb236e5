import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished, vi } from 'vitest'
import type { Scenario } from '../../agents/scenario'
import { must } from '../../support/must'
import { CLOSED_MESSAGE, INTERRUPTED_MESSAGE } from '../../../main/history/restore'
import type { Entry, SessionState } from '../../../common/session/types'
import { encodeEntry } from '../../../main/history/entry-codec'
import { openHistoryStore as openInThread } from '../../../main/history/sqlite-history-store'
import { agentLog, historyHarness, type Run } from './restart'

// Each test starts Bosun (and an agent) twice around a restart: about 20 s on a loaded 2-core machine.
vi.setConfig({ testTimeout: 60_000 })

const harness = historyHarness()

const reply: Scenario['prompts'] = {
  default: [
    { type: 'thought', text: 'Thinking' },
    { type: 'text', chunks: ['Hello', ', world'] },
    { type: 'tool_call', id: 'call-1', title: 'Run the linter', kind: 'execute', status: 'in_progress', rawInput: { command: 'npm run lint' } },
    { type: 'tool_call_update', id: 'call-1', status: 'completed', text: 'no problems' },
    { type: 'text', text: 'Done.' },
  ],
  slow: [{ type: 'text', text: 'Working on it' }, { type: 'wait_for_cancel' }],
}

function scenario(capabilities: Record<string, unknown> | undefined): Scenario {
  return {
    ...(capabilities ? { initialize: { capabilities } } : {}),
    // What session/load (v1) or a replaying resume (v2) sends again: Bosun must not show it twice.
    session: { replay: [{ type: 'text', text: 'Hello, world' }] },
    prompts: reply,
  }
}

async function runTurn(run: Run, sessionId: string, text: string) {
  return must(await run.handlers.prompt({ sessionId, prompt: [{ type: 'text', text }] }))
}

const texts = (state: SessionState) =>
  state.entries.map((e) => (e.kind === 'tool_call' ? `tool:${e.title}:${e.status}` : 'content' in e ? `${e.kind}:${JSON.stringify(e.content)}` : e.kind))

const cases: { label: string; v2: boolean; capabilities: Record<string, unknown> | undefined; method: string | null }[] = [
  { label: 'v1 that loads sessions', v2: false, capabilities: { loadSession: true }, method: 'session/load' },
  { label: 'v1 that resumes sessions', v2: false, capabilities: { loadSession: true, sessionCapabilities: { resume: {} } }, method: 'session/resume' },
  // E6: session/load only to an agent that says loadSession (the scripted agent would answer one anyway).
  { label: 'v1 that resumes but does not load sessions', v2: false, capabilities: { sessionCapabilities: { resume: {} } }, method: 'session/resume' },
  { label: 'v2', v2: true, capabilities: undefined, method: 'session/resume' },
  { label: 'v1 that can do neither', v2: false, capabilities: {}, method: null },
]

describe.each(cases)('a session of a $label agent, after Bosun restarts', ({ v2, capabilities, method }) => {
  it('is listed, opens from the database without starting the agent, and continues as the agent allows', async () => {
    const home = harness.home([{ id: 'scripted', name: 'Scripted', scenario: harness.scenario(scenario(capabilities)), v2 }])
    const first = await harness.start(home)
    const { sessionId } = must(await first.handlers.newSession({ agentId: 'scripted', cwd: home.workspace }))
    await runTurn(first, sessionId, 'Please lint the project')
    const before = must(await first.handlers.getSnapshot(undefined)).sessions.find((s) => s.sessionId === sessionId)!
    await harness.stop(first)

    const second = await harness.start(home)
    // Nothing is held in memory until it is opened.
    expect(must(await second.handlers.getSnapshot(undefined)).sessions).toEqual([])
    const { sessions, problem } = must(await second.handlers.historyList({}))
    expect(problem).toBeNull()
    expect(sessions).toEqual([
      expect.objectContaining({ sessionId, agentId: 'scripted', cwd: home.workspace, title: 'Please lint the project', protocolVersion: v2 ? 2 : 1, interrupted: false }),
    ])

    must(await second.handlers.historyOpen({ sessionId }))
    const added = await second.sink.next('sessionAdded', (e) => e.session.sessionId === sessionId)
    expect(texts(added.session)).toEqual(texts(before))
    expect(added.session.entries.find((e) => e.kind === 'tool_call')).toMatchObject({ status: 'completed', rawInput: { command: 'npm run lint' } })
    // The agent did not start for that.
    expect(must(await second.handlers.getSnapshot(undefined)).agents).toEqual([expect.objectContaining({ agentId: 'scripted', status: 'stopped' })])

    const continued = await second.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'And again' }] })
    if (method === null) {
      expect(continued.ok).toBe(false)
      if (continued.ok) return
      expect(continued.error.message).toMatch(/cannot continue this earlier session/)
      expect(continued.error.data).toEqual({ offerNewSession: { agentId: 'scripted', cwd: home.workspace } })
      // A new session in the same folder works, and does not take the stored one's id (the agent numbers from 1 again).
      const fresh = must(await second.handlers.newSession({ agentId: 'scripted', cwd: home.workspace }))
      expect(fresh.sessionId).not.toBe(sessionId)
      expect((await runTurn(second, fresh.sessionId, 'hi')).stopReason).toBe('end_turn')
      return
    }
    expect(must(continued).stopReason).toBe('end_turn')
    // The agent's stderr reaches its log file asynchronously.
    await expect.poll(() => agentLog(home, 'scripted')).toContain(`REATTACH ${method}`)
    const after = must(await second.handlers.getSnapshot(undefined)).sessions.find((s) => s.sessionId === sessionId)!
    // The replay (session/load) is not shown again: the stored transcript plus exactly the new turn.
    expect(texts(after).slice(0, before.entries.length)).toEqual(texts(before))
    expect(after.entries.filter((e) => e.kind === 'user_message')).toHaveLength(2)
    expect(new Set(after.entries.map((e) => e.id)).size).toBe(after.entries.length)
    await harness.stop(second)

    // And the continued turn is stored too.
    const third = await harness.start(home)
    must(await third.handlers.historyOpen({ sessionId }))
    const reopened = await third.sink.next('sessionAdded')
    expect(texts(reopened.session)).toEqual(texts(after))
  })
})

describe('history across restarts', () => {
  it('a v2 session stored before subagents were understood shows them as cards, and goes on and comes back the same', async () => {
    const home = harness.home([{ id: 'scripted', name: 'Scripted', scenario: harness.scenario(scenario(undefined)), v2: true }])
    const first = await harness.start(home)
    const { sessionId } = must(await first.handlers.newSession({ agentId: 'scripted', cwd: home.workspace }))
    await runTurn(first, sessionId, 'Please lint the project')
    await harness.stop(first)
    // What an earlier Bosun wrote for the subagent's updates: a 'not understood' line each, the update as it came.
    const { store } = openInThread(home.home)
    const stored = store.load(sessionId)!
    const { acpSessionId } = stored.row
    const raw: Record<string, unknown>[] = [
      { sessionUpdate: 'subagent_update', sessionId: 'child', title: 'Survey', state: { state: 'running' } },
      { sessionUpdate: 'session_message', senderSessionId: acpSessionId, recipientSessionId: 'child', content: [{ type: 'text', text: 'List the files' }] },
      { sessionUpdate: 'session_message', senderSessionId: 'child', recipientSessionId: acpSessionId, content: [{ type: 'text', text: 'Three files' }] },
      { sessionUpdate: 'subagent_update', sessionId: 'child', state: { state: 'idle', stopReason: 'end_turn' } },
    ]
    const start = stored.entries.length
    const rows = raw.map((update, i) => {
      const entry: Entry = { kind: 'unknown', id: `unknown#${start + i}`, sessionUpdate: update.sessionUpdate as string, raw: update }
      return { position: start + i, entryId: entry.id, kind: entry.kind, ...encodeEntry(entry) }
    })
    await store.write([{ session: { ...stored.row }, entries: rows }])
    store.dispose()

    const second = await harness.start(home)
    must(await second.handlers.historyOpen({ sessionId }))
    const { session } = await second.sink.next('sessionAdded', (e) => e.session.sessionId === sessionId)
    expect(session.entries.filter((e) => e.kind === 'unknown')).toEqual([])
    const card = session.entries.at(-1)!
    expect(card).toMatchObject({ kind: 'tool_call', toolCallId: 'subagent:child', title: 'Subagent: Survey', status: 'completed' })
    expect(JSON.stringify(card)).toContain('Three files')
    // It goes on for a turn and comes back as it was left (the card's text was lost over the rows as stored).
    await runTurn(second, sessionId, 'again')
    const after = must(await second.handlers.getSnapshot(undefined)).sessions.find((s) => s.sessionId === sessionId)!
    await harness.stop(second)
    const third = await harness.start(home)
    must(await third.handlers.historyOpen({ sessionId }))
    const reopened = (await third.sink.next('sessionAdded')).session
    expect(reopened.entries.map((e) => [e.kind, e.id, JSON.stringify('content' in e ? e.content : null)])).toEqual(after.entries.map((e) => [e.kind, e.id, JSON.stringify('content' in e ? e.content : null)]))
  })

  it('says why the agent could not load an earlier session: its error and the details it gave (Gemini CLI)', async () => {
    const refusing: Scenario = {
      ...scenario({ loadSession: true }),
      session: { reattachFails: { code: -32603, message: 'Internal error', data: { details: 'No previous sessions found for this project.' } } },
    }
    const home = harness.home([{ id: 'scripted', name: 'Scripted', scenario: harness.scenario(refusing) }])
    const first = await harness.start(home)
    const { sessionId } = must(await first.handlers.newSession({ agentId: 'scripted', cwd: home.workspace }))
    await runTurn(first, sessionId, 'Please lint the project')
    await harness.stop(first)

    const second = await harness.start(home)
    must(await second.handlers.historyOpen({ sessionId }))
    await second.sink.next('sessionAdded', (e) => e.session.sessionId === sessionId)
    const continued = await second.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'And again' }] })
    expect(continued.ok).toBe(false)
    if (continued.ok) return
    expect(continued.error.message).toMatch(
      /^This agent could not resume it \(Internal error: No previous sessions found for this project\.\), so it cannot continue this earlier session\./,
    )
    await harness.stop(second)
  })

  it.each([false, true])('shows a turn that was running when Bosun died as interrupted (v2: %s)', async (v2) => {
    const home = harness.home([{ id: 'scripted', name: 'Scripted', scenario: harness.scenario(scenario(undefined)), v2 }])
    const first = await harness.start(home)
    const { sessionId } = must(await first.handlers.newSession({ agentId: 'scripted', cwd: home.workspace }))
    void first.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'slow' }] })
    await first.sink.next('sessionActions', (b) => b.actions.some((a) => a.type === 'updates' && a.updates.some((u) => u.sessionUpdate === 'agent_message_chunk')))
    // Written (the list changes when the running turn reaches the database)…
    await first.sink.next('historyChanged')
    // …and Bosun "crashes": a second run reads the same file while the first one never got to quit (its home
    // lock left behind by a process that is gone, which the second run takes over).
    harness.crashed(home)
    const second = await harness.start(home)
    expect(must(await second.handlers.historyList({})).sessions).toEqual([expect.objectContaining({ sessionId, interrupted: true })])
    must(await second.handlers.historyOpen({ sessionId }))
    const { session } = await second.sink.next('sessionAdded')
    expect(session.turn.state).toBe('idle')
    expect(session.turn.error?.message).toBe(INTERRUPTED_MESSAGE)
    expect(session.entries.some((e) => e.kind === 'agent_message')).toBe(true)
    await second.sink.next('historyChanged')
    expect(must(await second.handlers.historyList({})).sessions[0]!.interrupted).toBe(false)
  })

  it('shows a turn that was running when Bosun was closed as interrupted by the close, not as the agent stopping', async () => {
    const home = harness.home([{ id: 'scripted', name: 'Scripted', scenario: harness.scenario(scenario({ loadSession: true })) }])
    const first = await harness.start(home)
    const { sessionId } = must(await first.handlers.newSession({ agentId: 'scripted', cwd: home.workspace }))
    const running = first.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'slow' }] })
    await first.sink.next('sessionActions', (b) => b.actions.some((a) => a.type === 'updates' && a.updates.some((u) => u.sessionUpdate === 'agent_message_chunk')))
    // The person quits Bosun mid-turn (as claude-agent-acp was closed running a 30 s command): the agents are stopped.
    await harness.stop(first)
    const ended = await running
    expect(ended.ok ? 'ok' : ended.error.message).toBe(CLOSED_MESSAGE)
    const second = await harness.start(home)
    must(await second.handlers.historyOpen({ sessionId }))
    const { session } = await second.sink.next('sessionAdded')
    expect(session.turn.state).toBe('idle')
    expect(session.turn.error?.message).toBe(CLOSED_MESSAGE)
    expect(session.entries.some((e) => e.kind === 'agent_message')).toBe(true)
  })

  it('keeps a corrupt file aside, reports it, and starts a fresh history', async () => {
    const home = harness.home([{ id: 'scripted', name: 'Scripted', scenario: 'basic' }], (h) =>
      writeFileSync(join(h.home, 'history.sqlite'), 'garbage, not SQLite '.repeat(500)),
    )
    const run = await harness.start(home)
    const { problem, sessions } = must(await run.handlers.historyList({}))
    expect(problem?.message).toMatch(/kept as .*history\.sqlite\.corrupt-\d+/)
    expect(sessions).toEqual([])
    expect(readdirSync(home.home).some((f) => /^history\.sqlite\.corrupt-\d+$/.test(f))).toBe(true)
    const { sessionId } = must(await run.handlers.newSession({ agentId: 'scripted', cwd: home.workspace }))
    await runTurn(run, sessionId, 'diff')
    await harness.stop(run)
    const again = await harness.start(home)
    expect(must(await again.handlers.historyList({})).sessions.map((s) => s.sessionId)).toEqual([sessionId])
  })

  it('works in memory with a clear error when the history cannot be written, and saves the sessions once it can', async () => {
    // A folder where the database file should be: like a read-only home, SQLite cannot open it.
    const home = harness.home([{ id: 'scripted', name: 'Scripted', scenario: 'basic' }], (h) => mkdirSync(join(h.home, 'history.sqlite')))
    const run = await harness.start(home)
    expect(must(await run.handlers.historyList({})).problem?.message).toMatch(/History is off.*tries again every few seconds.*saved beside it about every half minute while they change, and when Bosun quits/)
    const { sessionId } = must(await run.handlers.newSession({ agentId: 'scripted', cwd: home.workspace }))
    expect((await runTurn(run, sessionId, 'diff')).stopReason).toBe('end_turn')
    expect(must(await run.handlers.getSnapshot(undefined)).sessions[0]!.entries.length).toBeGreaterThan(1)
    expect(existsSync(join(home.home, 'history.sqlite'))).toBe(true)
    // Closed while nothing can be written: kept, not lost, and listed from memory meanwhile.
    must(await run.handlers.closeSession({ sessionId }))
    expect(must(await run.handlers.historyList({})).sessions.map((s) => s.sessionId)).toEqual([sessionId])
    // The folder goes: the recorder's next attempt (every 5 s) opens the file and writes the session.
    rmSync(join(home.home, 'history.sqlite'), { recursive: true })
    let seen = run.sink.of('historyChanged').length
    for (;;) {
      await run.sink.next('historyChanged', () => run.sink.of('historyChanged').length > seen)
      seen = run.sink.of('historyChanged').length
      const listed = must(await run.handlers.historyList({}))
      expect(listed.sessions.map((s) => s.sessionId)).toEqual([sessionId])
      if (listed.problem === null) break
      // Meanwhile the history says what it said from the start (no notice for each write that fails).
      expect(listed.problem.message).toMatch(/^History is off/)
    }
    expect(run.sink.of('appNotice').filter((n) => n.title === 'History not saved')).toEqual([])
    await harness.stop(run)
    const again = await harness.start(home)
    must(await again.handlers.historyOpen({ sessionId }))
    const { session } = await again.sink.next('sessionAdded')
    expect(session.entries.some((e) => e.kind === 'tool_call')).toBe(true)
  }, 30_000)

  it('keeps the sessions it could not write when Bosun quits while history is off, and writes them once it opens', async () => {
    const home = harness.home([{ id: 'scripted', name: 'Scripted', scenario: 'basic' }], (h) => mkdirSync(join(h.home, 'history.sqlite')))
    const run = await harness.start(home)
    const open = must(await run.handlers.newSession({ agentId: 'scripted', cwd: home.workspace })).sessionId
    expect((await runTurn(run, open, 'diff')).stopReason).toBe('end_turn')
    // One closed, one still open when the person quits: neither could be written.
    const closed = must(await run.handlers.newSession({ agentId: 'scripted', cwd: home.workspace })).sessionId
    expect((await runTurn(run, closed, 'Refactor the tokenizer')).stopReason).toBe('end_turn')
    must(await run.handlers.closeSession({ sessionId: closed }))
    await harness.stop(run)
    const kept = join(home.home, 'history-unsaved')
    expect(readdirSync(kept).filter((f) => f.endsWith('.json'))).toHaveLength(2)

    // The file can be opened at the next start: both are written to it, and the files that kept them go.
    rmSync(join(home.home, 'history.sqlite'), { recursive: true })
    const again = await harness.start(home)
    await again.sink.next('historyChanged')
    const listed = must(await again.handlers.historyList({}))
    expect(listed.problem).toBeNull()
    expect(listed.sessions.map((s) => s.sessionId).sort()).toEqual([open, closed].sort())
    expect(readdirSync(kept)).toEqual([])
    must(await again.handlers.historyOpen({ sessionId: open }))
    const { session } = await again.sink.next('sessionAdded', (e) => e.session.sessionId === open)
    expect(session.entries.some((e) => e.kind === 'tool_call')).toBe(true)
    expect(must(await again.handlers.historySearch({ query: 'tokenizer' })).hits).toEqual([expect.objectContaining({ sessionId: closed })])
    await harness.stop(again)
  }, 30_000)

  it('deletes an open session at once, before the recorder wrote it (no "No stored session")', async () => {
    const home = harness.home([{ id: 'scripted', name: 'Scripted', scenario: harness.scenario(scenario(undefined)) }])
    const run = await harness.start(home)
    const { sessionId } = must(await run.handlers.newSession({ agentId: 'scripted', cwd: home.workspace }))
    must(await run.handlers.historyDelete({ sessionId }))
    await run.sink.next('sessionRemoved', (e) => e.sessionId === sessionId)
    expect(must(await run.handlers.historyList({ includeArchived: true })).sessions).toEqual([])
    expect((await run.handlers.historyDelete({ sessionId })).ok).toBe(false)
  })

  it('searches, renames, archives, exports and deletes', async () => {
    const home = harness.home([{ id: 'scripted', name: 'Scripted', scenario: harness.scenario(scenario(undefined)) }])
    const run = await harness.start(home)
    const { sessionId } = must(await run.handlers.newSession({ agentId: 'scripted', cwd: home.workspace }))
    await runTurn(run, sessionId, 'Refactor the tokenizer')
    const hits = must(await run.handlers.historySearch({ query: 'lint' })).hits
    expect(hits).toEqual([expect.objectContaining({ sessionId, kind: 'tool_call', snippet: expect.stringContaining('\u0002lint\u0003') })])
    const byPrompt = must(await run.handlers.historySearch({ query: 'tokeni' })).hits
    expect(byPrompt).toEqual([expect.objectContaining({ sessionId, kind: 'user_message' })])

    must(await run.handlers.historyRename({ sessionId, title: 'Tokenizer work' }))
    must(await run.handlers.historyArchive({ sessionId, archived: true }))
    expect(must(await run.handlers.historyList({})).sessions).toEqual([])
    expect(must(await run.handlers.historyList({ includeArchived: true })).sessions).toEqual([expect.objectContaining({ title: 'Tokenizer work', archived: true })])
    expect(must(await run.handlers.historySearch({ query: 'tokenizer' })).hits[0]).toMatchObject({ archived: true, title: 'Tokenizer work' })

    const markdown = must(await run.handlers.historyExport({ sessionId, format: 'markdown' }))
    expect(markdown).toMatchObject({ fileName: 'Tokenizer-work.md', mimeType: 'text/markdown' })
    expect(markdown.content).toContain('# Tokenizer work')
    // The agent by the name the person gave it, its id after it.
    expect(markdown.content).toContain('- Agent: Scripted (scripted)')
    expect(markdown.content).toContain('## You\n\nRefactor the tokenizer')
    expect(markdown.content).toContain('### Tool: Run the linter (execute, completed)')
    const json = JSON.parse(must(await run.handlers.historyExport({ sessionId, format: 'json' })).content!)
    expect(json).toMatchObject({ format: 'bosun-session', summary: { sessionId }, session: { sessionId } })

    must(await run.handlers.historyDelete({ sessionId }))
    await run.sink.next('sessionRemoved', (e) => e.sessionId === sessionId)
    expect(must(await run.handlers.historyList({ includeArchived: true })).sessions).toEqual([])
    expect(must(await run.handlers.historySearch({ query: 'tokenizer' })).hits).toEqual([])
    expect((await run.handlers.historyOpen({ sessionId })).ok).toBe(false)
  })
})

describe("the agent's own sessions", () => {
  it('a slow session/list the person cancels: answered cancelled at once, withdrawn with $/cancel_request, the late result dropped, the next listing answered (B16)', async () => {
    const gateDir = mkdtempSync(join(tmpdir(), 'bosun-list-gate-'))
    onTestFinished(() => rmSync(gateDir, { recursive: true, force: true }))
    const gate = join(gateDir, 'list-now')
    const listing: Scenario = {
      initialize: { capabilities: { loadSession: true, sessionCapabilities: { list: {} } } },
      session: { list: [{ sessionId: 'terminal-7', title: 'From the terminal' }], listUntilFile: gate },
      prompts: reply,
    }
    const home = harness.home([{ id: 'scripted', name: 'Scripted', scenario: harness.scenario(listing) }])
    const run = await harness.start(home)
    const inspector = async () => must(await run.handlers.listInspectorMessages({ agentId: 'scripted' })).messages
    const listed = run.handlers.historyAgentSessions({ agentId: 'scripted', cwd: home.workspace })
    await expect.poll(async () => (await inspector()).some((m) => m.direction === 'out' && m.kind === 'request' && (m.message as { method?: string }).method === 'session/list')).toBe(true)
    const asked = (await inspector()).find((m) => m.direction === 'out' && (m.message as { method?: string }).method === 'session/list')!.message as { id: number }

    must(await run.handlers.historyCancelAgentSessions({ agentId: 'scripted', cwd: home.workspace }))
    expect(await listed).toMatchObject({ ok: false, error: { kind: 'cancelled' } })
    const withdrawn = (await inspector()).filter((m) => m.direction === 'out' && (m.message as { method?: string }).method === '$/cancel_request')
    expect(withdrawn.map((m) => (m.message as { params: unknown }).params)).toEqual([{ requestId: asked.id }])

    // The agent answers after all: dropped, nothing breaks, and asking again is answered.
    writeFileSync(gate, '')
    await expect.poll(async () => (await inspector()).some((m) => m.direction === 'in' && (m.message as { id?: unknown }).id === asked.id)).toBe(true)
    expect(must(await run.handlers.historyAgentSessions({ agentId: 'scripted', cwd: home.workspace })).sessions.map((s) => s.acpSessionId)).toEqual(['terminal-7'])
    // Nothing to cancel now: a no-op.
    must(await run.handlers.historyCancelAgentSessions({ agentId: 'scripted', cwd: home.workspace }))
  })

  it('lists what the agent has for the folder, opens one through session/load, closes it with session/close, and keeps it', async () => {
    const listing: Scenario = {
      initialize: { capabilities: { loadSession: true, sessionCapabilities: { list: {}, close: {} } } },
      session: { replay: [{ type: 'text', text: 'Started in a terminal' }], list: [{ sessionId: 'terminal-7', title: 'From the terminal' }] },
      prompts: reply,
    }
    const home = harness.home([{ id: 'scripted', name: 'Scripted', scenario: harness.scenario(listing) }])
    const run = await harness.start(home)
    const listed = must(await run.handlers.historyAgentSessions({ agentId: 'scripted', cwd: home.workspace }))
    expect(listed).toEqual({ supported: true, sessions: [{ acpSessionId: 'terminal-7', cwd: home.workspace, title: 'From the terminal', updatedAt: null, stored: false }] })

    // As the sidebar does: with the title the list gave it.
    const { sessionId } = must(await run.handlers.historyOpenAgentSession({ agentId: 'scripted', acpSessionId: 'terminal-7', cwd: home.workspace, title: 'From the terminal' }))
    expect(sessionId).toBe('scripted/terminal-7')
    await expect.poll(() => agentLog(home, 'scripted')).toContain('REATTACH session/load terminal-7 replay=true')
    const state = must(await run.handlers.getSnapshot(undefined)).sessions.find((s) => s.sessionId === sessionId)!
    expect(texts(state)).toEqual([`agent_message:${JSON.stringify([{ type: 'text', text: 'Started in a terminal' }])}`])
    expect(state.title).toBe('From the terminal')
    expect((await runTurn(run, sessionId, 'carry on')).stopReason).toBe('end_turn')

    must(await run.handlers.closeSession({ sessionId }))
    await expect.poll(() => agentLog(home, 'scripted')).toContain('CLOSE terminal-7')
    expect(must(await run.handlers.historyAgentSessions({ agentId: 'scripted', cwd: home.workspace })).sessions[0]!.stored).toBe(true)
    await harness.stop(run)

    const again = await harness.start(home)
    must(await again.handlers.historyOpen({ sessionId }))
    const { session } = await again.sink.next('sessionAdded')
    expect(texts(session)[0]).toContain('Started in a terminal')
    expect(session.entries.filter((e) => e.kind === 'user_message')).toHaveLength(1)
  })

  it('opens a listed session with the folders the list gives it, all of them and no others (E17); one listed without any gets none', async () => {
    // Folders outside the agent's home, as a session started in a terminal may have.
    const elsewhere = harness.home([]).workspace
    const docs = join(elsewhere, 'docs')
    const shared = join(elsewhere, 'shared')
    mkdirSync(docs)
    mkdirSync(shared)
    const gone = join(elsewhere, 'gone')
    const listing: Scenario = {
      initialize: { capabilities: { loadSession: true, sessionCapabilities: { list: {}, additionalDirectories: {} } } },
      session: {
        list: [
          { sessionId: 'with-folders', title: 'Two folders', additionalDirectories: [shared, docs, gone] },
          { sessionId: 'without', title: 'No folders' },
        ],
      },
      prompts: reply,
    }
    const agentHome = harness.home([{ id: 'scripted', name: 'Scripted', scenario: harness.scenario(listing) }])
    const run = await harness.start(agentHome)
    const listed = must(await run.handlers.historyAgentSessions({ agentId: 'scripted', cwd: agentHome.workspace })).sessions
    expect(listed.map((s) => [s.acpSessionId, s.additionalDirectories])).toEqual([
      ['with-folders', [shared, docs, gone]],
      ['without', undefined],
    ])

    // As the sidebar does: the listed folders go with the open.
    const open = async (entry: (typeof listed)[number]) => {
      const { sessionId } = must(
        await run.handlers.historyOpenAgentSession({
          agentId: 'scripted',
          acpSessionId: entry.acpSessionId,
          cwd: agentHome.workspace,
          ...(entry.additionalDirectories ? { additionalDirectories: entry.additionalDirectories } : {}),
        }),
      )
      await expect.poll(() => agentLog(agentHome, 'scripted')).toContain(`REATTACH session/load ${entry.acpSessionId} replay=true`)
      const sent = () =>
        agentLog(agentHome, 'scripted')
          .split('\n')
          .map((line) => /REATTACH-PARAMS (\{.*\})$/.exec(line)?.[1])
          .filter((p): p is string => p !== undefined)
          .map((p) => JSON.parse(p) as { sessionId: string; additionalDirectories?: string[] })
          .find((p) => p.sessionId === entry.acpSessionId)
      await expect.poll(sent).toBeDefined()
      const params = sent()!
      const state = must(await run.handlers.getSnapshot(undefined)).sessions.find((s) => s.sessionId === sessionId)!
      return { params, state }
    }
    const withFolders = await open(listed[0]!)
    // In the agent's order; the one that is not a folder here is left out, and the session says so.
    expect(withFolders.params.additionalDirectories).toEqual([shared, docs])
    expect(withFolders.state.additionalDirectories).toEqual([shared, docs])
    expect(withFolders.state.notices.map((n) => n.title)).toEqual([`Not folders on this computer, so left out of the session: ${gone}`])
    const without = await open(listed[1]!)
    expect(without.params).not.toHaveProperty('additionalDirectories')
    expect(without.state.additionalDirectories).toBeUndefined()
  })

  it('says so when the agent does not list its sessions', async () => {
    const home = harness.home([{ id: 'scripted', name: 'Scripted', scenario: 'basic' }])
    const run = await harness.start(home)
    expect(must(await run.handlers.historyAgentSessions({ agentId: 'scripted', cwd: home.workspace }))).toEqual({ supported: false, sessions: [] })
  })
})

describe('deleting a session from the history (E10)', () => {
  const deleting = (session: Scenario['session'] = {}): Scenario => ({
    initialize: { capabilities: { loadSession: true, sessionCapabilities: { delete: {} } } },
    session,
    prompts: reply,
  })
  const deletes = (home: Parameters<typeof agentLog>[0]) => agentLog(home, 'scripted').match(/^DELETE .*$/gm) ?? []
  /**
   * Whether to ask the agent is decided once the history thread has answered the read each delete makes: a read asked
   * later is answered after it, and on a later message from the thread, so the decisions (and any request they sent)
   * are made when it is back.
   */
  const decided = async (run: Run) => {
    must(await run.handlers.historyList({ includeArchived: true }))
    must(await run.handlers.historyList({ includeArchived: true }))
  }

  /** A session with one turn, deleted from the history: gone here at once, and the agent asked to delete its copy. */
  async function deleteOne(options: Parameters<typeof deleting>[0] = {}) {
    const home = harness.home([{ id: 'scripted', name: 'Scripted', scenario: harness.scenario(deleting(options)) }])
    const run = await harness.start(home)
    const { sessionId } = must(await run.handlers.newSession({ agentId: 'scripted', cwd: home.workspace }))
    await runTurn(run, sessionId, 'Keep this')
    must(await run.handlers.historyDelete({ sessionId }))
    expect(must(await run.handlers.historyList({ includeArchived: true })).sessions).toEqual([])
    await expect.poll(() => deletes(home)).toEqual(['DELETE sess-1'])
    return { run, home }
  }

  it('asks the running agent to delete its copy, after the local delete, which does not wait for it', async () => {
    const { run } = await deleteOne()
    expect(run.sink.of('appNotice')).toEqual([])
  })

  it.each([
    { label: '-32002 (the agent no longer has it) is a delete that went through', fails: { code: -32002, message: 'Session not found' }, notice: false },
    { label: 'any other error is said in a notice; the session is deleted here all the same', fails: { code: -32603, message: 'disk full' }, notice: true },
  ])('$label', async ({ fails, notice }) => {
    const { run, home } = await deleteOne({ deleteFails: fails })
    if (notice) {
      expect(await run.sink.next('appNotice')).toEqual({
        severity: 'warning',
        title: 'Scripted kept its own copy of the deleted session',
        description: 'Bosun deleted the session here; Scripted answered the request to delete its copy with: disk full',
      })
    } else {
      // A later round trip to the same agent: its answer is read after the delete's, and the delete's answer was
      // handled (to its notice, if any) in the microtasks before the next read from the pipe.
      must(await run.handlers.newSession({ agentId: 'scripted', cwd: home.workspace }))
      expect(run.sink.of('appNotice')).toEqual([])
    }
  })

  it('a stored session of a running agent: asked, unless the agent now calls another session of Bosun’s by that id', async () => {
    const home = harness.home([{ id: 'scripted', name: 'Scripted', scenario: harness.scenario(deleting()) }])
    const first = await harness.start(home)
    const old: string[] = []
    for (const text of ['First', 'Second', 'Third']) {
      const { sessionId } = must(await first.handlers.newSession({ agentId: 'scripted', cwd: home.workspace }))
      await runTurn(first, sessionId, text)
      old.push(sessionId)
    }
    await harness.stop(first)

    // The agent's new process numbers its sessions from 1 again: its sess-1 and sess-2 are new sessions now.
    const second = await harness.start(home)
    const open = must(await second.handlers.newSession({ agentId: 'scripted', cwd: home.workspace })).sessionId
    const closed = must(await second.handlers.newSession({ agentId: 'scripted', cwd: home.workspace })).sessionId
    await runTurn(second, closed, 'Newer')
    must(await second.handlers.closeSession({ sessionId: closed }))
    expect([...old, open, closed]).toEqual(['scripted/sess-1', 'scripted/sess-2', 'scripted/sess-3', expect.stringMatching(/^scripted\/sess-1#\d+$/), expect.stringMatching(/^scripted\/sess-2#\d+$/)])
    must(await second.handlers.historyDelete({ sessionId: old[2]! }))
    await expect.poll(() => deletes(home)).toEqual(['DELETE sess-3'])
    // sess-1 is the open session's now, sess-2 the stored newer one's: neither is asked.
    must(await second.handlers.historyDelete({ sessionId: old[0]! }))
    must(await second.handlers.historyDelete({ sessionId: old[1]! }))
    await decided(second)
    // A round trip to the agent after any request those decisions sent: the agent read it first.
    must(await second.handlers.newSession({ agentId: 'scripted', cwd: home.workspace }))
    expect(deletes(home)).toEqual(['DELETE sess-3'])
  })

  it('does not start an agent that is not running to ask it', async () => {
    const home = harness.home([{ id: 'scripted', name: 'Scripted', scenario: harness.scenario(deleting()) }])
    const first = await harness.start(home)
    const { sessionId } = must(await first.handlers.newSession({ agentId: 'scripted', cwd: home.workspace }))
    await runTurn(first, sessionId, 'Keep this')
    await harness.stop(first)
    const starts = () => agentLog(home, 'scripted').match(/^INITIALIZE /gm)?.length ?? 0
    const startedBefore = starts()

    const second = await harness.start(home)
    must(await second.handlers.historyDelete({ sessionId }))
    expect(must(await second.handlers.historyList({ includeArchived: true })).sessions).toEqual([])
    await decided(second)
    expect(starts()).toBe(startedBefore)
    expect(deletes(home)).toEqual([])
  })
})
