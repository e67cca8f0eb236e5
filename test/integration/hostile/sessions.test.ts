/**
 * A hostile agent names sessions that are not its process's to act in, or not known yet (checklist G7): a session an
 * earlier process of the agent was given (left detached when it restarted) is not served, whatever it asks there;
 * a permission it asks in the session it is making, before it answers `session/new`, is shown there once it has.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { RESOURCE_NOT_FOUND } from '../../../main/acp/types'
import { brokenSessions, hostilePerTest, must, nextUpdate, repeatUntil, tallyPerFile } from './harness'

const tally = tallyPerFile('sessions')
const start = hostilePerTest()

describe('a hostile agent names a session', () => {
  it('an earlier process of it was given: its folder is not read, no command runs, nothing is asked there; -32002 for each', async () => {
    const setup = await start('other-session')
    const privateFolder = join(setup.testHome.home, 'private')
    mkdirSync(privateFolder)
    writeFileSync(join(privateFolder, 'secret.txt'), 'the earlier session’s file')
    const earlier = must(await setup.handlers.newSession({ agentId: 'hostile', cwd: privateFolder })).sessionId
    must(await setup.handlers.restartAgent({ agentId: 'hostile' }))
    const sessionId = must(await setup.handlers.newSession({ agentId: 'hostile', cwd: setup.workspace })).sessionId
    const turn = setup.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'go' }] })
    // Were a question asked in the earlier session, it would wait there: the person dismisses it.
    must(await repeatUntil(setup, turn, () => dismissAll(setup)))
    tally.inputs += 4
    const report = setup.reports().find((r) => r.answers)
    expect(report).toMatchObject({
      answers: { 'fs/read_text_file': RESOURCE_NOT_FOUND, 'terminal/create': RESOURCE_NOT_FOUND, 'session/request_permission': RESOURCE_NOT_FOUND, 'elicitation/create': RESOURCE_NOT_FOUND },
    })
    // Nothing of it reached the earlier session (a read's card, a terminal, a question).
    const toEarlier = setup.sink.events.filter((e) => e.name === 'sessionActions' && (e.payload as { sessionId: string }).sessionId === earlier)
    expect(JSON.stringify(toEarlier)).not.toMatch(/secret\.txt|client_terminal|permission_requested|elicitation_requested/)
    tally.sessionsBroken += await brokenSessions(setup)
  })

  it('it is making, before it answers session/new: the question waits for the session and is asked there', async () => {
    const setup = await start('early-requests')
    const sessionId = must(await setup.handlers.newSession({ agentId: 'hostile', cwd: setup.workspace })).sessionId
    await setup.sink.next('sessionActions', (batch) => batch.sessionId === sessionId && batch.actions.some((a) => a.type === 'permission_requested'))
    const [pending] = must(await setup.handlers.listPendingPermissions(undefined))
    expect(pending).toMatchObject({ sessionId, title: 'Early question' })
    must(await setup.handlers.respondPermission({ requestId: pending!.requestId, optionId: 'reject' }))
    await nextUpdate(setup, sessionId, (u) => JSON.stringify(u).includes('early answer'))
    const report = setup.reports().find((r) => r.early)
    tally.inputs++
    expect(report?.early).toEqual({ outcome: { outcome: 'selected', optionId: 'reject' } })
    tally.sessionsBroken += await brokenSessions(setup)
  })
})


/** Dismisses every question waiting for the person: permissions and forms. */
async function dismissAll(setup: Awaited<ReturnType<typeof start>>): Promise<void> {
  for (const request of must(await setup.handlers.listPendingPermissions(undefined))) await setup.handlers.respondPermission({ requestId: request.requestId, optionId: null })
  for (const session of must(await setup.handlers.getSnapshot(undefined)).sessions) {
    for (const e of Object.values(session.elicitations)) if (e.status === 'pending') await setup.handlers.respondElicitation({ elicitationRequestId: e.elicitationRequestId, action: 'cancel' })
  }
}
