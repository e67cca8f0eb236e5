/**
 * In-process throughput of the session/update hot path (a section of `npm run bench`).
 *
 * 100,000 mixed `session/update` notifications (text and thought chunks, tool_call/tool_call_update,
 * plan) are serialised once into one buffer, then pushed through
 *   1. a bare split-on-newline + JSON.parse loop (the floor),
 *   2. the real NDJSON reader + AcpClientConnection update path (onDidReceiveUpdate),
 *   3. the same plus the session reducer (common/session/reducer.ts `applyActions`), applied in
 *      batches the way the sessions layer coalesces updates before they reach the store.
 */
import { PassThrough } from 'node:stream'
import { createAcpConnection } from '../../main/acp/connection'
import type { SessionUpdateNotification } from '../../main/acp/types'
import { applyActions, createSessionState } from '../../common/session/reducer'
import type { SessionState } from '../../common/session/types'
import type { BenchSection } from './section'
import { buildFloodUpdates } from '../agents/flood-updates'

const COUNT = Number(process.env.BENCH_HOT_COUNT ?? 100_000)
const BATCH = Number(process.env.BENCH_BATCH ?? 256)
const CHUNK_BYTES = 64 * 1024
const SESSION = 'bench-session'

function serialise(updates: Record<string, unknown>[]): Buffer {
  return Buffer.from(updates.map((update) => JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: SESSION, update } })).join('\n') + '\n', 'utf8')
}

function bareParse(buffer: Buffer): number {
  let count = 0
  let start = 0
  for (;;) {
    const newline = buffer.indexOf(0x0a, start)
    if (newline === -1) break
    const message = JSON.parse(buffer.toString('utf8', start, newline)) as { params?: unknown }
    if (message.params) count++
    start = newline + 1
  }
  return count
}

/** Pushes the buffer through a real connection; `onUpdate` sees every update; resolves after `expected`. */
async function throughConnection(buffer: Buffer, expected: number, onUpdate: (n: SessionUpdateNotification) => void): Promise<void> {
  const input = new PassThrough({ highWaterMark: CHUNK_BYTES })
  const output = new PassThrough()
  output.resume()
  const connection = createAcpConnection({ input, output, clientInfo: { name: 'bench', version: '0' } })
  let seen = 0
  let problems = 0
  connection.onDidReportProblem(() => problems++)
  await new Promise<void>((resolve) => {
    connection.onDidReceiveUpdate((notification) => {
      onUpdate(notification)
      if (++seen === expected) resolve()
    })
    for (let offset = 0; offset < buffer.length; offset += CHUNK_BYTES) input.write(buffer.subarray(offset, offset + CHUNK_BYTES))
  })
  connection.dispose()
  if (problems) console.warn(`warning: ${problems} transport problems reported`)
}

export const hotPathSection: BenchSection = { name: 'hot-path: in process (no pipe, no child)', run: () => hotPath() }

async function hotPath(): Promise<void> {
  const buffer = serialise(buildFloodUpdates(COUNT))
  const rate = (count: number, ms: number) => Math.round(count / (ms / 1000))
  const mib = (buffer.length / 1024 / 1024).toFixed(1)
  console.log(`  session/update bench: ${COUNT} updates, ${mib} MiB, node ${process.version}, reducer batch ${BATCH}`)

  // Warm up every path once so the JIT has seen them, then measure.
  bareParse(buffer.subarray(0, buffer.indexOf(0x0a, 2_000_000) + 1))
  await throughConnection(serialise(buildFloodUpdates(5_000)), 5_000, () => {})

  let t = performance.now()
  const parsed = bareParse(buffer)
  const bareMs = performance.now() - t
  if (parsed !== COUNT) throw new Error(`bare loop parsed ${parsed}`)

  t = performance.now()
  await throughConnection(buffer, COUNT, () => {})
  const connectionMs = performance.now() - t

  let state: SessionState = createSessionState({ sessionId: SESSION, agentId: 'bench', protocolVersion: 1, cwd: '/project' })
  let batch: SessionUpdateNotification['update'][] = []
  t = performance.now()
  await throughConnection(buffer, COUNT, (notification) => {
    batch.push(notification.update)
    if (batch.length === BATCH) {
      state = applyActions(state, [{ type: 'updates', updates: batch }])
      batch = []
    }
  })
  if (batch.length) state = applyActions(state, [{ type: 'updates', updates: batch }])
  const reducerMs = performance.now() - t

  const rows: [string, number][] = [
    ['bare split + JSON.parse', bareMs],
    ['NDJSON reader + connection', connectionMs],
    ['  + session reducer', reducerMs],
  ]
  for (const [name, ms] of rows) {
    console.log(`  ${name.padEnd(30)} ${ms.toFixed(0).padStart(6)} ms  ${rate(COUNT, ms).toLocaleString('en-US').padStart(11)} updates/s  ${(ms / bareMs).toFixed(2)}x bare`)
  }
  console.log(`  reducer result: ${state.entries.length} entries, ${state.plans.length} plan(s), seq ${state.seq}`)
}
