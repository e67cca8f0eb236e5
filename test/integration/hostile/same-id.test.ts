/**
 * Identity confusion (class 1): a hostile agent answers session/new with the id another agent gave its own session,
 * then acts in it: a message, a tool call, a read of a file in the other session's folder and a permission. Everything
 * lands in its own session: the other's transcript is untouched, its folder is not read, and its auto-approve does not
 * answer the hostile agent's question.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { brokenSessions, hostilePerTest, must, repeatUntil, tallyPerFile } from './harness'

const tally = tallyPerFile('same-id')
const start = hostilePerTest()

it('an agent naming its session with another agent’s session id acts in its own session only', async () => {
  // The control (scripted) agent numbers its sessions sess-1, sess-2…
  const setup = await start('same-id', { extraArgs: ['--variant', 'sess-1'] })
  writeFileSync(join(setup.workspace, 'secret.txt'), 'the control session’s file')
  writeFileSync(join(setup.testHome.home, 'same-id-target'), join(setup.workspace, 'secret.txt'))
  const control = must(await setup.handlers.newSession({ agentId: 'control', cwd: setup.workspace })).sessionId
  must(await setup.handlers.setAutoApprove({ sessionId: control, value: true }))
  const elsewhere = join(setup.testHome.home, 'elsewhere')
  mkdirSync(elsewhere)
  const hostile = must(await setup.handlers.newSession({ agentId: 'hostile', cwd: elsewhere })).sessionId
  expect(hostile).not.toBe(control)
  const before = JSON.stringify(must(await setup.handlers.getSnapshot(undefined)).sessions.find((s) => s.sessionId === control)!.entries)

  const turn = setup.handlers.prompt({ sessionId: hostile, prompt: [{ type: 'text', text: 'go' }] })
  // Its question waits in its own session, for the person (the control session's auto-approve does not answer it).
  const [pending] = await repeatUntil(setup, waitForPending(setup), async () => undefined)
  expect(pending).toMatchObject({ sessionId: hostile, title: 'SAME-ID question' })
  must(await setup.handlers.respondPermission({ requestId: pending!.requestId, optionId: 'reject' }))
  must(await turn)
  tally.inputs += 4

  const report = setup.reports().find((r) => r.answers)
  expect(report?.answers).toMatchObject({ 'fs/read_text_file': -32602, 'session/request_permission': { outcome: { outcome: 'selected', optionId: 'reject' } } })
  const sessions = must(await setup.handlers.getSnapshot(undefined)).sessions
  const own = JSON.stringify(sessions.find((s) => s.sessionId === hostile)!.entries)
  for (const said of ['SAME-ID message', 'same-id-call', 'SAME-ID question', 'after same id']) expect(own).toContain(said)
  expect(JSON.stringify(sessions.find((s) => s.sessionId === control)!.entries)).toBe(before)
  tally.sessionsBroken += await brokenSessions(setup)
})

/** The pending permissions once there is one. */
async function waitForPending(setup: Awaited<ReturnType<typeof start>>) {
  for (;;) {
    const pending = must(await setup.handlers.listPendingPermissions(undefined))
    if (pending.length > 0) return pending
    await setup.sink.next('sessionActions', (batch) => batch.actions.some((a) => a.type === 'permission_requested'))
  }
}
