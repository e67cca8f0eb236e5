/**
 * A hostile agent that closes its end of stdin and writes on: Bosun's next message to it cannot be delivered. The
 * person is told so at once (not a turn that waits for ever), and the agent is stopped.
 */
import { expect, it, vi } from 'vitest'
import { brokenSessions, hostilePerTest, must, nextUpdate, tallyPerFile } from './harness'

vi.setConfig({ testTimeout: 60_000 })

const tally = tallyPerFile('input-closed')
const start = hostilePerTest()

/** A session whose agent answered one prompt, then closed its stdin and writes on. */
async function withInputClosed() {
  const setup = await start('close-stdin')
  const sessionId = must(await setup.handlers.newSession({ agentId: 'hostile', cwd: setup.workspace })).sessionId
  expect(must(await setup.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'go' }] })).stopReason).toBe('end_turn')
  await nextUpdate(setup, sessionId, (u) => JSON.stringify(u).includes('still here'))
  tally.inputs++
  return { setup, sessionId }
}

it('closes its stdin and writes on: the next message fails saying so, as not sent, and the agent is stopped', async () => {
  const { setup, sessionId } = await withInputClosed()
  const down = setup.sink.next('agentStatus', (v) => v.agentId === 'hostile' && v.error != null)
  const second = await setup.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'again' }] })
  // It said 'write EPIPE', as the agent's refusal of the message.
  expect(second).toMatchObject({ ok: false, error: { message: 'The agent closed its input (stdin), so this message could not reach it (write EPIPE).' } })
  const state = must(await setup.handlers.getSnapshot(undefined)).sessions.find((s) => s.sessionId === sessionId)!
  const sent = state.entries.find((e) => e.kind === 'user_message' && JSON.stringify(e.content).includes('again'))
  expect(sent).toMatchObject({ kind: 'user_message', notSent: { message: expect.stringMatching(/^The agent closed its input \(stdin\), so this message could not reach it/), undelivered: true } })
  // And the agent is stopped, saying why.
  expect((await down).error?.message).toBe('Hostile closed its input (stdin) while still running: nothing more could reach it, so Bosun stopped it.')
  tally.sessionsBroken += await brokenSessions(setup)
})

it('closes its stdin: a new session asked of it fails saying the request could not reach it, not "write EPIPE"', async () => {
  const { setup } = await withInputClosed()
  const down = setup.sink.next('agentStatus', (v) => v.agentId === 'hostile' && v.error != null)
  const another = await setup.handlers.newSession({ agentId: 'hostile', cwd: setup.workspace })
  expect(another).toMatchObject({ ok: false, error: { message: 'The agent closed its input (stdin), so the request for a new session could not reach it (write EPIPE).' } })
  expect((await down).error?.message).toBe('Hostile closed its input (stdin) while still running: nothing more could reach it, so Bosun stopped it.')
  tally.sessionsBroken += await brokenSessions(setup)
})
