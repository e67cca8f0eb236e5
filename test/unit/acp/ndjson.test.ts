import { PassThrough } from 'node:stream'
import { describe, expect, it, vi } from 'vitest'
import type { Message } from 'vscode-jsonrpc/node.js'
import { NdjsonMessageReader, WireTap, stripLeadingEscapes } from '../../../main/acp/ndjson'
import { NdjsonMessageWriter } from '../../../main/acp/ndjson-writer'
import { IncomingRequestIds, PendingIds } from '../../../main/acp/request-ids'
import { scanLineHead } from '../../../main/acp/line-head'
import type { TransportProblem, WireTrace } from '../../../main/acp/types'

function setup(options: { maxMessageBytes?: number; pendingIds?: PendingIds; incomingIds?: IncomingRequestIds; fastPath?: (m: { method: string }) => boolean; integerIds?: () => boolean } = {}) {
  const input = new PassThrough()
  const messages: unknown[] = []
  const problems: TransportProblem[] = []
  const replies: unknown[] = []
  const reader = new NdjsonMessageReader(input, {
    ...options,
    onProblem: (p) => problems.push(p),
    reply: (m) => replies.push(m),
  })
  reader.listen((m) => messages.push(m))
  return { reader, input, messages, problems, replies }
}

const note = (text: string) => ({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } } } })

