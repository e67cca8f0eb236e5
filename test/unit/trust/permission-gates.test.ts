/**
 * The permission gates of the permissions service: an "always" answer (which the broker keeps as a rule)
 * and turning auto-approve on happen only after main's own confirmation. Refused, nothing is remembered,
 * the request keeps waiting, and auto-approve stays off.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createPermissionsService, type PermissionsService } from '../../../main/permissions/service'
import { FakeConnection, recordingSink, standardOptions } from '../permissions/fakes'
import { RecordingConfirmation } from '../../support/confirmations'

let home: string
let service: PermissionsService | undefined
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'bosun-perm-gates-'))
})
afterEach(async () => {
  service?.dispose()
  await service?.flush()
  service = undefined
  await rm(home, { recursive: true, force: true })
})

async function start(confirmation: RecordingConfirmation) {
  const { sink, actions } = recordingSink()
  service = await createPermissionsService({
    home,
    sink,
    sessions: { getSession: () => ({ cwd: '/proj' }) },
    focusRequest: () => {},
    confirmation,
    describeSession: (sessionId) =>
      sessionId === 's' ? { agentName: 'Agent A', cwd: '/proj', title: 'Fix the build' } : sessionId === 'new' ? { agentName: 'Agent A', cwd: '/src/app', title: null } : undefined,
  })
  const connection = new FakeConnection(1)
  service.broker.attach(connection, { agentId: 'a', agentName: 'Agent A', protocolVersion: 1 })
  const ask = (id: number, command: string) =>
    connection.request(id, { sessionId: 's', toolCall: { toolCallId: `c${id}`, title: `Run ${command}`, kind: 'execute', rawInput: { command } }, options: standardOptions })
  const pendingId = async () => {
    const pending = await service!.handlers.listPendingPermissions(undefined)
    return pending.ok ? pending.value.at(-1)!.requestId : ''
  }
  return { service, actions, ask, pendingId }
}

describe('an "always" answer', () => {
  it('refused in main: no rule, the request keeps waiting; "once" answers never ask', async () => {
    const confirmation = new RecordingConfirmation(false)
    const { service, ask, pendingId } = await start(confirmation)
    const answer = ask(1, 'npm test')
    const requestId = await pendingId()
    for (const optionId of ['always', 'never']) {
      expect(await service.handlers.respondPermission({ requestId, optionId })).toMatchObject({ ok: false, error: { kind: 'not-confirmed' } })
    }
    expect(service.rules.list()).toEqual([])
    expect(service.broker.pending().map((p) => p.requestId)).toEqual([requestId])
    expect(confirmation.asked.map((r) => [r.kind, r.confirmLabel])).toEqual([
      ['remember-decision', 'Always allow'],
      ['remember-decision', 'Always reject'],
    ])
    expect(confirmation.asked[0]!.message).toContain('Remember "Always allow" for "Agent A"?')
    expect(confirmation.asked[0]!.detail).toContain('Request: "Run npm test"')
    expect(confirmation.asked[0]!.detail).toContain('Session folder: "/proj"')

    expect(await service.handlers.respondPermission({ requestId, optionId: 'allow' })).toEqual({ ok: true, value: undefined })
    expect(await answer).toEqual({ result: { outcome: { outcome: 'selected', optionId: 'allow' } } })
    expect(confirmation.asked).toHaveLength(2)
    expect(service.rules.list()).toEqual([])
  })

  it('confirmed in main: answered and remembered', async () => {
    const confirmation = new RecordingConfirmation(true)
    const { service, ask, pendingId } = await start(confirmation)
    const answer = ask(1, 'npm test')
    expect(await service.handlers.respondPermission({ requestId: await pendingId(), optionId: 'always' })).toEqual({ ok: true, value: undefined })
    expect(await answer).toEqual({ result: { outcome: { outcome: 'selected', optionId: 'always' } } })
    await service.rules.flush()
    expect(service.rules.list()).toHaveLength(1)
    expect(confirmation.asked).toHaveLength(1)
  })
})

describe('auto-approve', () => {
  it('turning it on asks; refused it stays off and requests still wait; turning it off never asks', async () => {
    const confirmation = new RecordingConfirmation(false)
    const { service, ask, actions } = await start(confirmation)
    expect(await service.handlers.setAutoApprove({ sessionId: 's', value: true })).toMatchObject({ ok: false, error: { kind: 'not-confirmed' } })
    expect(service.broker.isAutoApprove('s')).toBe(false)
    expect(actions.some((a) => a.action.type === 'set_auto_approve')).toBe(false)
    expect(confirmation.asked).toEqual([
      expect.objectContaining({ kind: 'auto-approve', confirmLabel: 'Turn on', message: expect.stringContaining('Let "Agent A" act without asking'), detail: 'Session: "Fix the build"\nFolder: "/proj"' }),
    ])
    void ask(1, 'rm -rf build')
    await Promise.resolve()
    expect(service.broker.pending()).toHaveLength(1)

    expect(await service.handlers.setAutoApprove({ sessionId: 'nope', value: true })).toMatchObject({ ok: false, error: { kind: 'not-found' } })
    // A session nobody has written in yet is named as everywhere else: after its folder, not by its id.
    await service.handlers.setAutoApprove({ sessionId: 'new', value: true })
    expect(confirmation.asked[1]).toMatchObject({ kind: 'auto-approve', detail: 'Session: "Session in app"\nFolder: "/src/app"' })
    confirmation.asked.pop()
    expect(await service.handlers.setAutoApprove({ sessionId: 's', value: false })).toEqual({ ok: true, value: undefined })
    expect(confirmation.asked).toHaveLength(1)

    confirmation.answer = true
    expect(await service.handlers.setAutoApprove({ sessionId: 's', value: true })).toEqual({ ok: true, value: undefined })
    expect(service.broker.isAutoApprove('s')).toBe(true)
    // Already on: no second question.
    expect(await service.handlers.setAutoApprove({ sessionId: 's', value: true })).toEqual({ ok: true, value: undefined })
    expect(confirmation.asked).toHaveLength(2)
  })

  it('without a confirmation surface, it never turns on and nothing is remembered (fail closed)', async () => {
    const { sink } = recordingSink()
    service = await createPermissionsService({ home, sink, sessions: { getSession: () => ({ cwd: '/proj' }) }, focusRequest: () => {} })
    expect(await service.handlers.setAutoApprove({ sessionId: 's', value: true })).toMatchObject({ ok: false, error: { kind: 'not-confirmed' } })
    expect(service.broker.isAutoApprove('s')).toBe(false)
  })
})
