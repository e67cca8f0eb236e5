/**
 * A real ACP connection whose agent side is the test: it reads every message Bosun writes, one at a time, and writes
 * what the test scripts, as NDJSON over in-memory streams.
 */
import { PassThrough } from 'node:stream'
import { createAcpConnection, type AcpConnectionOptions } from '../../main/acp/connection'
import type { TransportProblem } from '../../main/acp/types'

export type Json = Record<string, unknown>

export function acpPeer(options: Partial<Omit<AcpConnectionOptions, 'input' | 'output'>> = {}) {
  const toClient = new PassThrough()
  const fromClient = new PassThrough()
  const inbox: Json[] = []
  const waiters: ((m: Json) => void)[] = []
  let buffer = ''
  fromClient.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8')
    let cut: number
    while ((cut = buffer.indexOf('\n')) >= 0) {
      const message = JSON.parse(buffer.slice(0, cut)) as Json
      buffer = buffer.slice(cut + 1)
      const waiter = waiters.shift()
      if (waiter) waiter(message)
      else inbox.push(message)
    }
  })
  const connection = createAcpConnection({ clientInfo: { name: 'bosun', version: '1.2.3' }, ...options, input: toClient, output: fromClient })
  const problems: TransportProblem[] = []
  connection.onDidReportProblem((p) => problems.push(p))
  return {
    connection,
    problems,
    /** The next message Bosun wrote. */
    next: (): Promise<Json> => (inbox.length ? Promise.resolve(inbox.shift()!) : new Promise((resolve) => waiters.push(resolve))),
    send: (message: Json) => toClient.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\n'),
    /** Several messages in one write (one chunk for the reader). */
    sendTogether: (...messages: Json[]) => toClient.write(messages.map((m) => JSON.stringify({ jsonrpc: '2.0', ...m }) + '\n').join('')),
    end: () => toClient.end(),
  }
}
