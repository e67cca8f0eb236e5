import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AgentHost, STDOUT_HINT, STDOUT_NOTE, unterminatedHint, type AgentHostOptions } from '../../../main/agents/agent-host'
import type { AgentProcessSpec } from '../../../main/agents/agent-process'
import { AgentExitedError } from '../../../main/base/errors'
import { once } from '../../../main/base/event'
import type { AgentRuntimeView } from '../../../common/session/types'
import { scriptedAgentCommand } from '../../agents/command'
import { ManualScheduler } from '../../unit/agents/manual-scheduler'
import { expectAllGone, fixtureSpec, realConnection, testLogger, trackingStarter } from './helpers'

let dir: string
let hosts: AgentHost[] = []

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bosun-agent-host-'))
})
afterEach(async () => {
  for (const host of hosts) {
    await host.stop({ deadlineMs: 500 })
    host.dispose()
  }
  hosts = []
  await rm(dir, { recursive: true, force: true })
})

function makeHost(spec: AgentProcessSpec, options: Partial<AgentHostOptions> = {}) {
  const scheduler = new ManualScheduler()
  const tracker = trackingStarter()
  const host = new AgentHost({ spec, createConnection: realConnection, logger: testLogger, scheduler, startProcess: tracker.start, ...options })
  const statuses: AgentRuntimeView['status'][] = []
  host.onDidChangeStatus((view) => statuses.push(view.status))
  hosts.push(host)
  return { host, scheduler, tracker, statuses, pids: () => tracker.started.map((p) => p.pid) }
}

/** Resolves once the host's current process has written text matching `pattern` on stderr. */
async function hostStderr(host: AgentHost, pattern: RegExp): Promise<void> {
  if (pattern.test(host.stderrTail())) return
  await once(host.onDidWriteStderr, () => pattern.test(host.stderrTail()))
}

const status = (host: AgentHost, wanted: AgentRuntimeView['status']) => once(host.onDidChangeStatus, (view) => view.status === wanted)

/** Sends a request the fixture never answers, except with the crash it was told to do on it. */
const pendingRequest = (host: AgentHost) => host.connection!.newSession({ cwd: dir })

