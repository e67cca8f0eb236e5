/**
 * MCP servers through the composition root: saved settings, passed on session/new in the transports the
 * agent takes (the others named in the session), and "Check" listing a stdio server's tools through the
 * official SDK's client against a tiny SDK server fixture.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { McpServerConfig } from '../../../common/contract/mcp'
import { scriptedAgentCommand } from '../../agents/command'
import { tinyMcpServer, webMcpServer } from '../../support/mcp-servers'
import { must, servicesPerTest } from '../../support/services'

const startServices = servicesPerTest()
const tiny = tinyMcpServer
const web = webMcpServer
const otherAgentOnly: McpServerConfig = { ...web, id: 'other', name: 'other agent only', agents: ['someone-else'] }

describe('MCP servers', () => {
  it('passes the stdio server on session/new to a v1 agent without http, and names the http one it cannot take', async () => {
    const t = await startServices([{ id: 'scripted', name: 'Scripted', scenario: 'basic' }], (home) =>
      writeFileSync(join(home.home, 'mcp-servers.json'), JSON.stringify({ version: 1, servers: [tiny, web, otherAgentOnly] })),
    )
    const { sessionId } = must(await t.handlers.newSession({ agentId: 'scripted', cwd: t.workspace }))
    const { messages } = must(await t.handlers.listInspectorMessages({ agentId: 'scripted', method: 'session/new' }))
    const sent = messages.filter((m) => m.direction === 'out' && m.kind === 'request').map((m) => (m.message as { params: { mcpServers: { name: string }[] } }).params)
    expect(sent.at(-1)!.mcpServers.map((s) => s.name)).toEqual(['tiny'])
    expect(sent.at(-1)!.mcpServers[0]).toMatchObject({ command: process.execPath, env: [{ name: 'TINY_TOKEN' }] })
    const state = must(await t.handlers.getSnapshot(undefined)).sessions.find((s) => s.sessionId === sessionId)!
    expect(state.notices).toEqual([expect.objectContaining({ severity: 'warning', title: 'Not passed to scripted: web search', description: expect.stringContaining('does not take http') })])
  })

  it('passes a server listed for one agent to that agent only, and one for every agent to both', async () => {
    let home = ''
    const t = await startServices([], (h) => {
      home = h.home
      // Each agent appends the session/new params it receives to <home>/<id>.jsonl.
      const defs = ['alpha', 'beta'].map((id) => {
        const { command, args } = scriptedAgentCommand('basic', { extraArgs: ['--dump-session-new', join(h.home, `${id}.jsonl`)] })
        return { id, name: id, protocolVersion: 1, command, args, env: {}, secretEnv: [], defaultCwd: h.workspace }
      })
      writeFileSync(join(h.home, 'agents.json'), JSON.stringify({ version: 1, agents: defs }))
    })
    must(await t.handlers.saveMcpServer({ server: { ...tiny, id: 'alpha-only', name: 'alpha only', agents: ['alpha'] } }))
    must(await t.handlers.saveMcpServer({ server: { ...tiny, id: 'everyone', name: 'everyone', agents: null } }))
    expect(await t.handlers.saveMcpServer({ server: { ...tiny, id: 'ghost', name: 'ghost', agents: ['ghost'] } })).toMatchObject({ ok: false, error: { kind: 'invalid-argument' } })
    must(await t.handlers.newSession({ agentId: 'alpha', cwd: t.workspace }))
    must(await t.handlers.newSession({ agentId: 'beta', cwd: t.workspace }))
    const received = (id: string) => (JSON.parse(readFileSync(join(home, `${id}.jsonl`), 'utf8').trim().split('\n').at(-1)!) as { mcpServers: { name: string }[] }).mcpServers.map((s) => s.name)
    expect(received('alpha')).toEqual(['alpha only', 'everyone'])
    expect(received('beta')).toEqual(['everyone'])
    // The agents' overviews say the same.
    expect(must(await t.handlers.listAgentMcpServers({ agentId: 'alpha' })).servers).toEqual([
      { id: 'alpha-only', name: 'alpha only', transport: 'stdio', passed: true },
      { id: 'everyone', name: 'everyone', transport: 'stdio', passed: true },
    ])
    expect(must(await t.handlers.listAgentMcpServers({ agentId: 'beta' })).servers.map((s) => s.name)).toEqual(['everyone'])
    // Removing alpha takes it off the lists: an agent added later with its id gets none of its servers.
    must(await t.handlers.removeAgentDefinition({ agentId: 'alpha' }))
    const lists = must(await t.handlers.listMcpServers(undefined)).servers.map((s) => [s.id, s.agents])
    expect(Object.fromEntries(lists)).toEqual({ 'alpha-only': [], everyone: null })
  })

  it('saves, lists and removes servers; Check lists a stdio server’s tools', async () => {
    const t = await startServices([{ id: 'scripted', name: 'Scripted', scenario: 'basic' }])
    expect(must(await t.handlers.listMcpServers(undefined)).servers).toEqual([])
    must(await t.handlers.saveMcpServer({ server: tiny }))
    expect(await t.handlers.saveMcpServer({ server: { ...web, url: 'ftp://x' } })).toMatchObject({ ok: false, error: { kind: 'invalid-argument' } })
    expect(must(await t.handlers.listMcpServers(undefined)).servers.map((s) => s.id)).toEqual(['tiny'])
    const checked = must(await t.handlers.checkMcpServer({ id: 'tiny' }))
    expect(checked.serverName).toBe('tiny-fixture')
    expect(checked.tools).toEqual([
      { name: 'add', description: 'Adds two numbers' },
      { name: 'echo_env', description: 'Says whether TINY_TOKEN is set (set)' },
    ])
    must(await t.handlers.removeMcpServer({ id: 'tiny' }))
    expect(must(await t.handlers.listMcpServers(undefined)).servers).toEqual([])
  })

  it('Check reports a server that does not speak MCP as a failure with its stderr', async () => {
    const t = await startServices([{ id: 'scripted', name: 'Scripted', scenario: 'basic' }])
    must(await t.handlers.saveMcpServer({ server: { ...tiny, id: 'broken', name: 'broken', command: process.execPath, args: ['-e', 'console.error("no mcp here"); process.exit(2)'] } }))
    const result = await t.handlers.checkMcpServer({ id: 'broken' })
    expect(result).toMatchObject({ ok: false, error: { kind: 'rpc-error', stderrTail: expect.stringContaining('no mcp here') } })
  })
})
