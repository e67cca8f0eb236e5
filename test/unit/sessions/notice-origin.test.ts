/**
 * `notice` is an ACP update an agent may send with any title, so the Stop watchdog's notice (which makes the
 * session offer "Stop the agent") is known by a mark only main sets and main takes off every agent update.
 */
import { describe, expect, it } from 'vitest'
import { isStopOverdueNotice, STOP_OVERDUE_TITLE } from '../../../common/session/stop-watchdog'
import { droppedNotice } from '../../../main/sessions/early-updates'
import { noticeAction } from '../../../main/sessions/session-notices'
import { ok } from '../../../main/base/errors'
import { createLogger } from '../../../main/base/log'
import { SessionsService } from '../../../main/sessions/sessions-service'
import { fakeAgentConnection, sessionsOn } from '../../support/fake-agent-connection'
import { RecordingSink } from '../../support/recording-sink'

describe("the Stop watchdog's notice", () => {
  it('is marked as Bosun’s; an agent’s notice with the same title and the mark is not', async () => {
    const { connection, send } = fakeAgentConnection()
    // Timers run when the test says (the batcher's and the watchdog's).
    const timers: (() => void)[] = []
    const scheduler = { setTimeout: (fn: () => void) => timers.push(fn), clearTimeout: () => undefined }
    const service = sessionsOn(connection, { scheduler, stopWatchdogMs: 1_000 })
    const created = await service.newSession('a', '/w')
    if (!created.ok) throw new Error(created.error.message)
    const { sessionId } = created.value
    void service.prompt(sessionId, [{ type: 'text', text: 'go' }])
    send({ sessionUpdate: 'notice', severity: 'warning', title: STOP_OVERDUE_TITLE, fromBosun: true })
    const [spoofed] = service.state(sessionId)!.notices
    expect(spoofed).toMatchObject({ title: STOP_OVERDUE_TITLE })
    expect(spoofed!.fromBosun).toBeUndefined()
    expect(isStopOverdueNotice(spoofed!)).toBe(false)
    service.cancel(sessionId)
    for (const run of timers.splice(0)) run()
    const notices = service.state(sessionId)!.notices
    expect(notices.filter(isStopOverdueNotice)).toEqual([expect.objectContaining({ title: STOP_OVERDUE_TITLE, fromBosun: true })])
    service.dispose()
  })

  it('is not given for v2 work the agent started itself and ended promptly after Stop (F11): only for a turn still running', async () => {
    const { connection, send } = fakeAgentConnection()
    const timers: (() => void)[] = []
    const scheduler = { setTimeout: (fn: () => void) => timers.push(fn), clearTimeout: () => undefined }
    const service = new SessionsService({ connect: async () => ok({ connection, protocolVersion: 2 as const }) }, new RecordingSink(), createLogger('test', () => undefined), {
      scheduler,
      stopWatchdogMs: 1_000,
    })
    service.attachConnection('a', connection)
    const created = await service.newSession('a', '/w')
    if (!created.ok) throw new Error(created.error.message)
    const { sessionId } = created.value
    // Foreground work with no prompt of Bosun's: Stop cancels it, and the agent ends it at once.
    send({ sessionUpdate: 'state_update', state: 'running' })
    expect(service.state(sessionId)!.turn.state).toBe('running')
    service.cancel(sessionId)
    send({ sessionUpdate: 'state_update', state: 'idle', stopReason: 'cancelled' })
    for (const run of timers.splice(0)) run()
    expect(service.state(sessionId)!.turn.state).toBe('idle')
    expect(service.state(sessionId)!.notices.filter(isStopOverdueNotice)).toEqual([])
    service.dispose()
  })
})

describe("Bosun's other notices", () => {
  it('are marked as Bosun’s, so the window says whose words an unmarked one is (hostile14)', async () => {
    // Before: only the watchdog's was marked, and an agent's notice drew as these do.
    expect(droppedNotice(3)).toMatchObject({ sessionUpdate: 'notice', fromBosun: true })
    expect(noticeAction('warning', 'Not passed', 'why')).toEqual({ type: 'updates', updates: [{ sessionUpdate: 'notice', fromBosun: true, severity: 'warning', title: 'Not passed', description: 'why' }] })
    const { connection, send } = fakeAgentConnection()
    const service = sessionsOn(connection)
    const created = await service.newSession('a', '/w')
    if (!created.ok) throw new Error(created.error.message)
    send({ sessionUpdate: 'notice', severity: 'warning', title: 'Bosun: auto-approve is on' })
    expect(service.state(created.value.sessionId)!.notices).toEqual([expect.not.objectContaining({ fromBosun: true })])
    service.dispose()
  })
})
