/**
 * Request ids JSON.parse does not keep exactly (checklist B3: the answer echoes the id "with identical JSON type and
 * value"): an integer past 2^53 reads as a neighbour (`9007199254740993` as …992), so an answer written from the
 * number read carries another id, and two such requests read as one id. The answer carries the id as written.
 */
import { PassThrough } from 'node:stream'
import { expect, it } from 'vitest'
import { createAcpConnection } from '../../../main/acp/connection'
import { MAX_REQUEST_ID_CHARS } from '../../../main/acp/ndjson'
import { rawNumberId } from '../../../main/acp/request-ids'

function connectionWithHeldHandler() {
  const toClient = new PassThrough()
  const fromClient = new PassThrough()
  const lines: string[] = []
  let buffered = ''
  fromClient.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8')
    const parts = buffered.split('\n')
    buffered = parts.pop()!
    lines.push(...parts)
  })
  const connection = createAcpConnection({ input: toClient, output: fromClient, clientInfo: { name: 'bosun', version: '1' } })
  const held: (() => void)[] = []
  let heard = 0
  connection.handlers.registerRequest('_test/hold', (params) => {
    heard++
    return new Promise((resolve) => held.push(() => resolve({ echo: params })))
  })
  return {
    connection,
    lines,
    held,
    heard: () => heard,
    write: (line: string) => toClient.write(line + '\n'),
  }
}

const until = async (condition: () => boolean) => {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve))
}

it('answers two requests whose ids read as one number (past 2^53), each under its own id as written', async () => {
  const agent = connectionWithHeldHandler()
  agent.write('{"jsonrpc":"2.0","id":9007199254740993,"method":"_test/hold","params":{"n":1}}')
  agent.write('{"jsonrpc":"2.0","id":9007199254740992,"method":"_test/hold","params":{"n":2}}')
  agent.write('{"jsonrpc":"2.0","id":12345678901234567890123,"method":"_test/hold","params":{"n":3}}')
  await until(() => agent.heard() === 3)
  for (const answer of agent.held) answer()
  await until(() => agent.lines.length === 3)
  expect(agent.lines).toEqual([
    '{"jsonrpc":"2.0","id":9007199254740993,"result":{"echo":{"n":1}}}',
    '{"jsonrpc":"2.0","id":9007199254740992,"result":{"echo":{"n":2}}}',
    '{"jsonrpc":"2.0","id":12345678901234567890123,"result":{"echo":{"n":3}}}',
  ])
  agent.connection.dispose()
})

it('refuses a request whose id (as written) is still in use under that id, and the first still gets its answer', async () => {
  const agent = connectionWithHeldHandler()
  agent.write('{"jsonrpc":"2.0","id":9007199254740993,"method":"_test/hold","params":{"n":1}}')
  agent.write('{"id":9007199254740993,"jsonrpc":"2.0","method":"_test/hold","params":{"n":2}}')
  await until(() => agent.heard() === 1 && agent.lines.length === 1)
  expect(JSON.stringify(JSON.parse(agent.lines[0]!).error)).toContain('still in progress')
  expect(agent.lines[0]).toMatch(/^\{"jsonrpc":"2\.0","id":9007199254740993,"error":/)
  agent.held[0]!()
  await until(() => agent.lines.length === 2)
  expect(agent.lines[1]).toBe('{"jsonrpc":"2.0","id":9007199254740993,"result":{"echo":{"n":1}}}')
  agent.connection.dispose()
})

it('reads the id as written only where JSON.parse changes it: not for strings and safe integers, never anything but a number', () => {
  expect(rawNumberId(7, '{"id":7,"method":"m"}')).toBeUndefined()
  expect(rawNumberId('9007199254740993', '{"id":"9007199254740993","method":"m"}')).toBeUndefined()
  expect(rawNumberId(9007199254740992, '{"method":"m","params":{"id":1},"id":9007199254740993}')).toBe('9007199254740993')
  // A duplicate key: JSON.parse keeps the last, and so does the scan.
  expect(rawNumberId(9007199254740992, '{"id":1,"id":9007199254740993,"method":"m"}')).toBe('9007199254740993')
  expect(rawNumberId(1e300, '{"id":1e300,"method":"m"}')).toBe('1e300')
})

it('refuses a request whose id is longer than Bosun keeps (-32600 under id null, nothing runs), and answers one at the bound', async () => {
  const agent = connectionWithHeldHandler()
  const long = 'i'.repeat(MAX_REQUEST_ID_CHARS + 1)
  // An integer past 2^53 (answered under its text) written with a thousand zeros after its point.
  const longNumber = `9007199254740993.${'0'.repeat(MAX_REQUEST_ID_CHARS)}`
  agent.write(JSON.stringify({ jsonrpc: '2.0', id: long, method: '_test/hold', params: {} }))
  agent.write(`{"jsonrpc":"2.0","id":${longNumber},"method":"_test/hold","params":{}}`)
  agent.write(JSON.stringify({ jsonrpc: '2.0', id: long.slice(1), method: '_test/hold', params: { n: 1 } }))
  await until(() => agent.heard() === 1 && agent.lines.length === 2)
  expect(agent.lines.map((line) => JSON.parse(line) as unknown)).toEqual([
    { jsonrpc: '2.0', id: null, error: { code: -32600, message: `Invalid Request: an id of more than ${MAX_REQUEST_ID_CHARS} characters` } },
    { jsonrpc: '2.0', id: null, error: { code: -32600, message: `Invalid Request: an id of more than ${MAX_REQUEST_ID_CHARS} characters` } },
  ])
  agent.held[0]!()
  await until(() => agent.lines.length === 3)
  expect(JSON.parse(agent.lines[2]!)).toEqual({ jsonrpc: '2.0', id: long.slice(1), result: { echo: { n: 1 } } })
  agent.connection.dispose()
})
