/**
 * Strict in what Bosun sends (checklist item 3, A4, B1, B6, C2, C4, E1–E17, F1, I2, I6): every client → agent
 * message the connection has (each method of `AcpClientConnection`, once, with every optional part it can carry) and
 * its own answers to what it refuses (unknown methods, batches, non-objects), v1 and v2, validated against the SDK's
 * JSON schema of that version, closed to fields the schema does not have (test/support/acp-wire-schema.ts).
 *
 * The integration tour (test/integration/acp/wire-schema.test.ts) checks what a whole Bosun sends scripted agents; this
 * one reaches what the tour does not: session/delete, logout / auth/logout, v1 session/resume (no replay), SSE MCP
 * servers, audio, a `session/list` cursor of `""`, and the `$/cancel_request` of a withdrawn request.
 */
import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { createAcpConnection } from '../../../main/acp/connection'
import type { ProtocolVersion } from '../../../main/acp/types'
import { selectMcpServers, type ResolvedMcpServer } from '../../../main/mcp/select'
import { checkWireLog } from '../../support/acp-wire-schema'

type Json = Record<string, unknown>

const V1_CAPABILITIES = {
  loadSession: true,
  promptCapabilities: { image: true, audio: true, embeddedContext: true },
  mcpCapabilities: { http: true, sse: true },
  sessionCapabilities: { list: {}, resume: {}, close: {}, delete: {}, additionalDirectories: {} },
  auth: { logout: {} },
}
const V2_CAPABILITIES = {
  session: { prompt: { image: {}, audio: {}, embeddedContext: {} }, mcp: { stdio: {}, http: {} }, delete: {}, additionalDirectories: {} },
}

/** What the scripted agent answers each of Bosun's requests with (a valid result of that method). */
function resultFor(version: ProtocolVersion, method: string): unknown {
  switch (method) {
    case 'initialize':
      return version === 1
        ? { protocolVersion: 1, agentCapabilities: V1_CAPABILITIES, authMethods: [{ id: 'login', name: 'Log in' }] }
        : { protocolVersion: 2, info: { name: 'agent', version: '1' }, capabilities: V2_CAPABILITIES, authMethods: [{ methodId: 'login', name: 'Log in', type: 'agent' }] }
    case 'session/new':
      return { sessionId: 's1' }
    case 'session/prompt':
      return version === 1 ? { stopReason: 'end_turn' } : { messageId: 'u1' }
    case 'session/list':
      return { sessions: [], nextCursor: null }
    default:
      return {}
  }
}

/** An in-memory agent that answers every request of Bosun's at once (v2: a prompt's ack, then its idle) and logs the wire as `--wire-log` does. */
function scriptedAgent(version: ProtocolVersion, options: { hold?: string[] } = {}) {
  const toClient = new PassThrough()
  const fromClient = new PassThrough()
  const log: string[] = []
  const held = new Map<string, Json>()
  const write = (message: Json) => {
    const line = JSON.stringify({ jsonrpc: '2.0', ...message })
    log.push(JSON.stringify({ dir: 'out', line }))
    toClient.write(line + '\n')
  }
  let buffer = ''
  fromClient.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8')
    let cut: number
    while ((cut = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, cut)
      buffer = buffer.slice(cut + 1)
      log.push(JSON.stringify({ dir: 'in', line }))
      const message = JSON.parse(line) as Json
      if (typeof message.method !== 'string' || !('id' in message)) continue
      if (options.hold?.includes(message.method)) {
        held.set(message.method, message)
        continue
      }
      write({ id: message.id, result: resultFor(version, message.method) })
      const params = message.params as Json
      if (message.method === 'session/prompt' && version === 2) {
        write({ method: 'session/update', params: { sessionId: params.sessionId, update: { sessionUpdate: 'state_update', state: 'idle', stopReason: 'end_turn' } } })
      }
    }
  })
  const connection = createAcpConnection({
    clientInfo: { name: 'bosun', version: '1.2.3' },
    elicitation: { form: true, url: true },
    clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true, authTerminal: true },
    input: toClient,
    output: fromClient,
  })
  return {
    connection,
    write,
    /** A raw line from the agent (a batch, a bare value). */
    writeRaw: (line: string) => {
      log.push(JSON.stringify({ dir: 'out', line }))
      toClient.write(line + '\n')
    },
    held,
    log: () => log.join('\n'),
    /** Resolves once Bosun has written `count` lines in all. */
    sent: async (count: number) => {
      while (log.filter((l) => l.startsWith('{"dir":"in"')).length < count) await new Promise((resolve) => fromClient.once('data', resolve))
    },
  }
}

