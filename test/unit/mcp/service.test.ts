/**
 * The MCP service with an in-memory keychain: per-agent lists checked against the configured agents,
 * secret env and header values kept out of `mcp-servers.json` and out of every call result (only whether
 * each one is set), dropped secrets removed from the keychain, the agent overview's list, and the values
 * an agent receives on session/new.
 */
import { execFileSync } from 'node:child_process'
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createMcpService, MAX_MCP_SERVERS, normalizeMcpServer, type AgentMcpHandshake, type McpService } from '../../../main/mcp/service'
import type { McpServerConfig } from '../../../common/contract/mcp'
import { createMemorySecretStore } from '../secrets/memory-secret-store'
import { RecordingConfirmation } from '../../support/confirmations'
import { must } from '../../support/must'

const SECRET_HEADER = 'Bearer mcp-secret-header-5c1d'
const SECRET_ENV = 'mcp-secret-env-93ab'
const web: McpServerConfig = { id: 'web', name: 'web', transport: 'http', enabled: true, agents: ['alpha'], url: 'https://mcp.example/api', headers: { 'X-Team': 'blue' }, secretHeaders: ['Authorization'] }
const tool: McpServerConfig = { id: 'tool', name: 'tool', transport: 'stdio', enabled: true, agents: null, command: process.execPath, args: ['-v'], env: { PLAIN: 'p' }, secretEnv: ['TOKEN'] }
const v1http: AgentMcpHandshake = { protocolVersion: 1, mcp: { stdio: true, http: true, sse: false } }
const v1plain: AgentMcpHandshake = { protocolVersion: 1, mcp: { stdio: true, http: false, sse: false } }

let home: string
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'bosun-mcp-'))
})
afterEach(() => rmSync(home, { recursive: true, force: true }))

async function start(handshakes: Record<string, AgentMcpHandshake> = {}) {
  const secrets = createMemorySecretStore()
  const learned: string[] = []
  const forgotten: string[] = []
  const service = await createMcpService({
    home,
    secrets,
    confirmation: new RecordingConfirmation(true),
    agentIds: () => ['alpha', 'beta'],
    handshake: (agentId) => handshakes[agentId],
    secretValues: { add: (owner, value) => learned.push(`${owner}=${value}`), forget: (owner) => forgotten.push(owner) },
  })
  return { service, secrets, learned, forgotten, h: service.handlers }
}
const file = () => readFileSync(join(home, 'mcp-servers.json'), 'utf8')
const names = async (service: McpService, agentId: string, handshake: AgentMcpHandshake) =>
  (await service.forAgent(agentId, handshake.protocolVersion, handshake.mcp)).servers.map((s) => s.name)

