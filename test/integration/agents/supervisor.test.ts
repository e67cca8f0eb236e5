import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AgentSupervisor } from '../../../main/agents/supervisor'
import { once } from '../../../main/base/event'
import type { AgentRuntimeView } from '../../../common/session/types'
import { ManualScheduler } from '../../unit/agents/manual-scheduler'
import { expectAllGone, fixtureSpec, realConnection, testLogger, trackingStarter } from './helpers'

let dir: string
let supervisor: AgentSupervisor
let tracker: ReturnType<typeof trackingStarter>
let scheduler: ManualScheduler

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bosun-supervisor-'))
  tracker = trackingStarter()
  scheduler = new ManualScheduler()
  supervisor = new AgentSupervisor({ createConnection: realConnection, logger: testLogger, scheduler, startProcess: tracker.start, stopDeadlineMs: 500 })
})
afterEach(async () => {
  await supervisor.stopAll({ deadlineMs: 300 })
  supervisor.dispose()
  await rm(dir, { recursive: true, force: true })
})

const spec = (agentId: string, flags: string[]) => fixtureSpec(flags, { agentId, name: agentId })

/** Grandchild pids the fixtures printed on stderr. */
const grandchildren = () => tracker.started.flatMap((p) => [...p.stderrTail().matchAll(/GRANDCHILD_PID=(\d+)/g)].map((m) => Number(m[1])))

async function waitForGrandchildren(count: number): Promise<void> {
  for (const process of tracker.started) {
    if (/GRANDCHILD_PID=\d+/.test(process.stderrTail()) || !/--grandchild/.test(process.spec.args.join(' '))) continue
    await once(process.onDidWriteStderr, () => /GRANDCHILD_PID=\d+/.test(process.stderrTail()))
  }
  expect(grandchildren()).toHaveLength(count)
}

