/**
 * A canary secret given to agent A appears in A's environment and nowhere else: not in agent B's env,
 * not in a terminal started for B, not in the log files, not in the inspector export, not in anything
 * sent to the renderer.
 */
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { REDACTED } from '../../../main/agents-tools/redaction'
import { once } from '../../../main/base/event'
import { must, startHarness, type Harness } from './harness'

let harness: Harness | undefined
afterEach(async () => {
  await harness?.dispose()
  harness = undefined
})

const CANARY = 'canary-7f3a9c1e-secret'
const MCP_CANARY = 'mcp-header-canary-4d2b'

it('stays in agent A', async () => {
  harness = await startHarness(
    [
      { id: 'A', secretEnv: ['API_KEY'], protocolVersion: 1 },
      { id: 'B', protocolVersion: 1 },
    ],
    { 'A:API_KEY': CANARY },
  )
  const h = harness
  must(await h.tools.handlers.watchInspector({ agentId: 'A', watching: true }))
  must(await h.tools.handlers.watchInspector({ agentId: 'B', watching: true }))
  const dump = (id: string) => join(h.home, `dump-${id}.json`)
  for (const id of ['A', 'B']) {
    const def = h.config.definitions.get(id)!
    must(await h.config.definitions.save({ ...def, args: [...def.args, '--dump-env', dump(id)] }))
  }

  // Everything the tools do, for both agents.
  must(await h.tools.handlers.checkAgentConnection({ agentId: 'A' }))
  must(await h.tools.handlers.checkAgentConnection({ agentId: 'B' }))
  const a = must(await h.connect('A'))
  await a.connection.newSession({
    cwd: h.workspace,
    mcpServers: [{ type: 'http', name: 'web', url: 'https://example.test/mcp', headers: [{ name: 'Authorization', value: `Bearer ${MCP_CANARY}` }] }],
  })
  must(await h.connect('B'))
  expect(await h.newSession('B')).toMatchObject({ ok: false, error: { kind: 'auth-required' } })
  const restartedB = once(h.supervisor.onDidConnect, (e) => e.agentId === 'B')
  const { terminalId } = must(await h.tools.handlers.startAuthTerminal({ agentId: 'B', methodId: 'term' }))
  must(await h.tools.handlers.authTerminalInput({ terminalId, data: 'ok\n' }))
  await h.sink.next('authTerminalOutput', (p) => p.terminalId === terminalId && p.exit !== undefined)
  await restartedB
  const logs = [must(await h.tools.handlers.getAgentLog({ agentId: 'A' })), must(await h.tools.handlers.getAgentLog({ agentId: 'B' }))]
  const exports = [must(await h.tools.handlers.exportInspector({ agentId: 'A' })), must(await h.tools.handlers.exportInspector({ agentId: 'B' }))]
  const lists = [must(await h.tools.handlers.listInspectorMessages({ agentId: 'A' })), must(await h.tools.handlers.listInspectorMessages({ agentId: 'B' }))]
  h.tools.flush()
  await h.supervisor.stopAll({ deadlineMs: 2_000 })
  for (const id of ['A', 'B']) await h.supervisor.get(id)?.flushLog()

  // In A's environment (the check and the session's process both had it).
  expect(JSON.parse(readFileSync(dump('A'), 'utf8')).env.API_KEY).toBe(CANARY)
  // Nowhere else.
  expect(readFileSync(dump('B'), 'utf8')).not.toContain(CANARY)
  expect(readFileSync(`${dump('B')}.login`, 'utf8')).not.toContain(CANARY)
  const logDir = join(h.home, 'logs', 'agents')
  const logFiles = readdirSync(logDir)
  expect(logFiles).toEqual(expect.arrayContaining(['A.log', 'B.log']))
  for (const file of logFiles) expect(readFileSync(join(logDir, file), 'utf8')).not.toContain(CANARY)
  const everything = JSON.stringify({ events: h.sink.events, logs, exports, lists })
  expect(everything).not.toContain(CANARY)
  expect(everything).not.toContain(MCP_CANARY)
  // …while the inspector really did record the session/new with the MCP server (names kept, values hidden).
  const sessionNew = lists[0]!.messages.find((m) => m.method === 'session/new' && m.kind === 'request')!
  expect(sessionNew.message).toMatchObject({ params: { mcpServers: [{ name: 'web', headers: [{ name: 'Authorization', value: REDACTED }] }] } })
  expect(h.sink.of('inspectorMessages').length).toBeGreaterThan(0)
  expect(h.sink.of('agentLog').length).toBeGreaterThan(0)
})
