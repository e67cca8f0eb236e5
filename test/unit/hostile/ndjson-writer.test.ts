import { Writable } from 'node:stream'
import { expect, it } from 'vitest'
import { AgentUnresponsiveError, NdjsonMessageWriter } from '../../../main/acp/ndjson'

/** A pipe whose reader never reads: everything written stays buffered. */
function stuckPipe(): Writable {
  return new Writable({ highWaterMark: 1024, write: () => undefined })
}

it('bounds the outgoing queue: past it, writes fail and the agent is reported unresponsive once', async () => {
  const reports: number[] = []
  const writer = new NdjsonMessageWriter(stuckPipe(), { maxQueuedBytes: 64 * 1024, onUnresponsive: (queued) => reports.push(queued) })
  const big = { jsonrpc: '2.0', method: 'x', params: { pad: 'p'.repeat(10_000) } } as never
  const results: Promise<void>[] = []
  for (let i = 0; i < 20; i++) results.push(writer.write(big))
  // The first writes stay queued on the stuck pipe; the one that crosses the bound fails too (observed here, checked below).
  for (const result of results) result.catch(() => undefined)
  const settled = await Promise.allSettled(results.slice(7))
  expect(settled.every((r) => r.status === 'rejected' && r.reason instanceof AgentUnresponsiveError)).toBe(true)
  expect(reports).toHaveLength(1)
  expect(reports[0]).toBeLessThanOrEqual(64 * 1024)
  expect(writer.queuedBytes).toBeLessThanOrEqual(64 * 1024)
  writer.dispose()
})
