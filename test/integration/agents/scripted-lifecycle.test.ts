/**
 * Lifecycle edges driven by the scripted agent (v1 and v2) through the real AgentHost and ACP connection:
 * an `initialize` that is slow but within the timeout, one that outlasts it, and a clean exit (code 0) in
 * the middle of a turn.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { AgentHost, type AgentHostOptions } from '../../../main/agents/agent-host'
import { AgentExitedError } from '../../../main/base/errors'
import { once } from '../../../main/base/event'
import type { AgentRuntimeView } from '../../../common/session/types'
import { scriptedAgentCommand } from '../../agents/command'
import { ManualScheduler } from '../../unit/agents/manual-scheduler'
import { expectAllGone, fixtureSpec, realConnection, testLogger, trackingStarter } from './helpers'

let hosts: AgentHost[] = []

afterEach(async () => {
  for (const host of hosts) {
    await host.stop({ deadlineMs: 500 })
    host.dispose()
  }
  hosts = []
})

/** A host running the scripted agent on `scenario`; a v1 agent is offered v1 at once (one process per start). */
function scriptedHost(scenario: string, v2: boolean, options: Partial<AgentHostOptions> = {}) {
  const { command, args } = scriptedAgentCommand(scenario, { v2 })
  const tracker = trackingStarter()
  const host = new AgentHost({
    spec: fixtureSpec([], { agentId: 'scripted', name: 'Scripted', command, args }),
    createConnection: realConnection,
    logger: testLogger,
    startProcess: tracker.start,
    preferredProtocolVersion: v2 ? 2 : 1,
    ...options,
  })
  const statuses: AgentRuntimeView['status'][] = []
  host.onDidChangeStatus((view) => statuses.push(view.status))
  hosts.push(host)
  return { host, statuses, pids: () => tracker.started.map((p) => p.pid) }
}

describe.each([
  ['v1', false],
  ['v2', true],
])('scripted agent lifecycle (%s)', (_label, v2) => {
  it('waits out a slow initialize that stays within the timeout (initialize.delayMs)', async () => {
    const { host, statuses, pids } = scriptedHost('slow-initialize', v2, { initializeTimeoutMs: 15_000 })
    const startedAt = Date.now()
    const result = await host.start()
    const elapsed = Date.now() - startedAt
    expect(result.ok && result.value).toMatchObject({ protocolVersion: v2 ? 2 : 1, agentInfo: { name: 'slow-starter' } })
    // The agent really held its answer back for the scenario's 1.5 s.
    expect(elapsed).toBeGreaterThanOrEqual(1_500)
    expect(statuses).toEqual(['starting', 'ready'])
    expect(pids()).toHaveLength(1)
    const session = await host.connection!.newSession({ cwd: process.cwd() })
    const updates: string[] = []
    host.connection!.onDidReceiveUpdate((n) => updates.push(n.update.sessionUpdate))
    expect((await host.connection!.prompt(session.sessionId, [{ type: 'text', text: 'hi' }])).stopReason).toBe('end_turn')
    expect(updates).toContain('agent_message_chunk')
    await host.stop()
    await expectAllGone(pids())
  })

  it('fails with a timeout when initialize outlasts initializeTimeoutMs, kills the agent and does not retry', async () => {
    // The scenario answers after 120 s; the host gives up after 5 s (several times the agent's start-up).
    const { host, statuses, pids } = scriptedHost('stalled-initialize', v2, { initializeTimeoutMs: 5_000 })
    const startedAt = Date.now()
    const result = await host.start()
    const elapsed = Date.now() - startedAt
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.error.kind).toBe('timeout')
    expect(result.error.message).toBe('Scripted did not answer initialize within 5 s.')
    expect(elapsed).toBeGreaterThanOrEqual(4_900)
    expect(elapsed).toBeLessThan(60_000)
    expect(host.view()).toMatchObject({ status: 'failed', pid: null, error: { kind: 'timeout' } })
    expect(host.connection).toBeUndefined()
    expect(statuses).toEqual(['starting', 'failed'])
    expect(pids()).toHaveLength(1)
    await expectAllGone(pids())
  })

  it('rejects the running prompt with AgentExitedError on a clean exit (code 0) mid-turn; status stopped, no restart', async () => {
    const scheduler = new ManualScheduler()
    const { host, statuses, pids } = scriptedHost('exit-mid-turn', v2, { scheduler })
    expect((await host.start()).ok).toBe(true)
    const connection = host.connection!
    const { sessionId } = await connection.newSession({ cwd: process.cwd() })
    const texts: string[] = []
    connection.onDidReceiveUpdate(({ update }) => {
      const content = update.content as { text?: unknown } | undefined
      if (update.sessionUpdate === 'agent_message_chunk' && typeof content?.text === 'string') texts.push(content.text)
    })
    const crashes: unknown[] = []
    host.onDidCrash((event) => crashes.push(event))
    const disconnected = once(host.onDidDisconnect)
    const stopped = once(host.onDidChangeStatus, (view) => view.status === 'stopped')

    const error = await connection.prompt(sessionId, [{ type: 'text', text: 'leave' }]).then(
      () => undefined,
      (e: unknown) => e,
    )
    // Mid-turn: the agent had started answering.
    expect(texts).toEqual(['Wrapping up'])
    expect(error).toBeInstanceOf(AgentExitedError)
    expect((error as AgentExitedError).exitCode).toBe(0)
    expect((error as AgentExitedError).signal).toBeNull()
    expect((error as AgentExitedError).message).toContain('exited with code 0')
    expect((error as AgentExitedError).failure.stderrTail).toContain('goodbye: nothing left to do')
    expect((await disconnected).error).toBe(error)

    const view = await stopped
    expect(view).toMatchObject({ status: 'stopped', pid: null, nextRestartAt: null, crashCount: 0 })
    // A clean exit is not a crash: nothing fired, no restart timer waits, no second process.
    expect(crashes).toEqual([])
    expect(scheduler.pending).toEqual([])
    expect(statuses).toEqual(['starting', 'ready', 'stopped'])
    expect(host.connection).toBeUndefined()
    expect(pids()).toHaveLength(1)
    await expectAllGone(pids())
  })
})