describe('AgentHost', () => {
  it('starts, reaches ready with the handshake, and stops with no process left', async () => {
    const { host, statuses, pids } = makeHost(fixtureSpec(['--grandchild']))
    const started = await host.start()
    expect(started.ok && started.value).toMatchObject({ protocolVersion: 2, offeredVersion: 2, agentInfo: { name: 'fixture-agent' } })
    expect(host.view()).toMatchObject({ status: 'ready', protocolVersion: 2, pid: pids()[0], error: null })
    const connected = host.connection
    expect(connected?.handshake?.protocolVersion).toBe(2)
    await hostStderr(host, /GRANDCHILD_PID=\d+/)
    const grandchild = Number(/GRANDCHILD_PID=(\d+)/.exec(host.stderrTail())![1])
    await host.stop()
    expect(host.view()).toMatchObject({ status: 'stopped', pid: null, error: null })
    expect(statuses).toEqual(['starting', 'ready', 'stopped'])
    await expectAllGone([...pids(), grandchild])
  })

  it('joins a start in progress instead of starting twice', async () => {
    const { host, pids } = makeHost(fixtureSpec([]))
    const [a, b] = await Promise.all([host.start(), host.start()])
    expect(a.ok && b.ok).toBe(true)
    expect(pids()).toHaveLength(1)
  })

  it('fails initialize with the stderr tail when the agent exits at start (and does not restart it)', async () => {
    const { host, scheduler, pids } = makeHost(fixtureSpec(['--exit-at-start=2']))
    const result = await host.start()
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.error.kind).toBe('agent-exited')
    expect(result.error.message).toContain('exited with code 2 while starting')
    expect(result.error.stderrTail).toContain('fatal: no API key configured')
    expect(host.view()).toMatchObject({ status: 'failed', error: { kind: 'agent-exited' } })
    expect(host.view().error?.stderrTail).toContain('fatal: no API key configured')
    expect(host.stderrTail()).toContain('fatal: no API key configured')
    expect(scheduler.pending).toEqual([])
    await expectAllGone(pids())
  })

  it("an agent that asks on its terminal for a code before ACP (Gemini CLI with NO_BROWSER): what it printed on stdout is in the failure's tail", async () => {
    // It prints a sign-in prompt, reads Bosun's initialize line as the code, and exits 41 with its own error.
    const script = `process.stdout.write('Please visit the following URL to authorize the application:\\n\\nhttps://example.test/auth\\n\\nEnter the authorization code: ');
process.stdin.once('data', () => { process.stderr.write('Failed to authenticate with user code.\\n'); process.exit(41) })`
    const { host } = makeHost(fixtureSpec([], { args: ['-e', script] }))
    const result = await host.start()
    expect(result.ok).toBe(false)
    if (result.ok) return
    // The agent's last words on stderr, not the label of what it printed on stdout.
    expect(result.error.message).toBe('fixture exited with code 41 while starting. Failed to authenticate with user code.')
    const tail = result.error.stderrTail ?? ''
    expect(tail).toContain(`${STDOUT_NOTE} Please visit the following URL to authorize the application:`)
    expect(tail).toContain(`${STDOUT_NOTE} https://example.test/auth`)
    expect(tail).toContain('Failed to authenticate with user code.')
  })

  it('an agent that prints its error and then its whole usage (Gemini CLI with an unknown flag): the error is quoted and kept in the excerpt', async () => {
    const usage = Array.from({ length: 45 }, (_, i) => `  --option-${i}    What option ${i} does  [boolean]`).join('\\n')
    const script = `process.stderr.write('Unknown arguments: such-flag, suchFlag\\nUsage: agent [options]\\n\\n${usage}\\n  -h, --help   Show help  [boolean]\\n'); process.exit(1)`
    const { host } = makeHost(fixtureSpec([], { args: ['-e', script] }))
    const result = await host.start()
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.error.message).toBe('fixture exited with code 1 while starting. Unknown arguments: such-flag, suchFlag')
    const tail = (result.error.stderrTail ?? '').split('\n')
    expect(tail[0]).toBe('Unknown arguments: such-flag, suchFlag')
    expect(tail[1]).toMatch(/^… \d+ more lines …$/)
    expect(tail).toHaveLength(40)
    expect(tail.at(-1)).toBe('  -h, --help   Show help  [boolean]')
  })

  it("a Node agent's uncaught error: its message is quoted, not Node's version footer or a stack frame", async () => {
    const { host } = makeHost(fixtureSpec([], { args: ['-e', `setTimeout(() => { throw new Error('config file is not readable') }, 10)`] }))
    const result = await host.start()
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.error.message).toBe('fixture exited with code 1 while starting. Error: config file is not readable')
    expect(result.error.stderrTail).toMatch(/Node\.js v\d/)
  })

  it('an agent that closes its input (stdin) and lives on: the failure says so by name, with what it printed, not "write EPIPE"', async () => {
    const tracker = trackingStarter()
    // Handed to the host once its input is closed, so Bosun's initialize meets the closed pipe (else it may be written first).
    const startProcess: AgentHostOptions['startProcess'] = async (spec, options) => {
      const started = await tracker.start(spec, options)
      if (started.ok && !started.value.stderrTail().includes('closed')) await once(started.value.onDidWriteStderr, () => started.value.stderrTail().includes('closed'))
      return started
    }
    const { host } = makeHost(fixtureSpec([], { command: '/bin/sh', args: ['-c', "exec 0<&-; echo 'agent: stdin closed on purpose' >&2; exec sleep 30"] }), { startProcess })
    const result = await host.start()
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.error.message).toMatch(/^fixture closed its input \(stdin\) while starting, so Bosun could not send it anything \(.*EPIPE.*\)\.$/)
    expect(result.error.stderrTail).toContain('agent: stdin closed on purpose')
  })

  it('a ready agent that closes its input and lives on is stopped, and told as that, not as closing its output', async () => {
    // Answers initialize (as v1), closes its stdin, and sleeps; Bosun's next request finds the pipe closed.
    const answer = JSON.stringify({ jsonrpc: '2.0', id: 0, result: { protocolVersion: 1, agentCapabilities: {}, authMethods: [] } })
    const { host } = makeHost(fixtureSpec([], { command: '/bin/sh', args: ['-c', `read line; echo '${answer}'; exec 0<&-; echo 'agent: no more input' >&2; exec sleep 30`] }))
    const started = await host.start()
    expect(started.ok).toBe(true)
    await hostStderr(host, /no more input/)
    const down = once(host.onDidChangeStatus, (view) => view.error != null)
    await expect(pendingRequest(host)).rejects.toThrow()
    const view = await down
    expect(view.error?.message).toBe('fixture closed its input (stdin) while still running: nothing more could reach it, so Bosun stopped it.')
    expect(view.error?.stderrTail).toContain('agent: no more input')
  })

  it('an agent killed by SIGKILL had no last words: nothing it printed earlier is quoted as the reason', async () => {
    const { host } = makeHost(fixtureSpec([], { args: ['-e', `process.stderr.write('RequestError: Authentication required\\n    at handle (agent.js:1:1)\\n'); setTimeout(() => process.kill(process.pid, 'SIGKILL'), 50)`] }))
    const result = await host.start()
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.error.message).toBe('fixture was killed by SIGKILL while starting.')
    expect(result.error.stderrTail).toContain('RequestError: Authentication required')
  })

  it('an agent that prints a prompt and waits for an answer Bosun cannot give: the timeout says it may be waiting for input, with what it printed', async () => {
    const script = `process.stdout.write('\\x1b[?1049hPlease visit the following URL to authorize the application:\\nhttps://example.test/auth\\nEnter the authorization code: ');
process.stdin.on('data', () => process.stdout.write('Failed. Retrying...\\nEnter the authorization code: '))`
    const { host, scheduler } = makeHost(fixtureSpec([], { args: ['-e', script] }), { initializeTimeoutMs: 60_000 })
    const starting = host.start()
    await scheduler.nextTimer(60_000)
    await hostStderr(host, /Retrying/)
    scheduler.advance(60_000)
    const result = await starting
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.error.kind).toBe('timeout')
    expect(result.error.message).toBe(`fixture did not answer initialize within 60 s. ${STDOUT_HINT}`)
    expect(result.error.stderrTail).toContain(`${STDOUT_NOTE} Please visit the following URL to authorize the application:`)
  })

  it('an agent that answers without ending the line (no newline, or \\r alone) is never heard: the timeout says what it wrote', async () => {
    const answer = JSON.stringify({ jsonrpc: '2.0', id: 0, result: { protocolVersion: 2, agentCapabilities: {}, authMethods: [] } })
    const script = `process.stdin.once('data', () => process.stdout.write(${JSON.stringify(answer + '\r')}, () => process.stderr.write('answered\\n')))`
    let connection: ReturnType<typeof realConnection> | undefined
    const { host, scheduler } = makeHost(fixtureSpec([], { args: ['-e', script] }), { initializeTimeoutMs: 60_000, createConnection: (io) => (connection = realConnection(io)) })
    const starting = host.start()
    await scheduler.nextTimer(60_000)
    await hostStderr(host, /answered/)
    // Bosun has read the whole answer (stdout and stderr are separate pipes, read in either order) before the timeout.
    await expect.poll(() => connection?.unterminatedOutput?.()).toBe(answer.length + 1)
    scheduler.advance(60_000)
    const result = await starting
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.error.kind).toBe('timeout')
    expect(result.error.message).toBe(`fixture did not answer initialize within 60 s. ${unterminatedHint(answer.length + 1)}`)
    expect(result.error.message).toContain('without ending the line')
  })

  it('a timeout without anything printed on stdout says only that', async () => {
    const { host, scheduler } = makeHost(fixtureSpec(['--silent-initialize']), { initializeTimeoutMs: 60_000 })
    const starting = host.start()
    await scheduler.nextTimer(60_000)
    await hostStderr(host, /initialize offered=2/)
    scheduler.advance(60_000)
    const result = await starting
    expect(!result.ok && result.error.message).toBe('fixture did not answer initialize within 60 s.')
  })

  it('reports a spawn failure as a value with status failed', async () => {
    const { host } = makeHost(fixtureSpec([], { command: join(dir, 'missing-agent') }))
    const result = await host.start()
    expect(result.ok ? 'ok' : result.error.kind).toBe('agent-spawn-failed')
    expect(host.status).toBe('failed')
  })

  it('times out an agent that never answers initialize, and kills it', async () => {
    const { host, scheduler, pids } = makeHost(fixtureSpec(['--silent-initialize']), { initializeTimeoutMs: 60_000 })
    const starting = host.start()
    await scheduler.nextTimer(60_000)
    await hostStderr(host, /initialize offered=2/)
    scheduler.advance(60_000)
    const result = await starting
    expect(result.ok ? 'ok' : result.error.kind).toBe('timeout')
    expect(!result.ok && result.error.stderrTail).toContain('initialize offered=2')
    expect(host.status).toBe('failed')
    await expectAllGone(pids())
  })

  it('does not deadlock on an agent that writes 10 MB to stderr before answering', async () => {
    const { host } = makeHost(fixtureSpec(['--stderr-mb=10']))
    const result = await host.start()
    expect(result.ok).toBe(true)
    await hostStderr(host, /stderr flood done/)
    expect(host.stderrTail().length).toBeLessThanOrEqual(16 * 1024)
  })

  it('rejects pending requests with AgentExitedError on a crash, then restarts after the backoff', async () => {
    const { host, scheduler, pids } = makeHost(fixtureSpec(['--exit-on=session/new:3']))
    expect((await host.start()).ok).toBe(true)
    const crashes: number[] = []
    host.onDidCrash((event) => crashes.push(event.decision.action === 'restart' ? event.decision.delayMs : -1))
    const disconnected = once(host.onDidDisconnect)

    const restarting = status(host, 'restarting')
    const pending = pendingRequest(host)
    const error = await pending.then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(AgentExitedError)
    expect((error as AgentExitedError).exitCode).toBe(3)
    expect((error as AgentExitedError).failure.stderrTail).toContain('exiting on session/new')
    expect((await disconnected).error).toBe(error)

    const view = await restarting
    expect(view).toMatchObject({ status: 'restarting', crashCount: 1, nextRestartAt: scheduler.now() + 1_000, error: { kind: 'agent-exited' } })
    expect(host.connection).toBeUndefined()
    expect(scheduler.pending).toEqual([1_000])
    expect(pids()).toHaveLength(1)

    // Nothing happens before the backoff elapses.
    scheduler.advance(999)
    expect(host.status).toBe('restarting')
    const connected = once(host.onDidConnect)
    const ready = status(host, 'ready')
    scheduler.advance(1)
    expect(await connected).toBe(host.connection)
    await ready
    expect(pids()).toHaveLength(2)
    expect(crashes).toEqual([1_000])
    await expectAllGone(pids().slice(0, 1))
  })

  it('gives up after the third crash within five minutes and reports it with the stderr tail', async () => {
    const { host, scheduler, pids } = makeHost(fixtureSpec(['--exit-on=session/new:3']))
    expect((await host.start()).ok).toBe(true)
    const delays: number[] = []
    host.onDidCrash((event) => delays.push(event.decision.action === 'restart' ? event.decision.delayMs : -1))

    for (const delay of [1_000, 2_000]) {
      const restarting = status(host, 'restarting')
      void pendingRequest(host).catch(() => undefined)
      await restarting
      const ready = status(host, 'ready')
      scheduler.advance(delay)
      await ready
    }
    const failed = status(host, 'failed')
    void pendingRequest(host).catch(() => undefined)
    const view = await failed
    expect(delays).toEqual([1_000, 2_000, -1])
    expect(view.crashCount).toBe(3)
    expect(view.error?.message).toContain('crashed 3 times within 5 minutes')
    expect(view.error?.stderrTail).toContain('exiting on session/new')
    expect(scheduler.pending).toEqual([])
    await expectAllGone(pids())

    // A person starts it again: the crash history starts over, so the next crash restarts it.
    expect((await host.start()).ok).toBe(true)
    expect(host.view()).toMatchObject({ status: 'ready', crashCount: 0, error: null })
    const restarting = status(host, 'restarting')
    void pendingRequest(host).catch(() => undefined)
    expect(await restarting).toMatchObject({ crashCount: 1 })
    expect(scheduler.pending).toEqual([1_000])
  })

  it('counts an automatic restart that fails to initialize as a crash', async () => {
    const script = join(dir, 'flaky.mjs')
    const marker = join(dir, 'started-once')
    // Starts fine the first time, then exits at start on every later launch.
    await writeFile(
      script,
      `import { existsSync, writeFileSync } from 'node:fs'
       if (existsSync(${JSON.stringify(marker)})) { process.stderr.write('second launch: broken\\n'); process.exit(9) }
       writeFileSync(${JSON.stringify(marker)}, '')
       await import(${JSON.stringify(fixtureSpec([]).args[0])})`,
    )
    const { host, scheduler, pids } = makeHost(fixtureSpec(['--exit-on=session/new:3'], { args: [script, '--exit-on=session/new:3'] }))
    expect((await host.start()).ok).toBe(true)
    const first = status(host, 'restarting')
    void pendingRequest(host).catch(() => undefined)
    await first
    // The restart fails at start: a second crash, backoff 2 s.
    const second = once(host.onDidChangeStatus, (v) => v.status === 'restarting' && v.crashCount === 2)
    scheduler.advance(1_000)
    const view = await second
    expect(view.error?.stderrTail).toContain('second launch: broken')
    expect(scheduler.pending).toEqual([2_000])
    const failed = status(host, 'failed')
    scheduler.advance(2_000)
    expect((await failed).crashCount).toBe(3)
    await expectAllGone(pids())
  })

  it('does not restart after a clean exit', async () => {
    const { host, scheduler } = makeHost(fixtureSpec(['--exit-on=session/new:0']))
    expect((await host.start()).ok).toBe(true)
    const crashed: unknown[] = []
    host.onDidCrash((e) => crashed.push(e))
    const stopped = status(host, 'stopped')
    const error = await pendingRequest(host).then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(AgentExitedError)
    const view = await stopped
    expect(view.error?.message).toContain('exited with code 0')
    expect(scheduler.pending).toEqual([])
    expect(crashed).toEqual([])
  })

  it('does not restart after a user stop, and rejects pending requests at once', async () => {
    const { host, scheduler, pids, tracker } = makeHost(fixtureSpec(['--ignore-sigterm']), { stopDeadlineMs: 300 })
    expect((await host.start()).ok).toBe(true)
    const pending = pendingRequest(host)
    const stopping = host.stop()
    // Rejected before the (SIGTERM-ignoring) process is gone.
    await expect(pending).rejects.toBeInstanceOf(AgentExitedError)
    expect(tracker.started[0]!.isRunning).toBe(true)
    expect(host.status).toBe('stopped')
    await stopping
    expect(scheduler.pending).toEqual([])
    await expectAllGone(pids())
  })

  it('with autoRestart off, a crash leaves status crashed and schedules nothing', async () => {
    const { host, scheduler } = makeHost(fixtureSpec(['--exit-on=session/new:5']), { autoRestart: false })
    expect((await host.start()).ok).toBe(true)
    const crashed = status(host, 'crashed')
    void pendingRequest(host).catch(() => undefined)
    expect((await crashed).error?.message).toContain('exited with code 5')
    expect(scheduler.pending).toEqual([])
  })

  it('dispose() kills the process group at once', async () => {
    const { host, pids, tracker } = makeHost(fixtureSpec(['--grandchild', '--ignore-sigterm']))
    expect((await host.start()).ok).toBe(true)
    await hostStderr(host, /GRANDCHILD_PID=\d+/)
    const grandchild = Number(/GRANDCHILD_PID=(\d+)/.exec(host.stderrTail())![1])
    const pending = pendingRequest(host)
    host.dispose()
    await expect(pending).rejects.toBeInstanceOf(AgentExitedError)
    expect((await tracker.started[0]!.exited).signal).toBe('SIGKILL')
    await expectAllGone([...pids(), grandchild])
  })

  it('user stop during a scheduled restart cancels it', async () => {
    const { host, scheduler } = makeHost(fixtureSpec(['--exit-on=session/new:3']))
    expect((await host.start()).ok).toBe(true)
    const restarting = status(host, 'restarting')
    void pendingRequest(host).catch(() => undefined)
    await restarting
    await host.stop()
    expect(scheduler.pending).toEqual([])
    expect(host.view()).toMatchObject({ status: 'stopped', nextRestartAt: null })
  })

  it('stop during initialize cancels the start and leaves no process', async () => {
    const { host, pids, scheduler } = makeHost(fixtureSpec(['--silent-initialize']))
    const starting = host.start()
    await scheduler.nextTimer()
    await host.stop()
    const result = await starting
    expect(result.ok ? 'ok' : result.error.kind).toBe('cancelled')
    expect(host.status).toBe('stopped')
    await expectAllGone(pids())
  })

  it('restart() starts a fresh process and forgets the crash history', async () => {
    const { host, pids } = makeHost(fixtureSpec([]))
    expect((await host.start()).ok).toBe(true)
    const result = await host.restart()
    expect(result.ok).toBe(true)
    expect(pids()).toHaveLength(2)
    expect(host.view()).toMatchObject({ status: 'ready', pid: pids()[1], crashCount: 0 })
    await expectAllGone(pids().slice(0, 1))
  })

  it('an agent that answers a version Bosun does not speak (3): the start fails saying so, the process is stopped and not restarted (C9)', async () => {
    const { host, scheduler, pids } = makeHost(fixtureSpec(['--protocol=3']))
    const result = await host.start()
    expect(result.ok ? 'ok' : result.error).toMatchObject({ kind: 'unsupported-protocol-version', message: expect.stringMatching(/answered protocol version 3; Bosun speaks versions 1 and 2/) })
    expect(host.view()).toMatchObject({ status: 'failed', pid: null })
    expect(host.connection).toBeUndefined()
    await expectAllGone(pids())
    expect(scheduler.pending).toEqual([])
    expect(pids()).toHaveLength(1)
  })

  it('keeps a v1 agent that answered 1 to a v2 offer (one process, without client capabilities), and offers v1 from its next start', async () => {
    const { host, pids } = makeHost(fixtureSpec(['--protocol=1']))
    const preferred = once(host.onDidChangePreferredVersion)
    const result = await host.start()
    expect(result.ok && result.value).toMatchObject({ protocolVersion: 1, offeredVersion: 2 })
    expect(await preferred).toBe(1)
    expect(pids()).toHaveLength(1)
    expect(host.view()).toMatchObject({ status: 'ready', protocolVersion: 1, withoutClientCapabilities: true })
    // The next start (a person's restart) offers 1: the agent sees Bosun's capabilities.
    const again = await host.restart()
    expect(again.ok && again.value).toMatchObject({ protocolVersion: 1, offeredVersion: 1 })
    expect(pids()).toHaveLength(2)
    expect(host.view()).not.toHaveProperty('withoutClientCapabilities')
    expect(host.stderrTail()).toContain('initialize offered=1')
  })

  it('with onV1AnswerToV2Offer "restart": restarts a v1 agent that answered 1 to a v2 offer, offering v1, and remembers it', async () => {
    const { host, pids } = makeHost(fixtureSpec(['--protocol=1']), { onV1AnswerToV2Offer: 'restart' })
    const preferred = once(host.onDidChangePreferredVersion)
    const result = await host.start()
    expect(result.ok && result.value).toMatchObject({ protocolVersion: 1, offeredVersion: 1 })
    expect(await preferred).toBe(1)
    expect(host.preferredProtocolVersion).toBe(1)
    expect(pids()).toHaveLength(2)
    expect(host.stderrTail()).toContain('initialize offered=1')
    await expectAllGone(pids().slice(0, 1))
    // The preference holds for the host's lifetime: a restart offers v1 directly.
    expect((await host.restart()).ok).toBe(true)
    expect(pids()).toHaveLength(3)
  })

  it('a v2-only agent offered 1 (a stored preference) ends on v2 in one process, and the preference follows to 2', async () => {
    const scripted = scriptedAgentCommand('basic', { v2: true })
    // The SDK's v2 agent refuses 1 with -32022; the fixture answers 2 to it (v1's rule: its own latest).
    for (const spec of [fixtureSpec([], { command: scripted.command, args: [...scripted.args] }), fixtureSpec(['--protocol=2'])]) {
      const { host, pids } = makeHost(spec, { preferredProtocolVersion: 1, scheduler: undefined })
      const preferred = once(host.onDidChangePreferredVersion)
      const result = await host.start()
      expect(result.ok && result.value).toMatchObject({ protocolVersion: 2, offeredVersion: 2 })
      expect(await preferred).toBe(2)
      expect(host.preferredProtocolVersion).toBe(2)
      expect(pids()).toHaveLength(1)
      expect(host.view()).toMatchObject({ status: 'ready', protocolVersion: 2 })
      await host.stop()
      await expectAllGone(pids())
    }
  })

  it('offers the persisted preferred version first', async () => {
    const { host, pids } = makeHost(fixtureSpec(['--protocol=1']), { preferredProtocolVersion: 1 })
    const result = await host.start()
    expect(result.ok && result.value).toMatchObject({ protocolVersion: 1, offeredVersion: 1 })
    expect(pids()).toHaveLength(1)
  })

  it('writes stderr and lifecycle lines of every launch to one log file', async () => {
    const logFile = join(dir, 'logs', 'fixture.log')
    const { host, pids } = makeHost(fixtureSpec([], { logFile }))
    expect((await host.start()).ok).toBe(true)
    await host.restart()
    await host.stop()
    await host.flushLog()
    const log = await readFile(logFile, 'utf8')
    for (const pid of pids()) {
      expect(log).toContain(`[agent fixture pid=${pid}] started: `)
      expect(log).toContain(`[agent fixture pid=${pid}] exited code=`)
    }
    expect(log).toContain('initialize offered=2')
  })

  it('runs the real scripted agent (v1 and v2 scenarios)', async () => {
    const scenario = join(dir, 'scenario.json')
    await writeFile(scenario, JSON.stringify({ initialize: { agentInfo: { name: 'scripted', version: '9.9.9' } } }))
    for (const v2 of [false, true]) {
      const { command, args } = scriptedAgentCommand(scenario, { v2 })
      const { host, pids } = makeHost(fixtureSpec([], { command, args: [...args] }), { scheduler: undefined })
      const result = await host.start()
      expect(result.ok && result.value).toMatchObject({ protocolVersion: v2 ? 2 : 1, offeredVersion: 2, agentInfo: { name: 'scripted' } })
      // The v1 agent answered 1 to the v2 offer and goes on in the same process (its next start offers 1).
      expect(pids()).toHaveLength(1)
      const session = await host.connection!.newSession({ cwd: dir })
      expect(session.sessionId).toBeTruthy()
      await host.stop()
      await expectAllGone(pids())
    }
  })
})
