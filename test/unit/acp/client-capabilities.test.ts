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
  // C3: fs, terminal and auth.terminal as configured (clientcaps), and `session.configOptions.boolean` (E13, conformance).
  it('v1: fs, terminal and auth.terminal as configured, and boolean config options', async () => {
    expect(await initializeParams(1, ALL)).toEqual({
      protocolVersion: 1,
      clientInfo: { name: 'bosun', version: '1' },
      clientCapabilities: {
        fs: { readTextFile: true, writeTextFile: true },
        terminal: true,
        auth: { terminal: true },
        elicitation: { form: {} },
        session: { configOptions: { boolean: {} } },
      },
    })
  })

  it('v1 without flags: fs and terminal false, no auth', async () => {
    expect((await initializeParams(1)).clientCapabilities).toEqual({
      fs: { readTextFile: false, writeTextFile: false },
      terminal: false,
      elicitation: { form: {} },
      session: { configOptions: { boolean: {} } },
    })
  })

  it('v1 with boolean config options turned off: no session capabilities', async () => {
    expect((await initializeParams(1, ALL, false)).clientCapabilities).not.toHaveProperty('session')
  })

  it('v2: only auth.terminal and elicitation exist; fs and terminal are never sent', async () => {
    expect((await initializeParams(2, ALL)).capabilities).toEqual({ elicitation: { form: {} }, auth: { terminal: {} } })
    expect((await initializeParams(2)).capabilities).toEqual({ elicitation: { form: {} } })
  })
})