/** MCP servers of every transport, in the version's wire shape as Bosun builds it (main/mcp/select). */
function mcpServers(version: ProtocolVersion): Record<string, unknown>[] {
  const base = { enabled: true, agents: null }
  const resolved: ResolvedMcpServer[] = [
    { config: { ...base, id: 'files', name: 'files', transport: 'stdio', command: 'mcp-files', args: ['--root', '/p'] }, env: { TOKEN: 'x' }, headers: {}, command: '/usr/bin/mcp-files' },
    { config: { ...base, id: 'web', name: 'web', transport: 'http', url: 'https://mcp.example/mcp' }, env: {}, headers: { Authorization: 'Bearer x' } },
    { config: { ...base, id: 'events', name: 'events', transport: 'sse', url: 'https://mcp.example/sse' }, env: {}, headers: {} },
  ]
  const selection = selectMcpServers(resolved, version, { stdio: true, http: true, sse: version === 1 })
  expect(selection.servers).toHaveLength(version === 1 ? 3 : 2)
  return selection.servers
}

const PROMPT = [
  { type: 'text', text: 'look at this' },
  { type: 'resource_link', uri: 'file:///p/a.md', name: 'a.md', mimeType: 'text/markdown' },
  { type: 'resource', resource: { uri: 'file:///p/b.md', text: 'b', mimeType: 'text/markdown' } },
  { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
  { type: 'audio', mimeType: 'audio/wav', data: 'UklGRg==' },
]

describe.each([1, 2] as const)('every client → agent message of a v%s connection validates against the SDK schema', (version) => {
  it('each method once, with its optional parts, and the answers to what Bosun refuses', async () => {
    const agent = scriptedAgent(version, { hold: ['session/list'] })
    const { connection } = agent
    await connection.initialize({ preferredVersion: version })
    expect(connection.handshake?.protocolVersion).toBe(version)

    const { sessionId } = await connection.newSession({ cwd: '/p', mcpServers: mcpServers(version), additionalDirectories: ['/q'] })
    await connection.newSession({ cwd: '/p' })
    await connection.prompt(sessionId, PROMPT)
    connection.cancel(sessionId)
    await connection.setConfigOption(sessionId, 'model', 'fast')
    await connection.setConfigOption(sessionId, 'web', true)
    if (version === 1) {
      // (Not session/set_model: the SDK 2.4.0 schemas, stable and unstable, no longer have it. Bosun sends it only to
      // a v1 agent whose session/new listed `models` (Gemini CLI); its shape is checked in test/unit/acp/connection.test.ts.)
      await connection.setMode(sessionId, 'code')
    } else {
      await connection.cancelTerminal!(sessionId, 'term-1')
      await connection.cancelToolCall!(sessionId, 'call-1')
    }
    // v1: session/load (replay) and session/resume (none); v2: session/resume with and without replay.
    await connection.resumeSession({ sessionId, cwd: '/p', replay: true, mcpServers: mcpServers(version), additionalDirectories: ['/q'] })
    await connection.resumeSession({ sessionId, cwd: '/p', replay: false })
    await connection.closeSession!(sessionId)
    await connection.deleteSession!(sessionId)
    await connection.authenticate('login', { origin: 'test' })
    await connection.logout()

    // session/list with v2's valid empty cursor (E9), then one withdrawn before its answer: `$/cancel_request` (B16).
    const first = connection.listSessions!({ cwd: '/p', cursor: '' })
    await expect.poll(() => agent.held.has('session/list')).toBe(true)
    agent.write({ id: agent.held.get('session/list')!.id, result: { sessions: [], nextCursor: null } })
    agent.held.delete('session/list')
    await first
    const abort = new AbortController()
    const withdrawn = connection.listSessions!({}, abort.signal)
    await expect.poll(() => agent.held.has('session/list')).toBe(true)
    abort.abort()
    await expect(withdrawn).rejects.toMatchObject({ kind: 'cancelled' })
    await expect.poll(() => agent.log()).toContain('$/cancel_request')

    // Bosun's own refusals: an unknown method (-32601), a batch and a bare value (-32600, id null).
    const before = agent.log().split('\n').filter((l) => l.startsWith('{"dir":"in"')).length
    agent.write({ id: 'x-1', method: '_acme/unknown', params: {} })
    agent.writeRaw(JSON.stringify([{ jsonrpc: '2.0', method: 'session/update', params: { sessionId, update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'x' } } } }]))
    agent.writeRaw('42')
    await agent.sent(before + 3)
    connection.dispose()

    const result = checkWireLog(version, agent.log())
    const expected = [
      'initialize', 'session/new', 'session/prompt', 'session/cancel', 'session/set_config_option', 'session/close', 'session/delete',
      'session/list', '$/cancel_request', '→ _acme/unknown',
      ...(version === 1
        ? ['session/set_mode', 'session/load', 'session/resume', 'authenticate', 'logout']
        : ['terminal/cancel', 'tool_call/cancel', 'session/resume', 'auth/login', 'auth/logout']),
    ]
    expect([...result.methods].sort()).toEqual(expect.arrayContaining(expected))
    expect(result.problems).toEqual([])
  })
})
