/**
 * A command the agent runs on after Stop, as codex-acp 2.6 does (captured against the real agent): it answers
 * `session/cancel` at once with an idle `cancelled` state_update, keeps sending the command's output, and later
 * reports it completed, with its exit status, or (when another turn started meanwhile) with the output as text in
 * place of the terminal and no exit status at all. Bosun marks the card cancelled on Stop: the session then says the
 * command runs on (card and background strip), offers no Kill for a terminal it does not run, and lists it no more
 * once the agent says it is done.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runningBackgroundWork, toolCallOf } from '../../../common/session/background'
import { must, servicesPerTest, watchSession } from '../../support/services'

const startServices = servicesPerTest()

async function stoppedMidCommand(text: string, callId: string) {
  const t = await startServices([{ id: 'cx', name: 'Codex-like', scenario: 'v2-ran-on-after-stop', v2: true }])
  const { sessionId } = must(await t.handlers.newSession({ agentId: 'cx', cwd: t.workspace }))
  const s = watchSession(t, sessionId)
  // The prompt resolves when the turn ends: here, by the Stop.
  const turn = t.handlers.prompt({ sessionId, prompt: [{ type: 'text', text }] })
  await s.until((st) => st.terminals[callId]?.output === 'tick 1\n')
  must(await t.handlers.cancel({ sessionId }))
  expect(must(await turn).stopReason).toBe('cancelled')
  return { t, sessionId, ...s }
}

describe('a command the agent runs on after Stop (codex-acp)', () => {
  it('is told as running after Stop while its output comes, listed without Kill, and no more once it exits', async () => {
    const s = await stoppedMidCommand('sleep', 'call_sleep')
    const ranOn = await s.until((st) => st.turn.state === 'idle' && st.terminals.call_sleep?.output === 'tick 1\ntick 2\n')
    expect(ranOn.turn.stopReason).toBe('cancelled')
    expect(ranOn.terminals.call_sleep).toMatchObject({ ranOnAfterStop: true })
    expect(toolCallOf(ranOn, 'call_sleep')).toMatchObject({ status: 'cancelled', ranOnAfterStop: true })
    const items = runningBackgroundWork(ranOn)
    expect(items).toEqual([expect.objectContaining({ type: 'terminal', terminalId: 'call_sleep', running: true })])
    // Not one Bosun runs: main has no process to kill for it.
    expect(items[0]).not.toHaveProperty('bosunRuns')
    expect(await s.t.handlers.killTerminal({ sessionId: s.sessionId, terminalId: 'call_sleep' })).toMatchObject({ ok: false, error: { kind: 'not-found' } })

    writeFileSync(join(s.t.workspace, 'finish-sleep'), '')
    const done = await s.until((st) => toolCallOf(st, 'call_sleep')?.status === 'completed')
    expect(done.terminals.call_sleep).toMatchObject({ exitStatus: { exitCode: 0 }, output: 'tick 1\ntick 2\ntick 3\n', ranOnAfterStop: true })
    expect(toolCallOf(done, 'call_sleep')).toMatchObject({ ranOnAfterStop: true })
    expect(runningBackgroundWork(done)).toEqual([])
  })

  it('completed with its output as text and no exit status: listed no more', async () => {
    const s = await stoppedMidCommand('sleep late', 'call_late')
    const ranOn = await s.until((st) => st.terminals.call_late?.output === 'tick 1\ntick 2\n')
    expect(runningBackgroundWork(ranOn).map((i) => i.type === 'terminal' && i.terminalId)).toEqual(['call_late'])
    writeFileSync(join(s.t.workspace, 'finish-late'), '')
    const done = await s.until((st) => toolCallOf(st, 'call_late')?.status === 'completed')
    expect(done.terminals.call_late!.exitStatus ?? null).toBeNull()
    expect(toolCallOf(done, 'call_late')).toMatchObject({ ranOnAfterStop: true })
    expect(runningBackgroundWork(done)).toEqual([])
  })

  it('a command the agent did stop is not said to run on', async () => {
    const s = await stoppedMidCommand('sleep stopped', 'call_stopped')
    const stopped = await s.until((st) => st.terminals.call_stopped?.exitStatus != null)
    expect(stopped.terminals.call_stopped!.ranOnAfterStop).toBeUndefined()
    expect(toolCallOf(stopped, 'call_stopped')!.ranOnAfterStop).toBeUndefined()
    expect(runningBackgroundWork(stopped)).toEqual([])
  })
})
