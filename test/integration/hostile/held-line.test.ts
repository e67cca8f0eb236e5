/**
 * A hostile agent that writes half a message and holds it (no newline, for as long as it likes), ignoring SIGTERM: the
 * person stops it, or removes it, while the turn waits. Bosun ends it within its stop deadline, the turn ends saying
 * so, and the half line never becomes a message.
 */
import { expect, it, vi } from 'vitest'
import { alive, brokenSessions, hostilePerTest, must, nextUpdate, tallyPerFile, untilDead, type HostileSetup } from './harness'

vi.setConfig({ testTimeout: 60_000 })

const tally = tallyPerFile('held-line')
const start = hostilePerTest()

/** The hostile agent's session with a turn waiting on the half line it wrote; its pid. */
async function heldTurn(setup: HostileSetup): Promise<{ sessionId: string; turn: Promise<unknown>; pid: number }> {
  const sessionId = must(await setup.handlers.newSession({ agentId: 'hostile', cwd: setup.workspace })).sessionId
  const turn = setup.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'go' }] })
  await nextUpdate(setup, sessionId, (u) => JSON.stringify(u).includes('before the half line'))
  // The report is written once the half line is in the pipe.
  while (!setup.reports().some((r) => r.partial)) await new Promise((resolve) => setTimeout(resolve, 20))
  return { sessionId, turn, pid: setup.reports().find((r) => r.pid)!.pid as number }
}

for (const how of ['stopped', 'removed'] as const) {
  it.skipIf(process.platform !== 'linux')(`holds half a line and ignores SIGTERM, and the person ${how === 'stopped' ? 'stops' : 'removes'} it: it ends, the turn says so`, async () => {
    const setup = await start('partial-line')
    const { sessionId, turn, pid } = await heldTurn(setup)
    tally.inputs++
    if (how === 'stopped') must(await setup.handlers.stopAgent({ agentId: 'hostile' }))
    else must(await setup.handlers.removeAgentDefinition({ agentId: 'hostile' }))
    // Stopped: gone when Stop answers. Removed: the removal does not wait for it, the stop's deadline ends it.
    if (how === 'stopped') expect(alive(pid)).toBe(false)
    expect(await turn).toMatchObject({ ok: false, error: { kind: 'agent-exited', message: 'Hostile was stopped.' } })
    await untilDead([pid])
    const state = must(await setup.handlers.getSnapshot(undefined)).sessions.find((s) => s.sessionId === sessionId)!
    expect(state.turn).toMatchObject({ state: 'idle', error: { message: 'Hostile was stopped.' } })
    expect(JSON.stringify(state)).not.toContain('HALF-LINE')
    tally.sessionsBroken += await brokenSessions(setup)
  })
}
