/**
 * Folders a person adds to a session (issue 14 §1), through the composition root with the scripted v1 agent:
 * checked to be folders before the agent starts; roots for `fs/*` and `terminal/create` whether or not the
 * agent takes them; `additionalDirectories` on `session/new` and on the resume after a restart only to an agent
 * that advertises it; kept in the history. The added folder is `<workspace>-extra` (the scenario writes
 * `{cwd}-extra`); `<workspace>-other` is a folder nobody added.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { SessionState } from '../../../common/session/types'
import type { Scenario } from '../../agents/scenario'
import type { TestHome } from '../../support/bosun-home'
import { must } from '../../support/must'
import { clientReports } from '../../support/client-reports'
import { agentLog, historyHarness, type Run } from '../history/restart'

const harness = historyHarness()

const prompts: Scenario['prompts'] = {
  'read-added': [{ type: 'client_request', method: 'fs/read_text_file', params: { path: '{cwd}-extra/notes.txt' } }],
  'read-other': [{ type: 'client_request', method: 'fs/read_text_file', params: { path: '{cwd}-other/secret.txt' } }],
  'write-added': [{ type: 'client_request', method: 'fs/write_text_file', params: { path: '{cwd}-extra/new.txt', content: 'written\n' } }],
  terminals: [
    { type: 'client_request', method: 'terminal/create', params: { command: 'true', cwd: '{cwd}-extra' } },
    { type: 'client_request', method: 'terminal/create', params: { command: 'true', cwd: '{cwd}-other' } },
  ],
  hello: [{ type: 'text', text: 'hello' }],
}
const advertising: Scenario = { initialize: { capabilities: { loadSession: true, sessionCapabilities: { resume: {}, additionalDirectories: {} } } }, prompts }
const plain: Scenario = { initialize: { capabilities: { loadSession: true, sessionCapabilities: { resume: {} } } }, prompts }

function folders(home: TestHome) {
  const extra = `${home.workspace}-extra`
  const other = `${home.workspace}-other`
  mkdirSync(extra)
  mkdirSync(other)
  writeFileSync(`${extra}/notes.txt`, 'added folder\n')
  writeFileSync(`${other}/secret.txt`, 'top secret\n')
  const cleanup = home.cleanup
  home.cleanup = () => {
    cleanup()
    rmSync(extra, { recursive: true, force: true })
    rmSync(other, { recursive: true, force: true })
  }
  return { extra, other }
}

const state = async (run: Run, sessionId: string): Promise<SessionState> => must(await run.handlers.getSnapshot(undefined)).sessions.find((s) => s.sessionId === sessionId)!

/** The agent's `client response (…)` reports of the turn `text` starts, parsed. */
async function turn(run: Run, sessionId: string, text: string): Promise<unknown[]> {
  const before = clientReports(await state(run, sessionId)).length
  must(await run.handlers.prompt({ sessionId, prompt: [{ type: 'text', text }] }))
  return clientReports(await state(run, sessionId)).slice(before)
}

const errorOf = (response: unknown) => (response as { error?: { code: number; data?: { reason?: string } } }).error

/** The JSON of the agent's first log line starting with `marker`. */
async function logged(home: TestHome, agentId: string, marker: string): Promise<Record<string, unknown>> {
  await expect.poll(() => agentLog(home, agentId)).toContain(marker)
  const line = agentLog(home, agentId).split('\n').find((l) => l.includes(marker))!
  return JSON.parse(line.slice(line.indexOf(marker) + marker.length)) as Record<string, unknown>
}

