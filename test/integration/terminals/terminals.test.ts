/**
 * The five `terminal/*` methods through the composition root with the scripted v1 agent as a real child:
 * create returns while the command runs, exit status, outputByteLimit truncation at character boundaries,
 * a real PTY, the scrubbed environment, kill of a whole process tree, release, and cleanup when the person
 * stops the turn or the agent goes away. The agent reports each answer as `client response (…): …`.
 */
import { mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { InspectorMessage } from '../../../common/contract/agent-tools'
import type { SessionState } from '../../../common/session/types'
import { must, servicesPerTest, type TestServices } from '../../support/services'
import { clientReports } from '../../support/client-reports'

const startServices = servicesPerTest()
const pids: number[] = []
afterEach(() => {
  delete process.env.BOSUN_LEAK_CHECK
  // A failing test must not leave its sleepers behind.
  for (const pid of pids.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL')
    } catch {
      // Gone, as it should be.
    }
  }
})

interface Session {
  t: TestServices
  sessionId: string
  run(text: string): Promise<unknown[]>
  state(): Promise<SessionState>
}

async function start(): Promise<Session> {
  const t = await startServices([{ id: 'term', name: 'Terminal agent', scenario: 'terminals' }])
  const { sessionId } = must(await t.handlers.newSession({ agentId: 'term', cwd: t.workspace }))
  const state = async () => must(await t.handlers.getSnapshot(undefined)).sessions.find((s) => s.sessionId === sessionId)!
  let seen = 0
  const reports = async () => clientReports(await state())
  const run = async (text: string) => {
    must(await t.handlers.prompt({ sessionId, prompt: [{ type: 'text', text }] }))
    const all = await reports()
    const fresh = all.slice(seen)
    seen = all.length
    return fresh
  }
  return { t, sessionId, run, state }
}

/** Alive and not a zombie (a container's init may not reap orphans at once). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch {
    return false
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))
  } catch {
    return false
  }
}

/**
 * Whether `pid` is gone within 5 s. A signalled process dies a moment after kill() returns, and nothing
 * reports the death of a process that is not our child, so this one check polls.
 */