describe('AgentSupervisor', () => {
  it('keeps one host per agent and forwards its events with the agent id', async () => {
    const views: AgentRuntimeView[] = []
    supervisor.onDidChangeStatus((view) => views.push(view))
    const connected = once(supervisor.onDidConnect)
    const a = await supervisor.ensureStarted('a', spec('a', []))
    expect(a.ok).toBe(true)
    expect((await connected).agentId).toBe('a')
    // Ready already: no second process.
    expect((await supervisor.ensureStarted('a', spec('a', []))).ok).toBe(true)
    expect(tracker.started).toHaveLength(1)
    expect(supervisor.get('a')?.status).toBe('ready')
    expect(views.map((v) => `${v.agentId}:${v.status}`)).toEqual(['a:starting', 'a:ready'])
    expect(supervisor.views()).toEqual([expect.objectContaining({ agentId: 'a', status: 'ready' })])
    expect(() => supervisor.ensureStarted('a', spec('b', []))).toThrow(/does not match/)
  })

  it('ensureConnected gives the live connection and its protocol version', async () => {
    const result = await supervisor.ensureConnected('c', spec('c', []))
    expect(result.ok && result.value.protocolVersion).toBe(2)
    expect(result.ok && result.value.connection).toBe(supervisor.get('c')!.connection)
    const failed = await supervisor.ensureConnected('bad', spec('bad', ['--exit-at-start=1']))
    expect(failed.ok ? 'ok' : failed.error.kind).toBe('agent-exited')
  })

  it('stopAll stops everything under one deadline and leaves no process, grandchildren included', async () => {
    const results = await Promise.all([
      supervisor.ensureStarted('grand', spec('grand', ['--grandchild'])),
      supervisor.ensureStarted('stubborn', spec('stubborn', ['--ignore-sigterm', '--grandchild'])),
      supervisor.ensureStarted('plain', spec('plain', [])),
    ])
    expect(results.map((r) => r.ok)).toEqual([true, true, true])
    await waitForGrandchildren(2)
    const pids = [...tracker.started.map((p) => p.pid), ...grandchildren()]
    expect(pids).toHaveLength(5)

    // One shared deadline, not one per agent: every process is asked to stop, with the whole deadline, before any of
    // them exits (one after the other, the stubborn one's 400 ms would come before the next one's stop).
    const events: string[] = []
    for (const process of tracker.started) {
      const name = process.spec.agentId
      const stop = process.stop.bind(process)
      process.stop = (options) => {
        events.push(`stop ${name} ${options?.deadlineMs}`)
        return stop(options)
      }
      process.onDidExit(() => events.push(`exit ${name}`))
    }
    await supervisor.stopAll({ deadlineMs: 400 })
    expect(events.slice(0, 3).sort()).toEqual(['stop grand 400', 'stop plain 400', 'stop stubborn 400'])
    expect(events.slice(3).sort()).toEqual(['exit grand', 'exit plain', 'exit stubborn'])
    expect(supervisor.views().map((v) => v.status)).toEqual(['stopped', 'stopped', 'stopped'])
    const stubborn = tracker.started.find((p) => p.spec.agentId === 'stubborn')!
    expect(stubborn.exit).toMatchObject({ signal: 'SIGKILL', expected: true })
    await expectAllGone(pids)
    expect(scheduler.pending).toEqual([])
  })

  it('stop(agentId) stops one agent without restarting it; the others keep running', async () => {
    await supervisor.ensureStarted('a', spec('a', ['--grandchild']))
    await supervisor.ensureStarted('b', spec('b', []))
    await waitForGrandchildren(1)
    await supervisor.stop('a')
    expect(supervisor.get('a')?.status).toBe('stopped')
    expect(supervisor.get('b')?.status).toBe('ready')
    await expectAllGone([tracker.started[0]!.pid, ...grandchildren()])
    expect(scheduler.pending).toEqual([])
  })

  it('forwards crashes and restarts per policy', async () => {
    await supervisor.ensureStarted('crashy', spec('crashy', ['--exit-on=session/new:4']))
    const crashed = once(supervisor.onDidCrash)
    const disconnected = once(supervisor.onDidDisconnect)
    void supervisor.get('crashy')!.connection!.newSession({ cwd: dir }).catch(() => undefined)
    expect(await crashed).toMatchObject({ agentId: 'crashy', decision: { action: 'restart', delayMs: 1_000 } })
    expect((await disconnected).error.failure.kind).toBe('agent-exited')
    const connected = once(supervisor.onDidConnect)
    scheduler.advance(1_000)
    expect((await connected).agentId).toBe('crashy')
    expect(tracker.started).toHaveLength(2)
  })

  it('forwards the preferred-version change so config can persist it', async () => {
    const changed = once(supervisor.onDidChangePreferredVersion)
    await supervisor.ensureStarted('old', spec('old', ['--protocol=1']))
    expect(await changed).toEqual({ agentId: 'old', version: 1 })
  })

  it('starts with a persisted preferred version', async () => {
    const withPreference = new AgentSupervisor({
      createConnection: realConnection,
      logger: testLogger,
      startProcess: tracker.start,
      preferredProtocolVersion: (agentId) => (agentId === 'old' ? 1 : undefined),
    })
    try {
      const result = await withPreference.ensureStarted('old', spec('old', ['--protocol=1']))
      expect(result.ok && result.value.offeredVersion).toBe(1)
      expect(tracker.started).toHaveLength(1)
    } finally {
      await withPreference.stopAll()
      withPreference.dispose()
    }
  })

  it('remove() stops the agent and forgets its host; dispose refuses new starts', async () => {
    await supervisor.ensureStarted('gone', spec('gone', []))
    await supervisor.remove('gone')
    expect(supervisor.get('gone')).toBeUndefined()
    await expectAllGone(tracker.started.map((p) => p.pid))
    supervisor.dispose()
    const after = await supervisor.ensureStarted('x', spec('x', []))
    expect(after.ok ? 'ok' : after.error.kind).toBe('agent-not-running')
  })
})