describe('folders added to a session', () => {
  it('are served to the agent (files and terminals), a folder nobody added is not; sent on session/new when advertised', async () => {
    const home = harness.home([{ id: 'wide', name: 'Wide agent', scenario: harness.scenario(advertising) }])
    const { extra } = folders(home)
    const run = await harness.start(home)
    const { sessionId } = must(await run.handlers.newSession({ agentId: 'wide', cwd: home.workspace, additionalDirectories: [extra, `${extra}/`] }))
    // Kept once (the trailing slash is the same folder), in the session the renderer sees.
    expect((await state(run, sessionId)).additionalDirectories).toEqual([extra])
    expect(await logged(home, 'wide', 'SESSION-NEW ')).toEqual({ cwd: home.workspace, mcpServers: [], additionalDirectories: [extra] })

    expect(await turn(run, sessionId, 'read-added')).toEqual([{ content: 'added folder\n' }])
    const [outside] = await turn(run, sessionId, 'read-other')
    expect(errorOf(outside)).toMatchObject({ code: -32602, data: { reason: 'outside-roots' } })
    expect(JSON.stringify(outside)).not.toContain('top secret')
    expect(await turn(run, sessionId, 'write-added')).toEqual([{}])
    const [inAdded, inOther] = await turn(run, sessionId, 'terminals')
    expect(inAdded).toMatchObject({ terminalId: expect.any(String) })
    expect(errorOf(inOther)).toMatchObject({ code: -32602, data: { reason: 'outside-roots' } })
  })

  it('an agent that does not advertise them is not sent them, is told in the session, and Bosun still serves them', async () => {
    const home = harness.home([{ id: 'plain', name: 'Plain agent', scenario: harness.scenario(plain) }])
    const { extra } = folders(home)
    const run = await harness.start(home)
    const { sessionId } = must(await run.handlers.newSession({ agentId: 'plain', cwd: home.workspace, additionalDirectories: [extra] }))
    expect(await logged(home, 'plain', 'SESSION-NEW ')).toEqual({ cwd: home.workspace, mcpServers: [] })
    const session = await state(run, sessionId)
    expect(session.additionalDirectories).toEqual([extra])
    expect(session.notices.some((n) => n.title.includes('not told of the added folders') && n.title.includes(extra))).toBe(true)
    expect(await turn(run, sessionId, 'read-added')).toEqual([{ content: 'added folder\n' }])
    const [outside] = await turn(run, sessionId, 'read-other')
    expect(errorOf(outside)).toMatchObject({ code: -32602, data: { reason: 'outside-roots' } })
  })

  it('are not served to a v2 agent: v2 has no fs/* or terminal/* client methods, so each is "method not found" and nothing is read, written or run', async () => {
    const home = harness.home([{ id: 'asks2', name: 'Asking v2 agent', scenario: harness.scenario({ initialize: { capabilities: { session: { additionalDirectories: {} } } }, prompts }), v2: true }])
    const { extra } = folders(home)
    const run = await harness.start(home)
    const { sessionId } = must(await run.handlers.newSession({ agentId: 'asks2', cwd: home.workspace, additionalDirectories: [extra] }))
    const [read] = await turn(run, sessionId, 'read-added')
    expect(errorOf(read)).toMatchObject({ code: -32601 })
    expect(JSON.stringify(read)).not.toContain('added folder')
    const [write] = await turn(run, sessionId, 'write-added')
    expect(errorOf(write)).toMatchObject({ code: -32601 })
    expect(existsSync(`${extra}/new.txt`)).toBe(false)
    const [terminal] = await turn(run, sessionId, 'terminals')
    expect(errorOf(terminal)).toMatchObject({ code: -32601 })
  })

  it('go on session/new to a v2 agent that advertises `session.additionalDirectories`, and not to one that does not', async () => {
    const wide: Scenario = { initialize: { capabilities: { session: { additionalDirectories: {} } } }, prompts }
    const home = harness.home([
      { id: 'wide2', name: 'Wide v2 agent', scenario: harness.scenario(wide), v2: true },
      { id: 'plain2', name: 'Plain v2 agent', scenario: harness.scenario({ prompts }), v2: true },
    ])
    const { extra } = folders(home)
    const run = await harness.start(home)
    must(await run.handlers.newSession({ agentId: 'wide2', cwd: home.workspace, additionalDirectories: [extra] }))
    expect(await logged(home, 'wide2', 'SESSION-NEW ')).toMatchObject({ cwd: home.workspace, additionalDirectories: [extra] })
    must(await run.handlers.newSession({ agentId: 'plain2', cwd: home.workspace, additionalDirectories: [extra] }))
    expect(await logged(home, 'plain2', 'SESSION-NEW ')).not.toHaveProperty('additionalDirectories')
  })

  it('are checked before the agent starts: a missing folder, a file, a relative path', async () => {
    const home = harness.home([{ id: 'wide', name: 'Wide agent', scenario: harness.scenario(advertising) }])
    const { extra } = folders(home)
    const run = await harness.start(home)
    const missing = await run.handlers.newSession({ agentId: 'wide', cwd: home.workspace, additionalDirectories: [extra, `${extra}/gone`] })
    expect(missing).toMatchObject({ ok: false, error: { kind: 'invalid-argument', data: { folder: `${extra}/gone` } } })
    expect(missing.ok ? '' : missing.error.message).toContain('does not exist')
    const file = await run.handlers.newSession({ agentId: 'wide', cwd: home.workspace, additionalDirectories: [`${extra}/notes.txt`] })
    expect(file).toMatchObject({ ok: false, error: { kind: 'invalid-argument', data: { folder: `${extra}/notes.txt` } } })
    expect(file.ok ? '' : file.error.message).toContain('is not a folder')
    const relative = await run.handlers.newSession({ agentId: 'wide', cwd: home.workspace, additionalDirectories: ['extra'] })
    expect(relative).toMatchObject({ ok: false, error: { kind: 'invalid-argument', data: { folder: 'extra' } } })
    // Nothing was started for them.
    expect(must(await run.handlers.getSnapshot(undefined))).toMatchObject({ sessions: [], agents: [expect.objectContaining({ agentId: 'wide', status: 'stopped' })] })
  })

  it('are kept in the history and sent again, complete, when a restarted Bosun continues the session', async () => {
    const home = harness.home([{ id: 'wide', name: 'Wide agent', scenario: harness.scenario(advertising) }])
    const { extra } = folders(home)
    const first = await harness.start(home)
    const { sessionId } = must(await first.handlers.newSession({ agentId: 'wide', cwd: home.workspace, additionalDirectories: [extra] }))
    must(await first.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'hello' }] }))
    await harness.stop(first)

    const second = await harness.start(home)
    must(await second.handlers.historyOpen({ sessionId }))
    const added = await second.sink.next('sessionAdded', (e) => e.session.sessionId === sessionId)
    expect(added.session.additionalDirectories).toEqual([extra])
    // The first prompt resumes the session on the new agent process, with the folders, and they are served.
    expect(await turn(second, sessionId, 'read-added')).toEqual([{ content: 'added folder\n' }])
    expect(await logged(home, 'wide', 'REATTACH-PARAMS ')).toMatchObject({ sessionId: expect.any(String), cwd: home.workspace, additionalDirectories: [extra] })
  })
})
