/**
 * Checklist items of the transport and envelope that had no test of their own: A2 (UTF-8 text round-trips exactly,
 * U+2028 included), A5 (answers to many concurrent agent requests never interleave), B2 (a response with both `result` and `error` fails the request it answers, never resolves it),
 * B8 (an unknown `_` extension request gets -32601 with `data.method`).
 */
import { describe, expect, it } from 'vitest'
import { RpcError } from '../../../main/base/errors'
import { acpPeer, type Json } from '../../support/acp-peer'

async function initialized(version: 1 | 2) {
  const peer = acpPeer({ elicitation: { form: true } })
  const done = peer.connection.initialize({ preferredVersion: version })
  const request = await peer.next()
  peer.send({ id: request.id, result: { protocolVersion: version, ...(version === 2 ? { info: { name: 'a', version: '1' }, capabilities: { session: {} } } : {}) } })
  await done
  return peer
}

/** Emoji (astral, ZWJ sequence), CJK, U+2028/U+2029 (line breaks to JavaScript, not to NDJSON), a newline, a BOM, a lone combining mark. */
const TEXT = 'héllo 👩‍💻 漢字テスト \u2028 \u2029 two\nlines \uFEFF e\u0301'

describe.each([1, 2] as const)('v%s', (version) => {
  it('A2: a prompt and the agent\'s chunk carry UTF-8 text exactly, each one line on the wire', async () => {
    const peer = await initialized(version)
    const seen: Json[] = []
    peer.connection.onDidReceiveUpdate((n) => seen.push(n.update as Json))
    void peer.connection.prompt('s1', [{ type: 'text', text: TEXT }]).catch(() => undefined)
    const request = await peer.next()
    expect(request.params).toEqual({ sessionId: 's1', prompt: [{ type: 'text', text: TEXT }] })
    peer.send({ method: 'session/update', params: { sessionId: 's1', update: { sessionUpdate: 'agent_message_chunk', messageId: 'm', content: { type: 'text', text: TEXT } } } })
    await expect.poll(() => seen.length).toBe(1)
    expect(seen[0]).toEqual({ sessionUpdate: 'agent_message_chunk', messageId: 'm', content: { type: 'text', text: TEXT } })
  })

  it('A5: 200 agent requests answered concurrently, out of order and with large results: each answer one whole line, once', async () => {
    const peer = await initialized(version)
    // Answers settle in an order of their own, some with results large enough to need several writes.
    peer.connection.handlers.registerRequest('_acme/echo', async (params) => {
      const n = (params as { n: number }).n
      await new Promise((resolve) => setTimeout(resolve, (n * 7) % 13))
      return { n, pad: 'x'.repeat(n % 5 === 0 ? 70_000 : 10) }
    })
    peer.sendTogether(...Array.from({ length: 200 }, (_, n) => ({ id: n % 2 === 0 ? n : `r${n}`, method: '_acme/echo', params: { n } })))
    const answers: Json[] = []
    // acpPeer parses each line whole: bytes of two answers in one line would not parse.
    for (let i = 0; i < 200; i++) answers.push(await peer.next())
    expect(answers.map((a) => (a.result as { n: number }).n).sort((x, y) => x - y)).toEqual(Array.from({ length: 200 }, (_, n) => n))
    for (const answer of answers) {
      const n = (answer.result as { n: number }).n
      expect(answer.id).toBe(n % 2 === 0 ? n : `r${n}`)
    }
    // No second answer to any of them: the next line is the answer to a probe sent now.
    peer.send({ id: 'probe', method: '_acme/unknown', params: {} })
    expect(await peer.next()).toMatchObject({ id: 'probe', error: { code: -32601 } })
  })

  it('B2: a response carrying both result and error fails the request it answers', async () => {
    const peer = await initialized(version)
    const created = peer.connection.newSession({ cwd: '/p' })
    const request = await peer.next()
    peer.send({ id: request.id, result: { sessionId: 'wrong' }, error: { code: -32603, message: 'both' } })
    const error = await created.then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(RpcError)
    expect(error).toMatchObject({ code: -32603 })
    // The connection goes on.
    const again = peer.connection.newSession({ cwd: '/p' })
    peer.send({ id: (await peer.next()).id, result: { sessionId: 's2' } })
    expect((await again).sessionId).toBe('s2')
  })

  it('B8, I3: an unknown extension request gets -32601 with data.method', async () => {
    const peer = await initialized(version)
    peer.send({ id: 'e1', method: '_acme/foo', params: { x: 1 } })
    expect(await peer.next()).toEqual({ jsonrpc: '2.0', id: 'e1', error: { code: -32601, message: 'Method not found: _acme/foo', data: { method: '_acme/foo' } } })
  })
})