describe('MCP servers per agent', () => {
  it('passes a server listed for one agent to that agent only', async () => {
    const { service, h } = await start()
    must(await h.saveMcpServer({ server: web, secrets: { Authorization: SECRET_HEADER } }))
    must(await h.saveMcpServer({ server: tool, secrets: { TOKEN: SECRET_ENV } }))
    expect(await names(service, 'alpha', v1http)).toEqual(['web', 'tool'])
    expect(await names(service, 'beta', v1http)).toEqual(['tool'])
  })

  it('refuses unknown agent ids and an empty list, and keeps each id once', async () => {
    const { h } = await start()
    expect(await h.saveMcpServer({ server: { ...web, agents: ['alpha', 'ghost'] } })).toMatchObject({ ok: false, error: { kind: 'invalid-argument', message: expect.stringContaining('"ghost"') } })
    expect(await h.saveMcpServer({ server: { ...web, agents: [] } })).toMatchObject({ ok: false, error: { kind: 'invalid-argument' } })
    expect(must(await h.listMcpServers(undefined)).servers).toEqual([])
    const saved = must(await h.saveMcpServer({ server: { ...web, agents: ['beta', 'alpha', 'beta'] }, secrets: { Authorization: SECRET_HEADER } }))
    expect(saved.server.agents).toEqual(['beta', 'alpha'])
  })

  it('a removed agent leaves every list: a new agent reusing its id gets none of its servers, also after a reload', async () => {
    const { service, h } = await start()
    must(await h.saveMcpServer({ server: { ...web, agents: ['alpha', 'beta'] }, secrets: { Authorization: SECRET_HEADER } }))
    must(await h.saveMcpServer({ server: { ...tool, id: 'only-alpha', name: 'only alpha', agents: ['alpha'] }, secrets: { TOKEN: SECRET_ENV } }))
    must(await h.saveMcpServer({ server: tool, secrets: { TOKEN: SECRET_ENV } }))
    await service.agentRemoved('alpha')
    expect(await names(service, 'alpha', v1http)).toEqual(['tool'])
    expect(await names(service, 'beta', v1http)).toEqual(['web', 'tool'])
    const agentsOf = (list: { id: string; agents: string[] | null }[]) => Object.fromEntries(list.map((s) => [s.id, s.agents]))
    expect(agentsOf(must(await h.listMcpServers(undefined)).servers)).toEqual({ web: ['beta'], 'only-alpha': [], tool: null })
    const reloaded = await start()
    expect(agentsOf(must(await reloaded.h.listMcpServers(undefined)).servers)).toEqual({ web: ['beta'], 'only-alpha': [], tool: null })
  })

  it('lists the servers an agent gets, and which its transports rule out once its handshake is known', async () => {
    const { service, h } = await start({ beta: v1plain })
    must(await h.saveMcpServer({ server: { ...web, agents: null }, secrets: { Authorization: SECRET_HEADER } }))
    must(await h.saveMcpServer({ server: { ...tool, id: 'only-alpha', name: 'only alpha', agents: ['alpha'] }, secrets: { TOKEN: SECRET_ENV } }))
    // alpha has not started: its servers are listed, whether it takes them is not known yet.
    expect(must(await h.listAgentMcpServers({ agentId: 'alpha' })).servers).toEqual([
      { id: 'web', name: 'web', transport: 'http', passed: null },
      { id: 'only-alpha', name: 'only alpha', transport: 'stdio', passed: null },
    ])
    expect(must(await h.listAgentMcpServers({ agentId: 'beta' })).servers).toEqual([
      { id: 'web', name: 'web', transport: 'http', passed: false, reason: 'the agent does not take http MCP servers' },
    ])
    // A session of alpha made its transports known (and they stay known after it stops).
    await service.forAgent('alpha', 1, v1http.mcp)
    expect(must(await h.listAgentMcpServers({ agentId: 'alpha' })).servers.map((s) => s.passed)).toEqual([true, true])
    expect(await h.listAgentMcpServers({ agentId: 'ghost' })).toMatchObject({ ok: false, error: { kind: 'not-found' } })
  })
})

