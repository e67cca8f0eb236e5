import { Writable } from 'node:stream'
import { expect, it, vi } from 'vitest'
import { AgentUnresponsiveError, MessageTooLargeError, NdjsonMessageWriter } from '../../../main/acp/ndjson-writer'
import type { TransportProblem } from '../../../main/acp/types'

/** A pipe whose reader never reads: everything written stays buffered. */
function stuckPipe(): Writable {
  return new Writable({ highWaterMark: 1024, write: () => undefined })
}

/** A pipe read only when the test says so: `read()` takes the chunk the pipe is writing; `lines` is what was read. */
function pipeReadByHand() {
  const lines: string[] = []
  let pending: { chunk: Buffer; done: (error?: Error | null) => void } | undefined
  let fail: Error | undefined
  const writable = new Writable({
    highWaterMark: 1024,
    write(chunk: Buffer, _encoding, done) {
      if (fail) return done(fail)
      pending = { chunk, done }
    },
  })
  return {
    writable,
    lines,
    /** Reads the chunk being written (the next ones follow as the stream hands them over). */
    read(): boolean {
      if (!pending) return false
      const { chunk, done } = pending
      pending = undefined
      lines.push(chunk.toString('utf8').trimEnd())
      done()
      return true
    },
    failNext(error: Error) {
      fail = error
      if (pending) {
        const { done } = pending
        pending = undefined
        done(error)
      }
    },
  }
}

const notification = (chars: number) => ({ jsonrpc: '2.0', method: 'x', params: { pad: 'p'.repeat(chars) } }) as never
const request = (id: number, chars: number) => ({ jsonrpc: '2.0', id, method: 'session/prompt', params: { pad: 'p'.repeat(chars) } }) as never

it('an agent that never reads: past the bound messages wait, past three times the bound every write fails and the agent is reported unresponsive once', async () => {
  const reports: number[] = []
  const writer = new NdjsonMessageWriter(stuckPipe(), { maxQueuedBytes: 64 * 1024, onUnresponsive: (queued) => reports.push(queued) })
  const results: Promise<void>[] = []
  for (let i = 0; i < 20; i++) results.push(writer.write(notification(10_000)))
  for (const result of results) result.catch(() => undefined)
  // Six fit in the pipe's buffer, twelve more wait; the nineteenth finds both full.
  const settled = await Promise.allSettled(results.slice(6))
  expect(settled.every((r) => r.status === 'rejected' && r.reason instanceof AgentUnresponsiveError)).toBe(true)
  expect(reports).toHaveLength(1)
  expect(reports[0]).toBeGreaterThan(64 * 1024)
  expect(reports[0]).toBeLessThanOrEqual(3 * 64 * 1024)
  // What waited in the writer was let go; the pipe's buffer keeps its bound.
  expect(writer.queuedBytes).toBeLessThanOrEqual(64 * 1024)
  await expect(writer.write(notification(10))).rejects.toBeInstanceOf(AgentUnresponsiveError)
  writer.dispose()
})

it('an agent that reads slowly gets answers larger than the bound together in order, and is not called unresponsive', async () => {
  const pipe = pipeReadByHand()
  const reports: number[] = []
  const writer = new NdjsonMessageWriter(pipe.writable, { maxQueuedBytes: 64 * 1024, onUnresponsive: (queued) => reports.push(queued) })
  // Three answers of 40 KB: more than the bound together (three large files asked for at once).
  const answers = [1, 2, 3].map((id) => writer.write({ jsonrpc: '2.0', id, result: { content: String(id).repeat(40_000) } } as never))
  expect(writer.queuedBytes).toBeGreaterThan(64 * 1024)
  while (pipe.read()) await new Promise((resolve) => setImmediate(resolve))
  await Promise.all(answers)
  expect(pipe.lines.map((line) => (JSON.parse(line) as { id: number }).id)).toEqual([1, 2, 3])
  expect(reports).toEqual([])
  expect(writer.queuedBytes).toBe(0)
  writer.dispose()
})

it('messages that wait while the agent reads nothing for the stall time: the agent is called unresponsive and they fail', async () => {
  const pipe = pipeReadByHand()
  let unresponsive!: (queued: number) => void
  const reported = new Promise<number>((resolve) => (unresponsive = resolve))
  const writer = new NdjsonMessageWriter(pipe.writable, { maxQueuedBytes: 64 * 1024, stallMs: 30, onUnresponsive: (queued) => unresponsive(queued) })
  void writer.write(notification(40_000)).catch(() => undefined)
  const waiting = writer.write(notification(40_000))
  expect(await reported).toBeGreaterThan(80_000)
  await expect(waiting).rejects.toBeInstanceOf(AgentUnresponsiveError)
  writer.dispose()
})

it('an agent that keeps reading, however slowly, is never stalled out', async () => {
  // The stall clock is faked: on a busy machine a real 25 ms wait can outlast the 40 ms stall time.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
  try {
    const pipe = pipeReadByHand()
    const reports: number[] = []
    const writer = new NdjsonMessageWriter(pipe.writable, { maxQueuedBytes: 32 * 1024, stallMs: 40, onUnresponsive: (queued) => reports.push(queued) })
    const writes = Array.from({ length: 8 }, () => writer.write(notification(10_000)))
    // One message read every 25 ms: 200 ms in all, five stall times, with progress within each.
    for (let read = 0; read < 8; read++) {
      await vi.advanceTimersByTimeAsync(25)
      expect(pipe.read()).toBe(true)
    }
    await Promise.all(writes)
    expect(reports).toEqual([])
    expect(pipe.lines).toHaveLength(8)
    writer.dispose()
  } finally {
    vi.useRealTimers()
  }
})

