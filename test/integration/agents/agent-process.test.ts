import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AgentProcess, type AgentProcessSpec } from '../../../main/agents/agent-process'
import { once } from '../../../main/base/event'
import { expectAllGone, fixtureSpec, grandchildPid, isGone, testLogger, waitForStderr } from './helpers'

let dir: string
const live: AgentProcess[] = []

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bosun-agent-process-'))
})
afterEach(async () => {
  for (const p of live.splice(0)) p.dispose()
  await rm(dir, { recursive: true, force: true })
})

async function start(spec: AgentProcessSpec): Promise<AgentProcess> {
  const result = await AgentProcess.start(spec, { logger: testLogger })
  if (!result.ok) throw new Error(result.error.message)
  live.push(result.value)
  return result.value
}

describe('AgentProcess', () => {
  it('reports a missing command as agent-spawn-failed, without throwing', async () => {
    const result = await AgentProcess.start(fixtureSpec([], { command: join(dir, 'no-such-agent') }), { logger: testLogger })
    expect(result.ok).toBe(false)
    if (!result.ok) {
      expect(result.error.kind).toBe('agent-spawn-failed')
      expect(result.error.message).toContain('command not found')
    }
  })

  it('reports a command that is not executable as agent-spawn-failed', async () => {
    const script = join(dir, 'agent.sh')
    await writeFile(script, '#!/bin/sh\necho hi\n')
    await chmod(script, 0o644)
    const result = await AgentProcess.start(fixtureSpec([], { command: script, args: [] }), { logger: testLogger })
    expect(result.ok).toBe(false)
    if (!result.ok) {
      expect(result.error.kind).toBe('agent-spawn-failed')
      expect(result.error.message).toContain('permission denied')
    }
  })

  it('reports a missing working directory as agent-spawn-failed', async () => {
    const result = await AgentProcess.start(fixtureSpec([], { cwd: join(dir, 'gone') }), { logger: testLogger })
    expect(result.ok ? 'started' : result.error.kind).toBe('agent-spawn-failed')
  })

  it('gives the child exactly the env it was given', async () => {
    process.env.BOSUN_TEST_LEAK = 'leaked'
    try {
      const withEnv = await start(fixtureSpec(['--print-env=BOSUN_TEST_LEAK'], { env: { BOSUN_TEST_LEAK: 'given' } }))
      expect((await waitForStderr(withEnv, /ENV BOSUN_TEST_LEAK=(\S+)/))[1]).toBe('given')
      const without = await start(fixtureSpec(['--print-env=BOSUN_TEST_LEAK'], { env: {} }))
      expect((await waitForStderr(without, /ENV BOSUN_TEST_LEAK=(\S+)/))[1]).toBe('unset')
    } finally {
      delete process.env.BOSUN_TEST_LEAK
    }
  })

  it('reports an exit on its own as unexpected, with the stderr tail, and logs it', async () => {
    const logFile = join(dir, 'logs', 'fixture.log')
    const agent = await start(fixtureSpec(['--exit-at-start=7'], { logFile }))
    const exit = await once(agent.onDidExit)
    expect(exit).toMatchObject({ code: 7, signal: null, expected: false })
    expect(exit.stderrTail).toContain('fatal: no API key configured')
    expect(agent.isRunning).toBe(false)
    expect(await agent.stop()).toBe(exit)
    // The log file has the stderr text and the lifecycle lines, in order.
    const waitForLog = async () => {
      for (;;) {
        const text = await readFile(logFile, 'utf8').catch(() => '')
        if (text.includes('exited code=7')) return text
        await new Promise((r) => setTimeout(r, 10))
      }
    }
    const log = await waitForLog()
    expect(log).toMatch(new RegExp(`\\[agent fixture pid=${agent.pid}\\] started: `))
    expect(log).toContain('fatal: no API key configured')
    expect(log.indexOf('fatal: no API key')).toBeLessThan(log.indexOf(`[agent fixture pid=${agent.pid}] exited code=7 signal=null`))
  })

  it('stop() ends stdin first: a well-behaved agent exits on its own, expected', async () => {
    const agent = await start(fixtureSpec([]))
    const exit = await agent.stop({ deadlineMs: 5_000, stdinGraceMs: 5_000 })
    expect(exit).toMatchObject({ code: 0, signal: null, expected: true })
    expect(exit.stderrTail).toContain('stdin closed')
  })

  it('stop() SIGKILLs an agent that ignores SIGTERM once the deadline passes', async () => {
    const agent = await start(fixtureSpec(['--ignore-sigterm']))
    await waitForStderr(agent, /fixture-agent ready/) // its SIGTERM handler is installed
    const exit = await agent.stop({ deadlineMs: 300, stdinGraceMs: 50 })
    expect(exit).toMatchObject({ code: null, signal: 'SIGKILL', expected: true })
    expect(exit.stderrTail).toContain('ignoring SIGTERM')
    expect(isGone(agent.pid)).toBe(true)
  })

  it('stop() kills the grandchildren too', async () => {
    const agent = await start(fixtureSpec(['--grandchild']))
    const grandchild = await grandchildPid(agent)
    expect(isGone(grandchild)).toBe(false)
    await agent.stop({ deadlineMs: 1_000 })
    await expectAllGone([agent.pid, grandchild])
  })

  it('sweeps the group when the agent exits on its own, so grandchildren are not orphaned', async () => {
    const agent = await start(fixtureSpec(['--grandchild', '--exit-on=session/new:3']))
    const grandchild = await grandchildPid(agent)
    agent.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'session/new', params: {} }) + '\n')
    const exit = await once(agent.onDidExit)
    expect(exit).toMatchObject({ code: 3, expected: false })
    await expectAllGone([agent.pid, grandchild])
  })

  it('drains 10 MB of stderr without blocking the agent, keeps a bounded tail and a bounded log', async () => {
    const logFile = join(dir, 'flood.log')
    const agent = await start(fixtureSpec(['--stderr-mb=10'], { logFile, stderrTailBytes: 4096 }))
    agent.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: 1 } }) + '\n')
    const answer = await new Promise<string>((resolve) => agent.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString())))
    expect(JSON.parse(answer)).toMatchObject({ id: 1, result: { protocolVersion: 1 } })
    await waitForStderr(agent, /stderr flood done/)
    expect(agent.stderrTail().length).toBeLessThanOrEqual(4096)
    await agent.stop()
    const size = (await readFile(logFile)).length
    expect(size).toBeGreaterThan(0)
    expect(size).toBeLessThanOrEqual(5 * 1024 * 1024 + 1024 * 1024)
  })
})