describe('NdjsonMessageReader', () => {
  it('stops reading while too many messages wait to be processed, and reads on once a quarter are left', async () => {
    const input = new PassThrough()
    const messages: unknown[] = []
    const reader = new NdjsonMessageReader(input, { maxBacklog: 8 })
    reader.listen((m) => messages.push(m))
    const request = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'x/y', params: {} })
    const data = new Promise((resolve) => input.once('data', resolve))
    input.write(Array.from({ length: 10 }, (_, i) => request(i)).join('\n') + '\n')
    await data
    // One chunk of 10: all handed on, then the stream paused.
    expect(messages).toHaveLength(10)
    expect(reader.isPaused).toBe(true)
    expect(input.isPaused()).toBe(true)
    input.write(request(10) + '\n')
    await new Promise((resolve) => setImmediate(resolve))
    expect(messages).toHaveLength(10)
    for (let i = 0; i < 7; i++) reader.processed()
    expect(reader.pendingMessages).toBe(3)
    expect(reader.isPaused).toBe(true)
    reader.processed()
    expect(reader.isPaused).toBe(false)
    await new Promise((resolve) => setImmediate(resolve))
    expect(messages).toHaveLength(11)
  })

  it('splits on 0x0A before decoding: a 4-byte code point split across chunks, CRLF-terminated', () => {
    const { reader, messages } = setup()
    const bytes = Buffer.from(JSON.stringify(note('emoji 😀 and 漢字 and \u2028')) + '\r\n', 'utf8')
    const cut = bytes.indexOf(Buffer.from('😀')) + 2
    reader.push(bytes.subarray(0, cut))
    expect(messages).toHaveLength(0)
    reader.push(bytes.subarray(cut))
    expect(messages).toEqual([note('emoji 😀 and 漢字 and \u2028')])
  })

  it('handles many messages in one chunk and one message in many chunks', () => {
    const { reader, messages } = setup()
    const text = [1, 2, 3].map((i) => JSON.stringify(note(String(i)))).join('\n') + '\n'
    reader.push(Buffer.from(text))
    const single = Buffer.from(JSON.stringify(note('x')) + '\n')
    for (let i = 0; i < single.length; i++) reader.push(single.subarray(i, i + 1))
    expect(messages).toEqual([note('1'), note('2'), note('3'), note('x')])
  })

  it('skips empty and whitespace-only lines without reporting them', () => {
    const { reader, messages, problems } = setup()
    reader.push(Buffer.from('\n\r\n   \t \n' + JSON.stringify(note('a')) + '\n\n'))
    expect(messages).toEqual([note('a')])
    expect(problems).toEqual([])
  })

  it('flushes a final unterminated line at EOF, then closes', async () => {
    const { reader, input, messages } = setup()
    const closed = new Promise<void>((resolve) => reader.onClose(() => resolve()))
    input.end(JSON.stringify(note('last')))
    await closed
    expect(messages).toEqual([note('last')])
  })

  it('reports and skips an oversized line (within a chunk and across chunks) and keeps going', () => {
    const { reader, messages, problems } = setup({ maxMessageBytes: 64 })
    reader.push(Buffer.from(JSON.stringify({ jsonrpc: '2.0', method: 'x', params: { pad: 'p'.repeat(100) } }) + '\n'))
    // Across chunks: each chunk alone is small, the line is not; the reader must not hold it all.
    reader.push(Buffer.from('{"jsonrpc":"2.0","method":"y","params":{"pad":"'))
    for (let i = 0; i < 10; i++) reader.push(Buffer.from('q'.repeat(50)))
    reader.push(Buffer.from('"}}\n{"jsonrpc":"2.0","method":"ok"}\n'))
    expect(problems.map((p) => p.kind)).toEqual(['oversized-line', 'oversized-line'])
    expect(messages).toEqual([{ jsonrpc: '2.0', method: 'ok' }])
  })

  it('reports a non-JSON line with a short preview and skips it', () => {
    const { reader, messages, problems, replies } = setup()
    reader.push(Buffer.from('Welcome to the shell ' + 'x'.repeat(500) + '\n{"jsonrpc":"2.0","method":"ok"}\n'))
    expect(problems).toHaveLength(1)
    expect(problems[0]!.kind).toBe('non-json-line')
    expect(problems[0]!.preview!.length).toBeLessThanOrEqual(121)
    expect(problems[0]!.preview).toMatch(/^Welcome to the shell/)
    expect(replies).toEqual([])
    expect(messages).toEqual([{ jsonrpc: '2.0', method: 'ok' }])
  })

  it('strips terminal escape sequences before {', () => {
    const { reader, messages, problems } = setup()
    reader.push(Buffer.from('\x1b]0;title\x07\x1b[32m{"jsonrpc":"2.0","method":"ok"}\n'))
    expect(problems).toEqual([])
    expect(messages).toEqual([{ jsonrpc: '2.0', method: 'ok' }])
    expect(stripLeadingEscapes('\x1b[1;31m\x1b]2;t\x1b\\{"a":1}')).toBe('{"a":1}')
  })

  it('answers a batch with exactly one -32600 (id null) and does not process its entries', () => {
    const { reader, messages, problems, replies } = setup()
    reader.push(Buffer.from(JSON.stringify([note('a'), note('b')]) + '\n'))
    expect(messages).toEqual([])
    expect(replies).toEqual([{ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'JSON-RPC batches are not supported' } }])
    expect(problems.map((p) => p.kind)).toEqual(['batch-rejected'])
  })

  it.each(['42', '"x"', 'null', 'true'])('answers the non-object %s with -32600 (id null)', (line) => {
    const { reader, messages, replies } = setup()
    reader.push(Buffer.from(line + '\n'))
    expect(messages).toEqual([])
    expect(replies).toHaveLength(1)
    expect(replies[0]).toMatchObject({ id: null, error: { code: -32600 } })
  })

  it('answers a request with id null with -32600 and drops responses for ids we never sent', () => {
    const pendingIds = new PendingIds()
    pendingIds.add(1)
    const { reader, messages, problems, replies } = setup({ pendingIds })
    reader.push(Buffer.from('{"jsonrpc":"2.0","id":null,"method":"session/request_permission","params":{}}\n'))
    reader.push(Buffer.from('{"jsonrpc":"2.0","id":999,"result":{}}\n{"jsonrpc":"2.0","id":1,"result":{}}\n{"jsonrpc":"2.0","id":1,"result":{}}\n'))
    reader.push(Buffer.from('{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse"}}\n'))
    expect(replies).toEqual([{ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: id must be a string or a number' } }])
    expect(messages).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }])
    expect(problems.map((p) => p.kind)).toEqual(['invalid-message', 'unknown-response-id', 'unknown-response-id', 'invalid-message'])
  })

  it('reports an unknown or reused id of 1 MB as a preview of it', () => {
    const incomingIds = new IncomingRequestIds()
    const { reader, problems } = setup({ pendingIds: new PendingIds(), incomingIds })
    const id = 'i'.repeat(1024 * 1024)
    reader.push(Buffer.from(`{"jsonrpc":"2.0","id":"${id}","result":{}}\n`))
    reader.push(Buffer.from(`{"jsonrpc":"2.0","id":"${id}","method":"x/y","params":{}}\n{"jsonrpc":"2.0","id":"${id}","method":"x/y","params":{}}\n`))
    // Both requests are refused for their id's length (a reused id would be too, had the first been kept).
    expect(problems.map((p) => p.kind)).toEqual(['unknown-response-id', 'invalid-message', 'invalid-message'])
    for (const problem of problems) expect(problem.message.length).toBeLessThan(200)
  })

  it('v2 (integerIds): a fractional request id gets -32600 with id null; v1 takes it (B7)', () => {
    const line = '{"jsonrpc":"2.0","id":1.5,"method":"session/request_permission","params":{}}\n'
    const v2 = setup({ integerIds: () => true })
    v2.reader.push(Buffer.from(line + '{"jsonrpc":"2.0","id":2,"method":"session/request_permission","params":{}}\n'))
    expect(v2.replies).toEqual([{ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: a numeric id must be an integer' } }])
    expect(v2.messages).toEqual([expect.objectContaining({ id: 2 })])
    const v1 = setup({ integerIds: () => false })
    v1.reader.push(Buffer.from(line))
    expect(v1.replies).toEqual([])
    expect(v1.messages).toEqual([expect.objectContaining({ id: 1.5 })])
  })

  it('a request whose id is a number too large to write back (1e400 reads as Infinity, written null) gets -32600 with id null and is not handled (B3)', () => {
    const { reader, replies, messages, problems } = setup({ integerIds: () => false })
    reader.push(Buffer.from('{"jsonrpc":"2.0","id":1e400,"method":"terminal/create","params":{}}\n{"jsonrpc":"2.0","id":-1e400,"method":"fs/read_text_file","params":{}}\n'))
    expect(replies).toEqual([0, 1].map(() => ({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: id must be a finite number' } })))
    expect(messages).toEqual([])
    expect(problems.map((p) => p.kind)).toEqual(['invalid-message', 'invalid-message'])
  })

  it('turns a malformed response (bad error object, or neither result nor error) into an error for that request', () => {
    const pendingIds = new PendingIds()
    pendingIds.add(1)
    pendingIds.add(2)
    const { reader, messages, problems } = setup({ pendingIds })
    reader.push(Buffer.from('{"jsonrpc":"2.0","id":1,"error":{"code":"x"}}\n{"jsonrpc":"2.0","id":2}\n'))
    expect(messages).toEqual([
      { jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'The agent sent a malformed response', data: { error: { code: 'x' } } } },
      { jsonrpc: '2.0', id: 2, error: { code: -32603, message: 'The agent sent a malformed response', data: { error: undefined } } },
    ])
    expect(problems.map((p) => p.kind)).toEqual(['invalid-message', 'invalid-message'])
  })

  it('answers a request whose method is not a string with -32600 and its id; our pending request of that id still waits', () => {
    const pendingIds = new PendingIds()
    pendingIds.add(3)
    const { reader, messages, problems, replies } = setup({ pendingIds })
    reader.push(Buffer.from('{"jsonrpc":"2.0","id":3,"method":5}\n{"jsonrpc":"2.0","id":"x","method":{},"params":{}}\n'))
    expect(replies).toEqual([
      { jsonrpc: '2.0', id: 3, error: { code: -32600, message: 'Invalid Request: method must be a string' } },
      { jsonrpc: '2.0', id: 'x', error: { code: -32600, message: 'Invalid Request: method must be a string' } },
    ])
    expect(messages).toEqual([])
    expect(problems.map((p) => p.kind)).toEqual(['invalid-message', 'invalid-message'])
    // The real answer to our request 3 is still taken.
    reader.push(Buffer.from('{"jsonrpc":"2.0","id":3,"result":{}}\n'))
    expect(messages).toEqual([{ jsonrpc: '2.0', id: 3, result: {} }])
  })

  it('gives notifications to the fast path first', () => {
    const fast: unknown[] = []
    const { reader, messages } = setup({ fastPath: (m) => (m.method === 'session/update' ? (fast.push(m), true) : false) })
    reader.push(Buffer.from(JSON.stringify(note('a')) + '\n{"jsonrpc":"2.0","method":"other"}\n{"jsonrpc":"2.0","id":3,"method":"session/update"}\n'))
    expect(fast).toEqual([note('a')])
    expect(messages).toEqual([{ jsonrpc: '2.0', method: 'other' }, { jsonrpc: '2.0', id: 3, method: 'session/update' }])
  })
})

describe('over-long lines', () => {
  const pad = 'p'.repeat(300)
  const microtask = () => new Promise<void>((resolve) => queueMicrotask(resolve))

  it('reads the top-level id and method from the first bytes of a line, past nested values and escaped quotes', () => {
    expect(scanLineHead(`{"jsonrpc":"2.0","id":7,"method":"fs/read_text_file","params":{"x":"${pad}`)).toEqual({ id: 7, method: 'fs/read_text_file', response: false })
    expect(scanLineHead(`{"jsonrpc":"2.0","id":"a\\"b","result":{"content":"${pad}`)).toEqual({ id: 'a"b', response: true })
    expect(scanLineHead('{"result":{"id":9,"method":"inner","s":"\\"}{["},"id":')).toEqual({ response: true })
    expect(scanLineHead('{"params":{"s":"}{"},"id":4,"method":5,"more"')).toEqual({ id: 4, method: 5, response: false })
    expect(scanLineHead(' {"id":null,"error":{"code":-1')).toEqual({ id: null, response: true })
    // A number cut by the end of the head may go on: not read.
    expect(scanLineHead('{"id":12')).toEqual({ response: false })
    expect(scanLineHead('Welcome {"id":1}')).toEqual({ response: false })
  })

  it('answers an over-long request with -32600 under its id (within a chunk and across chunks)', () => {
    const { reader, messages, problems, replies } = setup({ maxMessageBytes: 64 })
    reader.push(Buffer.from(`{"jsonrpc":"2.0","id":"r1","method":"fs/write_text_file","params":{"content":"${pad}"}}\n`))
    reader.push(Buffer.from('{"jsonrpc":"2.0","id":9,'))
    reader.push(Buffer.from(`"method":"elicitation/create","params":{"pad":"${pad}`))
    reader.push(Buffer.from('"}}\n{"jsonrpc":"2.0","method":"ok"}\n'))
    expect(replies).toEqual([
      { jsonrpc: '2.0', id: 'r1', error: { code: -32600, message: expect.stringMatching(/^Invalid Request: message too large \(\d+ bytes; /) } },
      { jsonrpc: '2.0', id: 9, error: { code: -32600, message: expect.stringMatching(/^Invalid Request: message too large \(more than \d+ bytes; /) } },
    ])
    expect(problems.map((p) => [p.kind, p.message])).toEqual([
      ['oversized-line', expect.stringMatching(/a fs\/write_text_file message with id "r1", answered with an error$/)],
      ['oversized-line', expect.stringMatching(/a elicitation\/create message with id 9, answered with an error$/)],
    ])
    expect(messages).toEqual([{ jsonrpc: '2.0', method: 'ok' }])
  })

  it('an over-long request with id null, or (v2) a fractional id, is answered -32600 with id null; v1 echoes a fraction (B7)', () => {
    const line = (id: string) => `{"jsonrpc":"2.0","id":${id},"method":"session/request_permission","params":{"pad":"${pad}"}}\n`
    const v2 = setup({ maxMessageBytes: 64, integerIds: () => true })
    v2.reader.push(Buffer.from(line('null') + line('1.5')))
    expect(v2.replies).toEqual([
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringMatching(/^Invalid Request: message too large/) } },
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringMatching(/^Invalid Request: message too large/) } },
    ])
    const v1 = setup({ maxMessageBytes: 64, integerIds: () => false })
    v1.reader.push(Buffer.from(line('null') + line('1.5')))
    expect(v1.replies.map((r) => (r as { id: unknown }).id)).toEqual([null, 1.5])
  })

  it('fails the request of ours that an over-long response answers, through the reader, with a clear error', async () => {
    const pendingIds = new PendingIds()
    pendingIds.add(4, 'session/list')
    pendingIds.add(5, 'session/new')
    const { reader, messages, problems } = setup({ maxMessageBytes: 64, pendingIds })
    reader.push(Buffer.from(`{"jsonrpc":"2.0","id":4,"result":{"sessions":["${pad}"]}}\n{"jsonrpc":"2.0","id":77,"result":{"x":"${pad}"}}\n`))
    expect(messages).toEqual([])
    await microtask()
    expect(messages).toEqual([{ jsonrpc: '2.0', id: 4, error: { code: -32098, message: expect.stringMatching(/^The agent's answer to session\/list was too large to read \(\d+ bytes; /) } }])
    expect(pendingIds.size).toBe(1)
    expect(problems.map((p) => p.message)).toEqual([expect.stringMatching(/the answer to session\/list \(id 4\), which fails$/), expect.stringMatching(/a response for unknown id 77$/)])
  })

  it('a response whose id is past its first bytes fails the one request waiting; with several waiting, the report names them', async () => {
    const late = `{"jsonrpc":"2.0","result":{"x":"${'q'.repeat(10_000)}"},"id":1}\n`
    const one = new PendingIds()
    one.add(1, 'session/load')
    const single = setup({ maxMessageBytes: 64, pendingIds: one })
    single.reader.push(Buffer.from(late))
    await microtask()
    expect(single.messages).toEqual([expect.objectContaining({ id: 1, error: expect.objectContaining({ code: -32098 }) })])

    const two = new PendingIds()
    two.add(1, 'session/load')
    two.add(2, 'session/list')
    const several = setup({ maxMessageBytes: 64, pendingIds: two })
    several.reader.push(Buffer.from(late))
    // Nor can a line that says nothing of itself in its first bytes be matched.
    several.reader.push(Buffer.from(`{"jsonrpc":"2.0","params":{"x":"${'q'.repeat(10_000)}"},"id":3}\n`))
    await microtask()
    expect(several.messages).toEqual([])
    expect(several.problems.map((p) => p.message)).toEqual([
      expect.stringMatching(/a response without an id in its first bytes; 2 requests of Bosun's are still waiting \(session\/load \(id 1\), session\/list \(id 2\)\), one of them may never be answered$/),
      expect.stringMatching(/a message that cannot be told apart; 2 requests of Bosun's are still waiting/),
    ])
    expect(several.replies).toEqual([])
  })
})

describe('agent request ids (B3)', () => {
  it('the reader hands 0 and "0" on under ids of its own, the writer answers under the agent\'s, and a repeat of an id in flight gets -32600', async () => {
    const incomingIds = new IncomingRequestIds()
    const { reader, messages, replies, problems } = setup({ incomingIds })
    const request = (id: unknown, n: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'x/y', params: { n } })
    reader.push(Buffer.from([request(0, 1), request('0', 2), request(0, 3)].join('\n') + '\n'))
    expect(messages).toHaveLength(2)
    const [first, second] = messages as { id: number; params: unknown }[]
    expect(typeof first!.id).toBe('number')
    expect(first!.id).not.toBe(second!.id)
    expect(replies).toEqual([{ jsonrpc: '2.0', id: 0, error: { code: -32600, message: 'Invalid Request: the id of a request still in progress' } }])
    expect(problems.map((p) => p.kind)).toEqual(['invalid-message'])

    const output = new PassThrough()
    let written = ''
    output.on('data', (chunk: Buffer) => (written += chunk.toString('utf8')))
    const writer = new NdjsonMessageWriter(output, { incomingIds })
    // A reply the reader makes goes out as it is, even when its id is one of Bosun's own in flight.
    await writer.writeReply({ jsonrpc: '2.0', id: first!.id, error: { code: -32600, message: 'x' } } as Message)
    await writer.write({ jsonrpc: '2.0', id: second!.id, result: 'b' } as Message)
    await writer.write({ jsonrpc: '2.0', id: first!.id, result: 'a' } as Message)
    expect(written.trim().split('\n').map((line) => JSON.parse(line))).toEqual([
      { jsonrpc: '2.0', id: first!.id, error: { code: -32600, message: 'x' } },
      { jsonrpc: '2.0', id: '0', result: 'b' },
      { jsonrpc: '2.0', id: 0, result: 'a' },
    ])
    expect(incomingIds.size).toBe(0)
    // Answered: the id is free again.
    reader.push(Buffer.from(request(0, 4) + '\n'))
    expect(messages).toHaveLength(3)
  })
})

describe('NdjsonMessageWriter', () => {
  it('writes JSON.stringify(msg) + "\\n" per message, in order, escaping newlines in strings', async () => {
    const output = new PassThrough()
    let written = ''
    output.on('data', (chunk: Buffer) => (written += chunk.toString('utf8')))
    const writer = new NdjsonMessageWriter(output)
    const messages = Array.from({ length: 200 }, (_, i) => ({ jsonrpc: '2.0', id: i, result: { text: `line ${i}\nsecond line` } }) as Message)
    await Promise.all(messages.map((m) => writer.write(m)))
    const lines = written.split('\n')
    expect(lines.pop()).toBe('')
    expect(lines).toHaveLength(200)
    expect(lines.map((l) => JSON.parse(l))).toEqual(messages)
  })

  it('records outgoing request ids and traces both directions only when someone listens', async () => {
    const tap = new WireTap()
    const pendingIds = new PendingIds()
    const output = new PassThrough()
    output.resume()
    const writer = new NdjsonMessageWriter(output, { tap, pendingIds })
    await writer.write({ jsonrpc: '2.0', id: 5, method: 'session/new', params: {} } as Message)
    expect(pendingIds.size).toBe(1)
    const traces: WireTrace[] = []
    const sub = tap.onDidTrace((t) => traces.push(t))
    await writer.write({ jsonrpc: '2.0', method: 'session/cancel', params: { sessionId: 's' } } as Message)
    const reader = new NdjsonMessageReader(new PassThrough(), { tap })
    reader.push(Buffer.from('garbage\n{"jsonrpc":"2.0","method":"x"}\n'))
    sub.dispose()
    await writer.write({ jsonrpc: '2.0', method: 'session/cancel', params: { sessionId: 't' } } as Message)
    expect(traces.map((t) => [t.direction, t.message])).toEqual([
      ['out', { jsonrpc: '2.0', method: 'session/cancel', params: { sessionId: 's' } }],
      ['in', 'garbage'],
      ['in', { jsonrpc: '2.0', method: 'x' }],
    ])
    expect(pendingIds.size).toBe(1)
  })

  it('gives the lines of one chunk the time the chunk was read, reading the clock once for it', () => {
    const tap = new WireTap()
    const traces: WireTrace[] = []
    tap.onDidTrace((t) => traces.push(t))
    const reader = new NdjsonMessageReader(new PassThrough(), { tap })
    let clock = 1_000
    const now = vi.spyOn(Date, 'now').mockImplementation(() => clock++)
    try {
      reader.push(Buffer.from('{"jsonrpc":"2.0","method":"a"}\nnot json\n{"jsonrpc":"2.0","method":"b"}\n{"jsonrpc":"2.0",'))
      reader.push(Buffer.from('"method":"c"}\n'))
      reader.push(Buffer.from('{"jsonrpc":"2.0","method":"d"}'))
      reader.end()
    } finally {
      now.mockRestore()
    }
    expect(traces.map((t) => [(t.message as { method?: string }).method ?? t.message, t.time])).toEqual([
      ['a', 1_000],
      ['not json', 1_000],
      ['b', 1_000],
      ['c', 1_001],
      ['d', 1_003],
    ])
  })

  it('rejects writes after the stream closed', async () => {
    const output = new PassThrough()
    const writer = new NdjsonMessageWriter(output)
    const closed = new Promise<void>((resolve) => writer.onClose(() => resolve()))
    output.destroy()
    await closed
    await expect(writer.write({ jsonrpc: '2.0', method: 'x' } as Message)).rejects.toThrow(/closed/)
  })
})
