/**
 * `TerminalHandlers` on its own, with real PTYs and a stand-in connection: what a command finds around it
 * (pagers off, stdin at its end), and how the requests answer for an unknown session or a released terminal.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { SessionAction } from '../../../common/session/types'
import { TerminalHandlers } from '../../../main/terminals/terminal-handlers'
import { attachAgent } from './attach'

interface Harness {
  dir: string
  handlers: TerminalHandlers
  /** What the session was sent. */
  actions: SessionAction[]
  /** Resolves once the session was sent the exit status of `terminalId` (after its last output). */
  exitShown(terminalId: string): Promise<void>
  /** Calls a registered method as the agent would; `signal` stands for `$/cancel_request`. */
  call(method: string, params: Record<string, unknown>, signal?: AbortSignal): Promise<unknown>
}

const cleanups: Array<() => void> = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup()
})

function harness(): Harness {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'bosun-terminals-')))
  const actions: SessionAction[] = []
  const exits = new Map<string, () => void>()
  const shownExit = (id: string) => actions.some((a) => a.type === 'client_terminal' && a.update.terminalId === id && a.update.exitStatus)
  const handlers = new TerminalHandlers({
    sessions: { getSession: (agentId, acpSessionId) => (agentId === 'a' && acpSessionId === 's1' ? { sessionId: 'bosun-s1', cwd: dir, roots: [dir] } : undefined) },
    sink: (_sessionId, action) => {
      actions.push(action)
      if (action.type === 'client_terminal' && action.update.exitStatus) exits.get(action.update.terminalId)?.()
    },
  })
  const exitShown = (terminalId: string) => new Promise<void>((resolve) => (shownExit(terminalId) ? resolve() : exits.set(terminalId, resolve)))
  const agent = attachAgent(handlers)
  cleanups.push(() => {
    agent.dispose()
    handlers.dispose()
    rmSync(dir, { recursive: true, force: true })
  })
  return { dir, handlers, actions, exitShown, call: agent.call }
}

/** `promise`, or 'timed out' after `ms` (a command waiting at a pager never exits by itself). */
const within = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([promise, new Promise<'timed out'>((resolve) => setTimeout(() => resolve('timed out'), ms))])

async function run(h: Harness, params: Record<string, unknown>): Promise<{ terminalId: string; exit: unknown; output: string }> {
  const { terminalId } = (await h.call('terminal/create', { sessionId: 's1', ...params })) as { terminalId: string }
  const exit = await within(h.call('terminal/wait_for_exit', { sessionId: 's1', terminalId }), 10_000)
  const { output } = (await h.call('terminal/output', { sessionId: 's1', terminalId })) as { output: string }
  return { terminalId, exit, output }
}

describe('what a command finds in its terminal', () => {
  it('git log over more commits than fit on the screen exits at once: no pager waits for a key', async () => {
    const h = harness()
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=x', '-c', 'user.email=x@y', ...args], { cwd: h.dir, stdio: 'ignore' })
    git('init', '-q')
    for (let i = 0; i < 40; i++) git('commit', '-q', '--allow-empty', '-m', `n${i}`)
    const { exit, output } = await run(h, { command: 'git log' })
    expect(exit).toEqual({ exitCode: 0, signal: null })
    expect(output.match(/^commit [0-9a-f]{40}/gm)).toHaveLength(40)
  }, 20_000)

  it('the agent reads plain text; the session’s terminal view gets the stream with its escapes', async () => {
    const h = harness()
    const { terminalId, output } = await run(h, { command: "printf '\\033[1;31mred\\033[0m plain\\n'; printf 'step 1\\rstep 2\\n'" })
    expect(output).toBe('red plain\nstep 2\n')
    await h.exitShown(terminalId)
    const shown = h.actions
      .map((a) => (a.type === 'client_terminal' && a.update.sessionUpdate === 'terminal_output_chunk' ? Buffer.from(String(a.update.data), 'base64').toString() : ''))
      .join('')
    expect(shown).toBe('\x1b[1;31mred\x1b[0m plain\r\nstep 1\rstep 2\r\n')
  })

  it('a command that reads stdin gets its end at once (nobody can type into it); its output is still the terminal', async () => {
    const h = harness()
    const read = await run(h, { command: 'read x; echo "read=$? x=[$x]"; test -t 1 && echo out-is-a-tty' })
    expect(read.exit).toEqual({ exitCode: 0, signal: null })
    expect(read.output).toContain('read=1 x=[]')
    expect(read.output).toContain('out-is-a-tty')
    // A program started as argv, with and without arguments.
    expect((await run(h, { command: 'cat' })).exit).toEqual({ exitCode: 0, signal: null })
    expect((await run(h, { command: 'head', args: ['-n', '1'] })).exit).toEqual({ exitCode: 0, signal: null })
  }, 40_000)

  it('pagers are off and git never asks for a password, unless the agent’s own env says otherwise', async () => {
    const h = harness()
    const line = 'echo "[$PAGER][$GIT_PAGER][$MANPAGER][${SYSTEMD_PAGER-unset}][$GIT_TERMINAL_PROMPT]"'
    expect((await run(h, { command: line })).output).toContain('[cat][cat][cat][][0]')
    const asked = await run(h, { command: line, env: [{ name: 'PAGER', value: 'more' }, { name: 'GIT_TERMINAL_PROMPT', value: '1' }] })
    expect(asked.output).toContain('[more][cat][cat][][1]')
  })
})