async function gone(pid: number): Promise<boolean> {
  for (let waited = 0; waited < 5_000; waited += 20) {
    if (!alive(pid)) return true
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  return !alive(pid)
}

/** Resolves with the session's state once `predicate` holds (re-checked on each of its batches, no polling). */
async function until(s: Session, predicate: (state: SessionState) => boolean): Promise<SessionState> {
  for (;;) {
    const state = await s.state()
    if (predicate(state)) return state
    const seq = state.seq
    await s.t.sink.next('sessionActions', (batch) => batch.sessionId === s.sessionId && batch.seq > seq)
  }
}

/** The pid of the `sleep` the `grandchild-start` / `cancel` command left in its group. */
async function grandchildPid(s: Session): Promise<number> {
  await until(s, (state) => Object.values(state.terminals).some((t) => t.output.includes('started')))
  const pid = Number(readFileSync(join(s.t.workspace, 'gc.pid'), 'utf8').trim())
  pids.push(pid)
  return pid
}

const errorOf = (response: unknown) => (response as { error?: { code: number; message: string } }).error

describe('terminal/* with the scripted v1 agent', () => {
  it('initialize advertises fs, terminal and auth.terminal (v1 shape)', async () => {
    const s = await start()
    const { messages } = must(await s.t.handlers.listInspectorMessages({ agentId: 'term', method: 'initialize' }))
    const sent = messages.filter((m) => m.direction === 'out' && m.kind === 'request').map((m) => (m.message as { params: Record<string, unknown> }).params)
    // The v2 offer is answered 1 and Bosun restarts the agent with a v1 offer (C10b): the last offer counts.
    expect(sent.at(-1)).toMatchObject({ protocolVersion: 1, clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true, auth: { terminal: true } } })
  })

  it('create answers while the command still runs; kill keeps the terminal readable; release ends it', async () => {
    const s = await start()
    const [created, running, killed, waited, after, released] = await s.run('immediate')
    const terminalId = (created as { terminalId: string }).terminalId
    expect(terminalId).toMatch(/^term-/)
    // Read before the kill: no exit status yet, so create did not wait for `sleep 300`.
    expect(running).toEqual({ output: '', truncated: false })
    expect(killed).toEqual({})
    expect(waited).toEqual({ exitCode: null, signal: 'SIGTERM' })
    expect(after).toMatchObject({ exitStatus: { exitCode: null, signal: 'SIGTERM' } })
    expect(released).toEqual({})
    const view = (await s.state()).terminals[terminalId]
    expect(view).toMatchObject({ command: 'sleep 300', exitStatus: { signal: 'SIGTERM' } })
  })

  it('runs a shell line, reports its exit status, and shows the output on the session', async () => {
    const s = await start()
    const [created, waited, output, again] = await s.run('exit-status')
    expect(waited).toEqual({ exitCode: 3, signal: null })
    expect(again).toEqual(waited)
    // The agent reads plain text; the session's terminal view gets the PTY's stream (\n turned into \r\n, as a terminal does).
    expect(output).toEqual({ output: 'hi\nthere\n', truncated: false, exitStatus: { exitCode: 3, signal: null } })
    const terminalId = (created as { terminalId: string }).terminalId
    const view = (await s.state()).terminals[terminalId]!
    expect(view.output).toBe('hi\r\nthere\r\n')
    expect(view.exitStatus).toEqual({ exitCode: 3, signal: null })
  })

  it('truncates output from the start at a character boundary within outputByteLimit', async () => {
    const s = await start()
    const [, , output] = await s.run('truncate')
    const { output: text, truncated } = output as { output: string; truncated: boolean }
    expect(truncated).toBe(true)
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(5)
    expect(text).toBe('ηθ')
  })

  it('runs in a real PTY with the scrubbed environment plus what the agent asked for', async () => {
    process.env.BOSUN_LEAK_CHECK = 'leaked'
    const s = await start()
    const [, , tty] = await s.run('tty')
    expect((tty as { output: string }).output).toContain('is-a-tty')
    // Nobody can type into it: stdin is /dev/null.
    expect((tty as { output: string }).output).toContain('stdin-is-not')
    const [, , env] = await s.run('env')
    expect((env as { output: string }).output).toBe('given=yes leak= term=xterm-256color\n')
  })

  it('kill ends the whole process tree, grandchildren included', async () => {
    const s = await start()
    await s.run('grandchild-start')
    const pid = await grandchildPid(s)
    expect(alive(pid)).toBe(true)
    const [killed, waited] = await s.run('grandchild-kill')
    expect(killed).toEqual({})
    expect((waited as { signal: string | null }).signal).toBe('SIGTERM')
    expect(await gone(pid)).toBe(true)
  })

  it('a released terminal is unknown afterwards', async () => {
    const s = await start()
    const [, released, output, kill] = await s.run('release')
    expect(released).toEqual({})
    expect(errorOf(output)?.code).toBe(-32002)
    expect(errorOf(kill)?.code).toBe(-32002)
  })

  it('stopping the turn kills the session’s commands; closing the session releases them', async () => {
    const s = await start()
    const turn = s.t.handlers.prompt({ sessionId: s.sessionId, prompt: [{ type: 'text', text: 'cancel' }] })
    const pid = await grandchildPid(s)
    expect(alive(pid)).toBe(true)
    must(await s.t.handlers.cancel({ sessionId: s.sessionId }))
    expect(must(await turn).stopReason).toBe('cancelled')
    const state = await until(s, (st) => Object.values(st.terminals).some((t) => t.exitStatus))
    expect(Object.values(state.terminals)[0]!.exitStatus).toMatchObject({ signal: 'SIGTERM' })
    expect(await gone(pid)).toBe(true)
    // Still readable by the agent until released; closing the session releases it.
    must(await s.t.handlers.closeSession({ sessionId: s.sessionId }))
  })

  it('closing the session releases its running terminals', async () => {
    const s = await start()
    await s.run('grandchild-start')
    const pid = await grandchildPid(s)
    must(await s.t.handlers.closeSession({ sessionId: s.sessionId }))
    expect(await gone(pid)).toBe(true)
  })

  it('an agent that goes away takes its terminals with it', async () => {
    const s = await start()
    await s.run('grandchild-start')
    const pid = await grandchildPid(s)
    must(await s.t.handlers.stopAgent({ agentId: 'term' }))
    expect(await gone(pid)).toBe(true)
  })

  it('refuses a working folder outside the session or not absolute', async () => {
    const s = await start()
    mkdirSync(join(s.t.workspace, 'sub'))
    const [outside, relative, inside] = await s.run('cwd-outside')
    expect(errorOf(outside)?.code).toBe(-32602)
    expect(errorOf(relative)?.code).toBe(-32602)
    expect(inside).toMatchObject({ terminalId: expect.stringMatching(/^term-/) })
  })

  it('wait_for_exit pending when the session closes: the wait answers -32800 (B18), not an exit status', async () => {
    const s = await start()
    must(await s.t.handlers.watchInspector({ agentId: 'term', watching: true }))
    const sent = (m: InspectorMessage) => m.direction === 'out' && (m.kind === 'response' || m.kind === 'error') && m.method === 'terminal/wait_for_exit'
    const answered = s.t.sink.next('inspectorMessages', (batch) => batch.messages.some(sent))
    void s.t.handlers.prompt({ sessionId: s.sessionId, prompt: [{ type: 'text', text: 'wait-cancelled' }] })
    // The wait has reached Bosun.
    await s.t.sink.next('inspectorMessages', (batch) => batch.messages.some((m) => m.direction === 'in' && m.method === 'terminal/wait_for_exit'))
    must(await s.t.handlers.closeSession({ sessionId: s.sessionId }))
    const answer = (await answered).messages.find(sent)!
    expect((answer.message as { error?: { code: number } }).error?.code).toBe(-32800)
  })

  it('wait_for_exit pending when the turn is stopped: the command is killed and the wait answers', async () => {
    const s = await start()
    const turn = s.t.handlers.prompt({ sessionId: s.sessionId, prompt: [{ type: 'text', text: 'wait-cancelled' }] })
    await s.t.sink.next('sessionActions', (batch) => JSON.stringify(batch.actions).includes('terminal_update'))
    must(await s.t.handlers.cancel({ sessionId: s.sessionId }))
    expect(must(await turn).stopReason).toBe('cancelled')
    const state = await until(s, (st) => Object.values(st.terminals).some((t) => t.exitStatus))
    expect(Object.values(state.terminals)[0]!.exitStatus).toEqual({ exitCode: null, signal: 'SIGTERM' })
  })
})