it('a request larger than the whole queue is never sent: its caller gets the error and the write itself succeeds', async () => {
  const pipe = pipeReadByHand()
  const notSent: [unknown, Error][] = []
  const writer = new NdjsonMessageWriter(pipe.writable, { maxQueuedBytes: 1024, onRequestNotSent: (id, error) => notSent.push([id, error]) })
  await expect(writer.write(request(7, 5_000))).resolves.toBeUndefined()
  expect(notSent).toHaveLength(1)
  expect(notSent[0]![0]).toBe(7)
  expect(notSent[0]![1]).toBeInstanceOf(MessageTooLargeError)
  expect(notSent[0]![1].message).toBe("The message is too large to send to the agent (5 KiB; at most 1 KiB)")
  expect(pipe.read()).toBe(false)
  // Without an owner to answer, the write rejects (as vscode-jsonrpc expects of a writer).
  const bare = new NdjsonMessageWriter(pipeReadByHand().writable, { maxQueuedBytes: 1024 })
  await expect(bare.write(request(8, 5_000))).rejects.toBeInstanceOf(MessageTooLargeError)
  writer.dispose()
  bare.dispose()
})

it('our answer larger than the whole queue goes as an error in its place; a notification that large is dropped; both are reported', async () => {
  const pipe = pipeReadByHand()
  const problems: TransportProblem[] = []
  const writer = new NdjsonMessageWriter(pipe.writable, { maxQueuedBytes: 1024, onProblem: (problem) => problems.push(problem) })
  const answered = writer.write({ jsonrpc: '2.0', id: 'r-1', result: { content: 'x'.repeat(5_000) } } as never)
  pipe.read()
  await answered
  expect(JSON.parse(pipe.lines[0]!)).toEqual({ jsonrpc: '2.0', id: 'r-1', error: { code: -32603, message: expect.stringMatching(/^Bosun's answer is too large to send/) } })
  await expect(writer.write(notification(5_000))).resolves.toBeUndefined()
  expect(pipe.read()).toBe(false)
  expect(problems.map((p) => p.kind)).toEqual(['message-too-large', 'message-too-large'])
  writer.dispose()
})

it('a request whose write fails (the agent is gone) and a request after the agent was called unresponsive are answered by the owner, not rejected', async () => {
  const pipe = pipeReadByHand()
  const notSent: unknown[] = []
  const writer = new NdjsonMessageWriter(pipe.writable, { maxQueuedBytes: 64 * 1024, stallMs: 10, onRequestNotSent: (id) => notSent.push(id) })
  const first = writer.write(request(1, 10))
  pipe.failNext(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }))
  await expect(first).resolves.toBeUndefined()
  expect(notSent).toEqual([1])
  writer.dispose()

  const stuck = new NdjsonMessageWriter(stuckPipe(), { maxQueuedBytes: 1024, onRequestNotSent: (id) => notSent.push(id) })
  for (let i = 0; i < 3; i++) void stuck.write(notification(900)).catch(() => undefined)
  // Three times the bound: unresponsive. Requests from now on are answered by the owner.
  await expect(stuck.write(notification(900))).rejects.toBeInstanceOf(AgentUnresponsiveError)
  await expect(stuck.write(request(2, 10))).resolves.toBeUndefined()
  expect(notSent).toEqual([1, 2])
  stuck.dispose()
})

it('bytes the agent leaves in the pipe unread for the input stall time are said once, with how many; said again as read; nothing fails', async () => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
  try {
    const pipe = pipeReadByHand()
    const said: (number | null)[] = []
    const writer = new NdjsonMessageWriter(pipe.writable, { inputStallMs: 5_000, stallMs: 60_000, onInputStall: (stall) => said.push(stall && stall.waitingBytes) })
    // A small prompt behind what the agent left in the pipe: it waits there, and nothing else tells.
    const first = writer.write(notification(2_000))
    const prompt = writer.write(request(1, 300))
    await vi.advanceTimersByTimeAsync(4_999)
    expect(said).toEqual([])
    expect(writer.inputStall).toBeNull()
    await vi.advanceTimersByTimeAsync(1)
    expect(said).toHaveLength(1)
    expect(said[0]).toBeGreaterThan(2_300)
    expect(writer.inputStall).toEqual({ waitingBytes: said[0], unreadMs: 5_000 })
    // Once, however long it stays so.
    await vi.advanceTimersByTimeAsync(20_000)
    expect(said).toHaveLength(1)
    // The agent reads: said so; the prompt still waits, so the clock starts again from that read.
    expect(pipe.read()).toBe(true)
    await first
    expect(said).toEqual([said[0], null])
    expect(writer.inputStall).toBeNull()
    await vi.advanceTimersByTimeAsync(5_000)
    expect(said).toHaveLength(3)
    expect(pipe.read()).toBe(true)
    await prompt
    expect(said[3]).toBeNull()
    // Nothing waits: nothing is watched.
    await vi.advanceTimersByTimeAsync(60_000)
    expect(said).toHaveLength(4)
    writer.dispose()
  } finally {
    vi.useRealTimers()
  }
})

it('an agent that reads what it is sent is never said stalled', async () => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
  try {
    const pipe = pipeReadByHand()
    const said: (number | null)[] = []
    const writer = new NdjsonMessageWriter(pipe.writable, { inputStallMs: 5_000, onInputStall: (stall) => said.push(stall && stall.waitingBytes) })
    const writes = Array.from({ length: 6 }, (_, i) => writer.write(request(i, 500)))
    for (let read = 0; read < 6; read++) {
      await vi.advanceTimersByTimeAsync(4_000)
      expect(pipe.read()).toBe(true)
    }
    await Promise.all(writes)
    await vi.advanceTimersByTimeAsync(60_000)
    expect(said).toEqual([])
    writer.dispose()
  } finally {
    vi.useRealTimers()
  }
})
