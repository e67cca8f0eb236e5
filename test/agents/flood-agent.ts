/**
 * A minimal ACP v1 agent for the benchmark: answers `initialize` and `session/new`, and on every
 * `session/prompt` writes the whole flood (built and serialised once at start-up, so the agent's own cost
 * stays out of the measured window) and then the prompt's response. No SDK: nothing between the
 * prepared bytes and the pipe.
 *
 *   node --import tsx test/agents/flood-agent.ts --count 100000
 */
import { buildFloodUpdates, FLOOD_SESSION_ID, serialiseFlood } from './flood-updates'

const args = process.argv.slice(2)
const countArg = args.indexOf('--count')
const count = countArg >= 0 ? Number(args[countArg + 1]) : 100_000
if (!Number.isInteger(count) || count < 0) {
  process.stderr.write('usage: flood-agent.ts --count <n>\n')
  process.exit(2)
}
const flood = serialiseFlood(buildFloodUpdates(count))
/** A prompt whose text is `warmup` gets the first lines only (at most 5,000): clients warm their JIT on it. */
const WARMUP_LINES = Math.min(count, 5_000)
const warmup = flood.subarray(0, WARMUP_LINES === 0 ? 0 : nthNewline(flood, WARMUP_LINES) + 1)

function nthNewline(buffer: Buffer, n: number): number {
  let at = -1
  for (let i = 0; i < n; i++) at = buffer.indexOf(0x0a, at + 1)
  return at
}

function promptText(params: unknown): string {
  const prompt = (params as { prompt?: { text?: unknown }[] } | undefined)?.prompt
  return Array.isArray(prompt) && typeof prompt[0]?.text === 'string' ? prompt[0].text : ''
}

const reply = (id: unknown, result: unknown) => JSON.stringify({ jsonrpc: '2.0', id, result }) + '\n'

function handle(message: { id?: unknown; method?: unknown; params?: unknown }): void {
  if (message.id === undefined || typeof message.method !== 'string') return
  switch (message.method) {
    case 'initialize':
      process.stdout.write(reply(message.id, { protocolVersion: 1, agentCapabilities: {}, authMethods: [], agentInfo: { name: 'flood', version: '1' } }))
      return
    case 'session/new':
      process.stdout.write(reply(message.id, { sessionId: FLOOD_SESSION_ID }))
      return
    case 'session/prompt':
      // One write: the pipe paces it, the bytes are the same for every client.
      process.stdout.write(Buffer.concat([promptText(message.params) === 'warmup' ? warmup : flood, Buffer.from(reply(message.id, { stopReason: 'end_turn' }))]))
      return
    default:
      process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: `Method not found: ${message.method}` } }) + '\n')
  }
}

let pending = ''
process.stdin.setEncoding('utf8')
process.stdin.on('data', (chunk: string) => {
  pending += chunk
  let newline: number
  while ((newline = pending.indexOf('\n')) >= 0) {
    const line = pending.slice(0, newline).trim()
    pending = pending.slice(newline + 1)
    if (!line) continue
    try {
      handle(JSON.parse(line) as { id?: unknown; method?: unknown })
    } catch {
      // Not for us.
    }
  }
})
process.stdin.on('end', () => process.exit(0))