describe('MCP secret env and headers', () => {
  it('keeps values in the keychain only: not in the file, not in any result, in what the agent receives', async () => {
    const { service, secrets, learned, h } = await start()
    const results = [
      await h.saveMcpServer({ server: web, secrets: { Authorization: SECRET_HEADER } }),
      await h.saveMcpServer({ server: tool, secrets: { TOKEN: SECRET_ENV } }),
      await h.listMcpServers(undefined),
      await h.listAgentMcpServers({ agentId: 'alpha' }),
    ]
    for (const text of [file(), JSON.stringify(results)]) {
      expect(text).not.toContain(SECRET_HEADER)
      expect(text).not.toContain(SECRET_ENV)
    }
    expect(JSON.parse(file()).servers).toEqual([
      expect.objectContaining({ id: 'web', headers: { 'X-Team': 'blue' }, secretHeaders: ['Authorization'] }),
      expect.objectContaining({ id: 'tool', env: { PLAIN: 'p' }, secretEnv: ['TOKEN'] }),
    ])
    expect(must(await h.listMcpServers(undefined)).servers.map((s) => s.secretsSet)).toEqual([{ Authorization: true }, { TOKEN: true }])
    expect(secrets.entries.get('mcp/web:HEADER_Authorization')).toBe(SECRET_HEADER)
    // Known for redaction before anything else happened with them.
    expect(learned).toEqual([`mcp/web=${SECRET_HEADER}`, `mcp/tool=${SECRET_ENV}`])
    const { servers } = await service.forAgent('alpha', 2, { stdio: true, http: true, sse: false })
    expect(servers).toEqual([
      { type: 'http', name: 'web', url: web.url, headers: [{ name: 'X-Team', value: 'blue' }, { name: 'Authorization', value: SECRET_HEADER }] },
      { type: 'stdio', name: 'tool', command: process.execPath, args: ['-v'], env: [{ name: 'PLAIN', value: 'p' }, { name: 'TOKEN', value: SECRET_ENV }] },
    ])
  })

  it('keeps a stored value when saved without it, removes the value of a secret no longer listed, and all of them with the server', async () => {
    const { secrets, forgotten, h } = await start()
    must(await h.saveMcpServer({ server: web, secrets: { Authorization: SECRET_HEADER } }))
    must(await h.saveMcpServer({ server: { ...web, name: 'renamed' } }))
    expect(secrets.entries.get('mcp/web:HEADER_Authorization')).toBe(SECRET_HEADER)
    // Authorization becomes a plain header (no longer secret): its keychain value goes.
    const saved = must(await h.saveMcpServer({ server: { ...web, headers: { Authorization: 'public' }, secretHeaders: [] } }))
    expect(saved.server.secretsSet).toEqual({})
    expect([...secrets.entries.keys()]).toEqual([])
    must(await h.saveMcpServer({ server: tool, secrets: { TOKEN: SECRET_ENV } }))
    must(await h.removeMcpServer({ id: 'tool' }))
    expect([...secrets.entries.keys()]).toEqual([])
    expect(forgotten).toEqual(['mcp/tool'])
  })

  it('refuses a name both plain and secret, a value for a name that is not secret, and two headers sharing one keychain entry', async () => {
    const { secrets, h } = await start()
    expect(await h.saveMcpServer({ server: { ...web, headers: { authorization: 'x' } } })).toMatchObject({ ok: false, error: { kind: 'invalid-argument' } })
    expect(await h.saveMcpServer({ server: { ...tool, env: { TOKEN: 'x' } } })).toMatchObject({ ok: false, error: { kind: 'invalid-argument' } })
    expect(await h.saveMcpServer({ server: tool, secrets: { PLAIN: 'value' } })).toMatchObject({ ok: false, error: { kind: 'invalid-argument' } })
    expect(await h.saveMcpServer({ server: { ...web, secretHeaders: ['X-Key', 'X_Key'] } })).toMatchObject({ ok: false, error: { kind: 'invalid-argument' } })
    expect(secrets.entries.size).toBe(0)
  })

  it('Check never returns a secret the server prints as it fails', async () => {
    const { h } = await start()
    const script = 'console.error("token is " + process.env.TOKEN); process.exit(3)'
    must(await h.saveMcpServer({ server: { ...tool, args: ['-e', script] }, secrets: { TOKEN: SECRET_ENV } }))
    const result = await h.checkMcpServer({ id: 'tool' })
    expect(result).toMatchObject({ ok: false, error: { kind: 'rpc-error', stderrTail: expect.stringContaining('token is «redacted»') } })
    expect(JSON.stringify(result)).not.toContain(SECRET_ENV)
  })

  it('saves nothing when the keychain is not available, and lists saved servers without asking it per secret', async () => {
    const store = createMemorySecretStore({ available: false })
    let asked = 0
    const secrets = { ...store, has: (owner: string, name: string) => (asked++, store.has(owner, name)) }
    const service = await createMcpService({ home, secrets, confirmation: new RecordingConfirmation(true) })
    expect(await service.handlers.saveMcpServer({ server: web, secrets: { Authorization: SECRET_HEADER } })).toMatchObject({ ok: false, error: { kind: 'keychain-unavailable' } })
    expect(must(await service.handlers.listMcpServers(undefined)).servers).toEqual([])
    // Saved without a value (the keychain was not needed): listed, its secret not known to be set.
    must(await service.handlers.saveMcpServer({ server: web }))
    expect(must(await service.handlers.listMcpServers(undefined)).servers.map((s) => s.secretsSet)).toEqual([{}])
    expect(asked).toBe(0)
  })

  it('keeps only the fields of the server’s transport', () => {
    const mixed = { ...tool, url: 'https://x', headers: { A: 'b' }, secretHeaders: ['C'] }
    expect(normalizeMcpServer(mixed)).toEqual({ ok: true, server: { id: 'tool', name: 'tool', transport: 'stdio', enabled: true, agents: null, command: process.execPath, args: ['-v'], env: { PLAIN: 'p' }, secretEnv: ['TOKEN'] } })
  })
})

