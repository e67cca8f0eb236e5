/** The client capabilities `initialize` advertises (C3, C4): only what Bosun was told it serves. */
import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { createAcpConnection, type ClientCapabilityFlags } from '../../../main/acp/connection'

const ALL: ClientCapabilityFlags = { fs: { readTextFile: true, writeTextFile: true }, terminal: true, authTerminal: true }

/** The params of the first `initialize` the client sends, offering `version`. */
async function initializeParams(version: 1 | 2, clientCapabilities?: ClientCapabilityFlags, booleanConfigOptions?: boolean): Promise<Record<string, unknown>> {
  const toClient = new PassThrough()
  const fromClient = new PassThrough()
  const connection = createAcpConnection({
    input: toClient,
    output: fromClient,
    clientInfo: { name: 'bosun', version: '1' },
    elicitation: { form: true },
    ...(clientCapabilities ? { clientCapabilities } : {}),
    ...(booleanConfigOptions !== undefined ? { booleanConfigOptions } : {}),
  })
  const sent = new Promise<Record<string, unknown>>((resolve) => fromClient.once('data', (chunk: Buffer) => resolve(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>)))
  void connection.initialize({ preferredVersion: version }).catch(() => undefined)
  const request = await sent
  connection.dispose()
  return request.params as Record<string, unknown>
}

describe('advertised client capabilities', () => {
  // C3: fs, terminal and auth.terminal as configured (clientcaps), `session.configOptions.boolean` (E13, conformance),
  // and `session.notices` / `session.compaction` (H17, H18: Bosun shows both).
  it('v1: fs, terminal and auth.terminal as configured (and the older `_meta["terminal-auth"]` with it), boolean config options, notices and compaction', async () => {
    expect(await initializeParams(1, ALL)).toEqual({
      protocolVersion: 1,
      clientInfo: { name: 'bosun', version: '1' },
      clientCapabilities: {
        fs: { readTextFile: true, writeTextFile: true },
        terminal: true,
        auth: { terminal: true, _meta: { gateway: true } },
        elicitation: { form: {} },
        session: { configOptions: { boolean: {} }, notices: {}, compaction: {} },
        _meta: { 'terminal-auth': true, terminal_output: true },
      },
    })
  })

  it('v1 without flags: fs and terminal false, no auth; the `_meta` terminal extension Bosun shows (claude-agent-acp sends its commands\' output so only when told)', async () => {
    expect((await initializeParams(1)).clientCapabilities).toEqual({
      fs: { readTextFile: false, writeTextFile: false },
      terminal: false,
      elicitation: { form: {} },
      session: { configOptions: { boolean: {} }, notices: {}, compaction: {} },
      _meta: { terminal_output: true },
    })
  })

  it('v1 with boolean config options turned off: notices and compaction only', async () => {
    expect((await initializeParams(1, ALL, false)).clientCapabilities).toHaveProperty('session', { notices: {}, compaction: {} })
  })

  it('v2: only auth.terminal and elicitation exist; fs, terminal, session (notices and compaction need none) are never sent', async () => {
    expect((await initializeParams(2, ALL)).capabilities).toEqual({ elicitation: { form: {} }, auth: { terminal: {} } })
    expect((await initializeParams(2)).capabilities).toEqual({ elicitation: { form: {} } })
  })
})

describe('a v1 agent that answered a v2 offer (C10b, run without the restart)', () => {
  /** Runs initialize offering `offer`, the peer answers `answer`, then the peer sends each method once; returns the error codes. */
  async function codesAfter(offer: 1 | 2, answer: 1 | 2, methods: string[], clientCapabilities = ALL): Promise<Record<string, number | 'ok'>> {
    const toClient = new PassThrough()
    const fromClient = new PassThrough()
    const connection = createAcpConnection({ input: toClient, output: fromClient, clientInfo: { name: 'bosun', version: '1' }, elicitation: { form: true }, clientCapabilities })
    for (const method of methods) connection.handlers.registerRequest(method, () => ({ served: true }))
    const lines: Array<Record<string, unknown>> = []
    const waiters: Array<() => void> = []
    let buffer = ''
    fromClient.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8')
      let newline: number
      while ((newline = buffer.indexOf('\n')) >= 0) {
        lines.push(JSON.parse(buffer.slice(0, newline)) as Record<string, unknown>)
        buffer = buffer.slice(newline + 1)
        waiters.splice(0).forEach((wake) => wake())
      }
    })
    const next = async (predicate: (line: Record<string, unknown>) => boolean) => {
      for (;;) {
        const found = lines.find(predicate)
        if (found) return found
        await new Promise<void>((resolve) => waiters.push(resolve))
      }
    }
    const handshake = connection.initialize({ preferredVersion: offer })
    const init = await next((l) => l.method === 'initialize')
    toClient.write(JSON.stringify({ jsonrpc: '2.0', id: init.id, result: { protocolVersion: answer, agentCapabilities: {} } }) + '\n')
    await handshake
    const codes: Record<string, number | 'ok'> = {}
    for (const [i, method] of methods.entries()) {
      toClient.write(JSON.stringify({ jsonrpc: '2.0', id: `a${i}`, method, params: { sessionId: 's' } }) + '\n')
      const reply = await next((l) => l.id === `a${i}`)
      codes[method] = reply.error ? (reply.error as { code: number }).code : 'ok'
    }
    connection.dispose()
    return codes
  }

  const METHODS = ['fs/read_text_file', 'fs/write_text_file', 'terminal/create', 'terminal/output', 'elicitation/create', 'session/request_permission']

  it('answers -32601 to the files, terminals and elicitation it never offered that agent; permissions still work', async () => {
    expect(await codesAfter(2, 1, METHODS)).toEqual({
      'fs/read_text_file': -32601,
      'fs/write_text_file': -32601,
      'terminal/create': -32601,
      'terminal/output': -32601,
      'elicitation/create': -32601,
      'session/request_permission': 'ok',
    })
  })

  it('a v2 agent: files and terminals are no client methods of v2 (L), so they get -32601; elicitation and permissions work', async () => {
    expect(await codesAfter(2, 2, METHODS)).toEqual({
      'fs/read_text_file': -32601,
      'fs/write_text_file': -32601,
      'terminal/create': -32601,
      'terminal/output': -32601,
      'elicitation/create': 'ok',
      'session/request_permission': 'ok',
    })
  })

  it('serves all of them once the agent was offered 1', async () => {
    expect(Object.values(await codesAfter(1, 1, METHODS))).toEqual(Array(METHODS.length).fill('ok'))
  })

  it('offered 1 with some flags off: what clientCapabilities did not name gets -32601, whatever handler is registered (C3)', async () => {
    expect(await codesAfter(1, 1, METHODS, { fs: { readTextFile: true } })).toEqual({
      'fs/read_text_file': 'ok',
      'fs/write_text_file': -32601,
      'terminal/create': -32601,
      'terminal/output': -32601,
      'elicitation/create': 'ok',
      'session/request_permission': 'ok',
    })
  })
})
