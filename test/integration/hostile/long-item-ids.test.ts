/**
 * A v2 agent may name its tool calls and terminals with ids of any length. The window named them by the agent's id,
 * which the contract bounds (2,048 characters): a Cancel of a call or terminal under a 3,000-character id was refused
 * before it reached main, so it did nothing (Stop still worked). Now the window names a long id by its hash
 * (`itemHandle`), main finds the item by it and sends the agent its own id; what main keeps per cancel is bounded.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { calls } from '../../../common/contract'
import { canCancelTerminal, canCancelToolCall, itemHandle, toolCallOf } from '../../../common/session/background'
import { must, servicesPerTest, watchSession } from '../../support/services'

const startServices = servicesPerTest()
const folders: string[] = []
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true })
})

/** The scripted v2 agent on `scenario`, written to a file of this test's. */
async function startOn(scenario: unknown) {
  const folder = mkdtempSync(join(tmpdir(), 'bosun-long-item-ids-'))
  folders.push(folder)
  const path = join(folder, 'scenario.json')
  writeFileSync(path, JSON.stringify(scenario))
  return startServices([{ id: 'long', name: 'Long ids agent', scenario: path, v2: true }])
}

it("cancels a tool call and a terminal the agent named with 3,000 characters: the window's ask passes the contract and the agent gets its ids", async () => {
  const callId = `call-${'c'.repeat(3_000)}`
  const terminalId = `term-${'t'.repeat(3_000)}`
  // A twin that starts alike: the hash names the whole id, so only the one asked for is cancelled.
  const twinId = `${callId}-twin`
  const scenario = {
    cancelToolCalls: { [callId]: {} },
    cancelTerminals: { [terminalId]: {} },
    prompts: {
      go: [
        { type: 'update', update: { sessionUpdate: 'tool_call_update', toolCallId: twinId, title: 'Lint', kind: 'execute', status: 'in_progress', capabilities: { cancel: {} } } },
        { type: 'update', update: { sessionUpdate: 'tool_call_update', toolCallId: callId, title: 'Build', kind: 'execute', status: 'in_progress', content: [{ type: 'terminal', terminalId }], capabilities: { cancel: {} } } },
        { type: 'update', update: { sessionUpdate: 'terminal_update', terminalId, command: 'npm run dev', output: { data: Buffer.from('listening\n').toString('base64') }, capabilities: { cancel: {} } } },
        { type: 'text', text: 'Both run in the background.' },
      ],
    },
  }
  const t = await startOn(scenario)
  const { sessionId } = must(await t.handlers.newSession({ agentId: 'long', cwd: t.workspace }))
  const { until } = watchSession(t, sessionId)
  expect(must(await t.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'go' }] })).stopReason).toBe('end_turn')
  const running = await until((st) => canCancelToolCall(toolCallOf(st, callId)) && canCancelTerminal(st.terminals[terminalId]))

  // What the window sends, as the window sends it: parsed by the contract first.
  const askCall = { sessionId, toolCallId: itemHandle(callId) }
  const askTerminal = { sessionId, terminalId: itemHandle(terminalId) }
  expect(calls.cancelToolCall.input.safeParse(askCall).success).toBe(true)
  expect(calls.cancelTerminal.input.safeParse(askTerminal).success).toBe(true)
  expect(must(await t.handlers.cancelToolCall(askCall))).toEqual({ accepted: true })
  must(await t.handlers.cancelTerminal(askTerminal))
  // The scripted agent confirms only an id it knows in full: the final status and exit status say it got them.
  const stopped = await until((st) => toolCallOf(st, callId)?.status === 'cancelled' && st.terminals[terminalId]?.exitStatus != null)
  expect(toolCallOf(stopped, twinId)).toMatchObject({ status: 'in_progress' })
  expect(toolCallOf(stopped, twinId)!.cancel).toBeUndefined()
  expect(running.acpSessionId).toBe(stopped.acpSessionId)
  // A hash that names nothing is not found; nothing more is sent.
  expect(await t.handlers.cancelToolCall({ sessionId, toolCallId: `#${'0'.repeat(64)}` })).toMatchObject({ ok: false, error: { kind: 'not-found' } })
})