describe('mcp-servers.json that Bosun cannot use whole', () => {
  const write = (text: string) => writeFileSync(join(home, 'mcp-servers.json'), text)
  const copies = () => readdirSync(home).filter((name) => name.startsWith('mcp-servers.json.corrupt-'))

  it('of the wrong shape, or with an entry or field this Bosun does not know: a copy is kept before the first save replaces it', async () => {
    const newer = { ...tool, id: 'newer', name: 'newer', futureAuth: { kind: 'oauth' } }
    const original = JSON.stringify({ version: 1, servers: [web, newer, { id: 'x', transport: 'carrier-pigeon' }] })
    write(original)
    const { h } = await start()
    // Loading keeps the file as it is.
    expect(copies()).toEqual([])
    expect(must(await h.listMcpServers(undefined)).servers.map((s) => s.id)).toEqual(['web', 'newer'])
    must(await h.removeMcpServer({ id: 'web' }))
    expect(copies()).toHaveLength(1)
    expect(readFileSync(join(home, copies()[0]!), 'utf8')).toBe(original)
    // Once: the next save has nothing more to keep.
    must(await h.removeMcpServer({ id: 'newer' }))
    expect(copies()).toHaveLength(1)

    rmSync(join(home, copies()[0]!))
    write('[1, 2, 3]')
    const again = await start()
    expect(must(await again.h.listMcpServers(undefined)).servers).toEqual([])
    must(await again.h.saveMcpServer({ server: { ...tool, secretEnv: [] } }))
    expect(readFileSync(join(home, copies()[0]!), 'utf8')).toBe('[1, 2, 3]')
  })

  it('with 100,000 servers and one id twice: the first of each id, up to the bound, are kept and passed; a copy is kept before a save', async () => {
    const many = Array.from({ length: 100_000 }, (_, i) => ({ ...tool, id: `s${i}`, name: `server ${i}`, secretEnv: [] }))
    many.splice(1, 0, { ...tool, id: 's0', name: 'the same id again', secretEnv: [] })
    const original = JSON.stringify({ version: 1, servers: many })
    write(original)
    const { service, h } = await start()
    const listed = must(await h.listMcpServers(undefined)).servers
    expect(listed).toHaveLength(MAX_MCP_SERVERS)
    expect(listed.slice(0, 2).map((s) => s.name)).toEqual(['server 0', 'server 1'])
    expect(await names(service, 'alpha', v1http)).toHaveLength(MAX_MCP_SERVERS)
    // Full: a new server is refused, an edit of a kept one is not.
    expect(await h.saveMcpServer({ server: { ...tool, id: 'new', secretEnv: [] } })).toMatchObject({ ok: false, error: { message: expect.stringContaining(`up to ${MAX_MCP_SERVERS}`) } })
    expect(copies()).toEqual([])
    must(await h.saveMcpServer({ server: { ...tool, id: 's0', name: 'renamed', secretEnv: [] } }))
    expect(readFileSync(join(home, copies()[0]!), 'utf8')).toBe(original)
    const saved = (JSON.parse(file()) as { servers: McpServerConfig[] }).servers
    expect(saved).toHaveLength(MAX_MCP_SERVERS)
    expect(saved.filter((s) => s.id === 's0').map((s) => s.name)).toEqual(['renamed'])
  })

  it('that cannot be read (a FIFO in its place): Bosun starts without waiting on it, and never replaces it', async () => {
    execFileSync('mkfifo', [join(home, 'mcp-servers.json')])
    const { h } = await start()
    expect(must(await h.listMcpServers(undefined)).servers).toEqual([])
    expect(await h.saveMcpServer({ server: { ...tool, secretEnv: [] } })).toMatchObject({ ok: false, error: { kind: 'io-error', message: expect.stringContaining('is not a regular file') } })
    expect(lstatSync(join(home, 'mcp-servers.json')).isFIFO()).toBe(true)
  })

  it('when the write fails, the save says so and the list stays as the file is', async () => {
    const { h } = await start()
    must(await h.saveMcpServer({ server: { ...tool, secretEnv: [] } }))
    // A directory where the file goes: the atomic rename fails.
    rmSync(join(home, 'mcp-servers.json'))
    mkdirSync(join(home, 'mcp-servers.json'))
    writeFileSync(join(home, 'mcp-servers.json', 'keep'), '')
    expect(await h.saveMcpServer({ server: { ...tool, id: 'two', name: 'two', secretEnv: [] } })).toMatchObject({ ok: false, error: { kind: 'io-error' } })
    expect(must(await h.listMcpServers(undefined)).servers.map((s) => s.id)).toEqual(['tool'])
    // No temp file is left beside it.
    expect(readdirSync(home).filter((name) => name.endsWith('.tmp'))).toEqual([])
  })
})