/** The JSON-RPC error a call was answered with. */
const refusal = async (answer: Promise<unknown>) => {
  try {
    await answer
  } catch (error) {
    const { code, data } = error as { code: number; data?: unknown }
    return { code, data }
  }
  throw new Error('answered without an error')
}

describe('which session and terminal a request names (G7)', () => {
  it('an unknown session is -32002 {sessionId} for every method, checked before the terminal id', async () => {
    const h = harness()
    const { terminalId } = (await h.call('terminal/create', { sessionId: 's1', command: 'sleep', args: ['300'] })) as { terminalId: string }
    expect(await refusal(h.call('terminal/create', { sessionId: 'nope', command: 'true' }))).toEqual({ code: -32002, data: { sessionId: 'nope' } })
    for (const method of ['terminal/output', 'terminal/wait_for_exit', 'terminal/kill', 'terminal/release']) {
      // A live terminal of another session, an unknown one, or none at all: the session is what is not found.
      for (const id of [terminalId, 'term-nope', undefined]) {
        expect(await refusal(h.call(method, { sessionId: 'nope', terminalId: id }))).toEqual({ code: -32002, data: { sessionId: 'nope' } })
      }
    }
    // The terminal is untouched, and in its own session an unknown terminal is what is not found.
    expect(await h.call('terminal/output', { sessionId: 's1', terminalId })).toEqual({ output: '', truncated: false })
    expect(await refusal(h.call('terminal/output', { sessionId: 's1', terminalId: 'term-nope' }))).toEqual({ code: -32002, data: { terminalId: 'term-nope' } })
    expect(await refusal(h.call('terminal/kill', { sessionId: 's1' }))).toMatchObject({ code: -32602 })
  })
})

describe('terminal/wait_for_exit when the terminal goes away (B18)', () => {
  const sleeper = async (h: Harness) => {
    const { terminalId } = (await h.call('terminal/create', { sessionId: 's1', command: 'sleep', args: ['300'] })) as { terminalId: string }
    return { terminalId, wait: h.call('terminal/wait_for_exit', { sessionId: 's1', terminalId }) }
  }

  it('released by Bosun before the command exited: -32800, not an exit status the command never had', async () => {
    const h = harness()
    const closed = await sleeper(h)
    h.handlers.releaseSession('bosun-s1')
    expect(await refusal(closed.wait)).toMatchObject({ code: -32800 })
    expect(await refusal(h.call('terminal/output', { sessionId: 's1', terminalId: closed.terminalId }))).toMatchObject({ code: -32002 })
    const agentGone = await sleeper(h)
    h.handlers.releaseAgent('a')
    expect(await refusal(agentGone.wait)).toMatchObject({ code: -32800 })
    const released = await sleeper(h)
    await h.call('terminal/release', { sessionId: 's1', terminalId: released.terminalId })
    expect(await refusal(released.wait)).toMatchObject({ code: -32800 })
    const quitting = await sleeper(h)
    h.handlers.dispose()
    expect(await refusal(quitting.wait)).toMatchObject({ code: -32800 })
  })

  it('killed by terminal/kill, or by the person stopping the turn: the exit status, even when released right after', async () => {
    const h = harness()
    const killed = await sleeper(h)
    expect(await h.call('terminal/kill', { sessionId: 's1', terminalId: killed.terminalId })).toEqual({})
    await h.call('terminal/release', { sessionId: 's1', terminalId: killed.terminalId })
    expect(await killed.wait).toEqual({ exitCode: null, signal: 'SIGTERM' })
    const stopped = await sleeper(h)
    h.handlers.cancelSession('bosun-s1')
    expect(await stopped.wait).toEqual({ exitCode: null, signal: 'SIGTERM' })
  })

  it('killed by the person from its card: that terminal only, of that session only; the agent gets the exit status', async () => {
    const h = harness()
    const killed = await sleeper(h)
    const other = await sleeper(h)
    other.wait.catch(() => undefined) // released at the end, unanswered
    // Another session's id, an id no terminal has: nothing is killed.
    expect(await h.handlers.killForPerson('bosun-s2', killed.terminalId)).toMatchObject({ ok: false, error: { kind: 'not-found' } })
    expect(await h.handlers.killForPerson('bosun-s1', '__proto__')).toMatchObject({ ok: false, error: { kind: 'not-found' } })
    expect(await h.call('terminal/output', { sessionId: 's1', terminalId: killed.terminalId })).not.toHaveProperty('exitStatus')
    expect(await h.handlers.killForPerson('bosun-s1', killed.terminalId)).toEqual({ ok: true, value: undefined })
    expect(await killed.wait).toEqual({ exitCode: null, signal: 'SIGTERM' })
    expect(h.actions).toContainEqual({ type: 'terminal_cancel_requested', terminalId: killed.terminalId })
    expect(await h.call('terminal/output', { sessionId: 's1', terminalId: other.terminalId })).not.toHaveProperty('exitStatus')
    expect(await h.handlers.killForPerson('bosun-s1', killed.terminalId)).toMatchObject({ ok: false, error: { kind: 'invalid-argument' } })
  })
})
