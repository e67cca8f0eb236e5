/**
 * MCP secret env and headers through the composition root with the real keychain
 * (`scripts/with-keyring.sh npx vitest run --project integration test/integration/mcp`): the values reach
 * the agent the server is for, in its session/new, and nothing else — not `mcp-servers.json`, not any
 * event or call result, not the inspector (list or export), not the agent's log — even when the agent
 * prints them into its stderr and into a message of the session.
 *
 * The composition root uses the keychain service "Bosun", so this only runs inside the private keyring of
 * with-keyring.sh (never against a person's own keychain).
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REDACTED } from '../../../main/agents-tools/redaction'
import { createKeytarSecretStore } from '../../../main/secrets/secret-store'
import type { McpServerConfig } from '../../../common/contract/mcp'
import { scriptedAgentCommand } from '../../agents/command'
import { must, servicesPerTest } from '../../support/services'
import { requirePrivateKeychain } from '../../support/private-keychain'

const hasKeychain = await requirePrivateKeychain()

const startServices = servicesPerTest()

describe.skipIf(!hasKeychain)('MCP secrets (real keychain)', () => {
  const HEADER_SECRET = `mcp-header-${process.pid}-${Date.now()}-canary`
  const ENV_SECRET = `mcp-env-${process.pid}-${Date.now()}-canary`

  it('reach the agent the server is for and nothing else', async () => {
    let home = ''
    const t = await startServices([], (h) => {
      home = h.home
      // alpha takes http MCP servers and, careless, repeats its session/new params (secrets included) in a message.
      const scenario = join(h.home, 'mcp-echo.json')
      writeFileSync(
        scenario,
        JSON.stringify({
          initialize: { capabilities: { loadSession: true, mcpCapabilities: { http: true } } },
          prompts: { default: [{ type: 'text', text: `my MCP key is Bearer ${HEADER_SECRET} and ${ENV_SECRET}` }] },
        }),
      )
      const defs = ['alpha', 'beta'].map((id) => {
        const { command, args } = scriptedAgentCommand(scenario, { extraArgs: ['--dump-session-new', join(h.home, `${id}.jsonl`)] })
        return { id, name: id, protocolVersion: 1, command, args, env: {}, secretEnv: [], defaultCwd: h.workspace }
      })
      writeFileSync(join(h.home, 'agents.json'), JSON.stringify({ version: 1, agents: defs }))
    })
    const web: McpServerConfig = {
      id: 'web',
      name: 'web',
      transport: 'http',
      enabled: true,
      agents: ['alpha'],
      url: 'https://mcp.example/api',
      headers: { 'X-Team': 'blue' },
      secretHeaders: ['Authorization'],
    }
    const tool: McpServerConfig = { id: 'tool', name: 'tool', transport: 'stdio', enabled: true, agents: null, command: process.execPath, args: [], env: {}, secretEnv: ['TOOL_TOKEN'] }
    const results: unknown[] = []
    const keep = <T>(result: T): T => (results.push(result), result)
    try {
      must(keep(await t.handlers.watchInspector({ agentId: 'alpha', watching: true })))
      must(keep(await t.handlers.saveMcpServer({ server: web, secrets: { Authorization: `Bearer ${HEADER_SECRET}` } })))
      must(keep(await t.handlers.saveMcpServer({ server: tool, secrets: { TOOL_TOKEN: ENV_SECRET } })))
      expect(must(keep(await t.handlers.listMcpServers(undefined))).servers.map((s) => s.secretsSet)).toEqual([{ Authorization: true }, { TOOL_TOKEN: true }])

      const { sessionId } = must(keep(await t.handlers.newSession({ agentId: 'alpha', cwd: t.workspace })))
      keep(await t.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'hello' }] }))
      must(keep(await t.handlers.newSession({ agentId: 'beta', cwd: t.workspace })))

      // What each agent received.
      const received = (id: string) => JSON.parse(readFileSync(join(home, `${id}.jsonl`), 'utf8').trim().split('\n').at(-1)!) as { mcpServers: unknown[] }
      expect(received('alpha').mcpServers).toEqual([
        { type: 'http', name: 'web', url: web.url, headers: [{ name: 'X-Team', value: 'blue' }, { name: 'Authorization', value: `Bearer ${HEADER_SECRET}` }] },
        { name: 'tool', command: process.execPath, args: [], env: [{ name: 'TOOL_TOKEN', value: ENV_SECRET }] },
      ])
      expect(received('beta').mcpServers).toEqual([{ name: 'tool', command: process.execPath, args: [], env: [{ name: 'TOOL_TOKEN', value: ENV_SECRET }] }])

      // Nowhere else.
      const lists = [must(keep(await t.handlers.listInspectorMessages({ agentId: 'alpha' }))), must(keep(await t.handlers.listInspectorMessages({ agentId: 'beta' })))]
      keep(await t.handlers.exportInspector({ agentId: 'alpha' }))
      const logs = [must(keep(await t.handlers.getAgentLog({ agentId: 'alpha' }))), must(keep(await t.handlers.getAgentLog({ agentId: 'beta' })))]
      const snapshot = must(keep(await t.handlers.getSnapshot(undefined)))
      keep(await t.handlers.listAgentMcpServers({ agentId: 'alpha' }))
      const everything = JSON.stringify({ events: t.sink.events, results })
      for (const secret of [HEADER_SECRET, ENV_SECRET]) {
        expect(readFileSync(join(home, 'mcp-servers.json'), 'utf8')).not.toContain(secret)
        expect(everything).not.toContain(secret)
      }
      // …while those places really did carry what the agent printed and what was sent (so the checks above mean something).
      expect(JSON.stringify(logs)).toContain('SESSION-NEW')
      expect(JSON.stringify(snapshot)).toContain(`my MCP key is ${REDACTED} and ${REDACTED}`)
      const sessionNew = lists[0]!.messages.find((m) => m.method === 'session/new' && m.kind === 'request')!
      expect(sessionNew.message).toMatchObject({ params: { mcpServers: [{ name: 'web', headers: [{ name: 'X-Team', value: REDACTED }, { name: 'Authorization', value: REDACTED }] }, { name: 'tool' }] } })
    } finally {
      // The keychain entries go with the servers.
      must(await t.handlers.removeMcpServer({ id: 'web' }))
      must(await t.handlers.removeMcpServer({ id: 'tool' }))
    }
    const keychain = createKeytarSecretStore()
    expect(must(await keychain.has('mcp/web', 'HEADER_Authorization'))).toBe(false)
    expect(must(await keychain.has('mcp/tool', 'TOOL_TOKEN'))).toBe(false)
  })
})
