/**
 * One measurement of the flood, in a process of its own (so RSS is this path's alone), printed as one JSON
 * line on stdout. Spawned by `flood.ts` / `browser.ts`:
 *
 *   node --import tsx test/bench/flood-worker.ts <bare|transport|services> <count> [idle]
 *
 * Every path talks to the same child-process flood agent (test/agents/flood-agent.ts) over its stdio: one
 * `warmup` prompt (5,000 lines, so each path runs JIT-compiled code), then the measured prompt, timed from
 * writing `session/prompt` to the turn's end.
 *
 * Each path imports only its own code (`import()` inside it), so the bare loop's RSS is a Node process that
 * splits and parses, not one that also holds the app's modules.
 *
 * A third argument `idle`: also the RSS once the process has been idle long enough for V8's memory reducer to give back
 * the young generation the flood grew (it runs some seconds after the last allocation), up to 20 s.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { getHeapSpaceStatistics } from 'node:v8'
import { setTimeout as delay } from 'node:timers/promises'
import { join } from 'node:path'
import type { EventName, EventPayload, EventSink } from '../../common/contract'
import { HISTORY_THREAD_NICE } from '../../main/history/thread-priority'
import { floodAgentCommand } from './flood-agent-command'
import { buildFloodUpdates } from '../agents/flood-updates'
import { reportToParent } from './spawn-worker'
import { gc } from './gc'
import { startProfile } from './profile'

export interface WorkerResult {
  path: string
  count: number
  ms: number
  /** CPU time of this process over the same window (user + system, every thread): what contention on a shared machine does not inflate. */
  cpuMs: number
  /** CPU time of the main thread alone (the history writes on a thread of their own). */
  mainCpuMs: number
  /** After the run and a full GC. */
  rssMiB: number
  /** After the warm-up prompt and a full GC, before the measured one: what the path holds before the flood. */
  rssBeforeMiB: number
  /** With `idle`: after the flood, once V8 has shrunk the young generation again (or 20 s), and a full GC. */
  rssIdleMiB?: number
  /** The most this process ever held. */
  maxRssMiB: number
  /** V8's young generation after the run and the full GC (its pages stay committed: part of `rssMiB`, holding nothing). */
  youngMiB: number
  heapMiB: number
  updates: number
  /**
   * Services, Linux: the process CPU off main's thread over the same window, split by thread: the history thread (found
   * by its nice value, {@link HISTORY_THREAD_NICE}) and every other thread (V8's GC and compiler helpers, libuv's pool).
   * Read from /proc in clock ticks (10 ms), so a few tens of ms either way.
   */
  historyCpuMs?: number
  helperCpuMs?: number
  /** Socket frames / event batches (services). */
  batches?: number
  maxBatchUpdates?: number
  /** Services: the plans with entries sent (a plan a later one of its batch replaces is not). */
  plansSent?: number
}


/** Starts the clocks (wall, process CPU, main thread CPU); the returned function reads them. */
function stopwatch(): () => { ms: number; cpuMs: number; mainCpuMs: number } {
  const t = performance.now()
  const cpu = process.cpuUsage()
  const thread = threadCpu()
  return () => {
    const used = process.cpuUsage(cpu)
    return { ms: performance.now() - t, cpuMs: (used.user + used.system) / 1000, mainCpuMs: threadCpu() - thread }
  }
}

/** This thread's CPU time in ms (Node ≥ 22.19); NaN where Node cannot tell. */
function threadCpu(): number {
  const read = (process as { threadCpuUsage?: () => { user: number; system: number } }).threadCpuUsage
  if (!read) return NaN
  const used = read.call(process)
  return (used.user + used.system) / 1000
}

/** Linux: CPU ms and nice value of each of this process's threads but main's, by thread id (empty elsewhere). */
function otherThreads(): Map<string, { cpuMs: number; nice: number }> {
  const threads = new Map<string, { cpuMs: number; nice: number }>()
  if (process.platform !== 'linux') return threads
  const ticksMs = 10
  for (const tid of readdirSync('/proc/self/task')) {
    if (tid === String(process.pid)) continue
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8')
      // Fields after the command (which may hold spaces): utime is the 12th, stime the 13th, nice the 17th.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      threads.set(tid, { cpuMs: (Number(fields[11]) + Number(fields[12])) * ticksMs, nice: Number(fields[16]) })
    } catch {
      // The thread ended meanwhile.
    }
  }
  return threads
}

/** The CPU the threads besides main's used since `before`: the history thread's, and the rest's. */
function offMainCpu(before: Map<string, { cpuMs: number; nice: number }>): { historyCpuMs: number; helperCpuMs: number } | undefined {
  if (process.platform !== 'linux') return undefined
  let historyCpuMs = 0
  let helperCpuMs = 0
  for (const [tid, now] of otherThreads()) {
    const used = now.cpuMs - (before.get(tid)?.cpuMs ?? 0)
    if (now.nice === HISTORY_THREAD_NICE) historyCpuMs += used
    else helperCpuMs += used
  }
  return { historyCpuMs, helperCpuMs }
}

function spawnFlood(count: number): ChildProcessWithoutNullStreams {
  const { command, args } = floodAgentCommand(count)
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] })
  child.stderr.resume()
  return child
}

function line(child: ChildProcessWithoutNullStreams, message: unknown): void {
  child.stdin.write(JSON.stringify(message) + '\n')
}

/** The floor: split on `\n` and JSON.parse every line of the agent's stdout, count updates until the prompt's response. */
async function bare(count: number): Promise<WorkerResult> {
  const child = spawnFlood(count)
  let partial: Buffer[] = []
  let updates = 0
  const waiters = new Map<number, () => void>()
  child.stdout.on('data', (chunk: Buffer) => {
    let start = 0
    for (;;) {
      const newline = chunk.indexOf(0x0a, start)
      if (newline === -1) break
      let text: string
      if (partial.length > 0) {
        partial.push(chunk.subarray(start, newline))
        text = Buffer.concat(partial).toString('utf8')
        partial = []
      } else text = chunk.toString('utf8', start, newline)
      const message = JSON.parse(text) as { id?: number; params?: unknown }
      if (message.params) updates++
      else if (typeof message.id === 'number') waiters.get(message.id)?.()
      start = newline + 1
    }
    if (start < chunk.length) partial.push(Buffer.from(chunk.subarray(start)))
  })
  const request = (id: number, method: string, params: unknown) =>
    new Promise<void>((resolve) => {
      waiters.set(id, resolve)
      line(child, { jsonrpc: '2.0', id, method, params })
    })
  await request(1, 'initialize', { protocolVersion: 1, clientCapabilities: {} })
  await request(2, 'session/new', { cwd: tmpdir(), mcpServers: [] })
  await request(3, 'session/prompt', { sessionId: 'flood-1', prompt: [{ type: 'text', text: 'warmup' }] })
  updates = 0
  const before = rssAfterGc()
  const stop = stopwatch()
  await request(4, 'session/prompt', { sessionId: 'flood-1', prompt: [{ type: 'text', text: 'flood' }] })
  const result = await measure('bare', count, stop(), updates, before)
  child.kill()
  return result
}

/** The NDJSON reader and the connection's update path, nothing behind them. */
async function transport(count: number): Promise<WorkerResult> {
  const { createAcpConnection } = await import('../../main/acp/connection')
  const child = spawnFlood(count)
  const connection = createAcpConnection({ input: child.stdout, output: child.stdin, clientInfo: { name: 'bench', version: '0' } })
  let updates = 0
  connection.onDidReceiveUpdate(() => updates++)
  await connection.initialize({ preferredVersion: 1 })
  const { sessionId } = await connection.newSession({ cwd: tmpdir() })
  await connection.prompt(sessionId, [{ type: 'text', text: 'warmup' }])
  updates = 0
  const before = rssAfterGc()
  const stop = stopwatch()
  await connection.prompt(sessionId, [{ type: 'text', text: 'flood' }])
  const result = await measure('transport', count, stop(), updates, before)
  connection.dispose()
  child.kill()
  return result
}

/** The flood's message and thought chunks: what the services may deliver joined (their text is what counts). */
const isTextChunk = (update: { sessionUpdate?: unknown }) => update.sessionUpdate === 'agent_message_chunk' || update.sessionUpdate === 'agent_thought_chunk'

/** `createBosunServices` over a home whose one agent is the flood agent; the inspector closed; events counted. BENCH_PROFILE=<file> profiles it. */
async function services(count: number): Promise<WorkerResult> {
  const { createBosunServices } = await import('../../main/app/create-services')
  const home = mkdtempSync(join(tmpdir(), 'bosun-bench-'))
  const { command, args } = floodAgentCommand(count)
  // BENCH_SECRET=1: the agent has a secret (as when its API key is in the keychain), so every update is redacted.
  const secret = process.env.BENCH_SECRET ? { env: { FLOOD_API_KEY: 'sk-bench-0123456789abcdefghijklmnopqrstuv' }, secretEnv: ['FLOOD_API_KEY'] } : { env: {}, secretEnv: [] }
  writeFileSync(join(home, 'agents.json'), JSON.stringify({ version: 1, agents: [{ id: 'flood', name: 'Flood', command, args, ...secret, defaultCwd: home }] }))
  let batches = 0
  let updates = 0
  let maxBatchUpdates = 0
  // Runs of text chunks arrive joined (sessions-service coalesces them) and a plan a later one of its batch replaces is
  // left out or sent as a bare mark (superseded.ts): what is counted is every other update, the text of the chunks and
  // the plans that carry entries (the last one must be the flood's), checked against the flood after the measurement.
  let textChars = 0
  let plans = 0
  let lastPlan: unknown
  const events: EventSink = {
    emit<N extends EventName>(name: N, payload: EventPayload<N>): void {
      if (name !== 'sessionActions') return
      batches++
      for (const action of (payload as EventPayload<'sessionActions'>).actions) {
        if (action.type !== 'updates') continue
        for (const update of action.updates as { sessionUpdate: string; content?: { text?: unknown } }[]) {
          if (isTextChunk(update)) textChars += (update.content!.text as string).length
          else if (update.sessionUpdate !== 'plan') updates++
          else if ((update as { entries?: unknown }).entries !== undefined) {
            plans++
            lastPlan = update
          }
        }
        maxBatchUpdates = Math.max(maxBatchUpdates, action.updates.length)
      }
    },
  }
  const bosun = await createBosunServices({ home, host: 'web', appVersion: '0.0.0-bench', events })
  try {
    const created = await bosun.handlers.newSession({ agentId: 'flood', cwd: home })
    if (!created.ok) throw new Error(created.error.message)
    const warm = await bosun.handlers.prompt({ sessionId: created.value.sessionId, prompt: [{ type: 'text', text: 'warmup' }] })
    if (!warm.ok) throw new Error(warm.error.message)
    batches = updates = maxBatchUpdates = textChars = plans = 0
    const before = rssAfterGc()
    const profile = await startProfile()
    const threads = otherThreads()
    const stop = stopwatch()
    const turn = await bosun.handlers.prompt({ sessionId: created.value.sessionId, prompt: [{ type: 'text', text: 'flood' }] })
    const times = stop()
    const offMain = offMainCpu(threads)
    await profile?.()
    if (!turn.ok) throw new Error(turn.error.message)
    const result = { ...(await measure('services', count, times, count, before)), ...offMain, batches, maxBatchUpdates, plansSent: plans }
    // After the figures are read: the flood's own updates, built here, would weigh on them.
    const expected = buildFloodUpdates(count)
    const expectedText = expected.reduce((sum, u) => sum + (isTextChunk(u) ? (u.content as { text: string }).text.length : 0), 0)
    const expectedOther = expected.filter((u) => !isTextChunk(u) && u.sessionUpdate !== 'plan').length
    const expectedPlans = expected.filter((u) => u.sessionUpdate === 'plan')
    if (textChars !== expectedText || updates !== expectedOther) throw new Error(`services: saw ${updates} of ${expectedOther} updates and ${textChars} of ${expectedText} characters of text`)
    if (expectedPlans.length > 0 && (plans === 0 || JSON.stringify(lastPlan) !== JSON.stringify(expectedPlans.at(-1)))) throw new Error(`services: the last plan sent is not the flood's last (${plans} of ${expectedPlans.length} plans sent)`)
    return result
  } finally {
    await bosun.dispose()
    rmSync(home, { recursive: true, force: true })
  }
}

/** RSS in MiB after a full GC. */
function rssAfterGc(): number {
  gc()
  return process.memoryUsage().rss / 2 ** 20
}

async function measure(path: string, count: number, times: { ms: number; cpuMs: number; mainCpuMs: number }, updates: number, rssBeforeMiB: number): Promise<WorkerResult> {
  if (updates !== count) throw new Error(`${path}: saw ${updates} of ${count} updates`)
  gc()
  const memory = process.memoryUsage()
  const result: WorkerResult = { path, count, ...times, rssMiB: memory.rss / 2 ** 20, rssBeforeMiB, maxRssMiB: process.resourceUsage().maxRSS / 1024, youngMiB: youngMiB(), heapMiB: memory.heapUsed / 2 ** 20, updates }
  if (idle) result.rssIdleMiB = await rssOnceIdle()
  return result
}

/** The size of V8's young generation (new space), in MiB. */
const youngMiB = () => getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')!.space_size / 2 ** 20

/**
 * The RSS once V8's memory reducer has run: it shrinks the young generation some seconds after allocation stops
 * (what an app left idle after a flood gets). Polled, since V8 tells nobody; 20 s at most.
 */
async function rssOnceIdle(): Promise<number> {
  const grown = youngMiB()
  for (let waited = 0; waited < 20_000 && youngMiB() >= grown && grown > 1; waited += 500) await delay(500)
  return rssAfterGc()
}

const paths: Record<string, (count: number) => Promise<WorkerResult>> = { bare, transport, services }

const [path, countText, idleWord] = process.argv.slice(2)
const idle = idleWord === 'idle'
const run = path !== undefined ? paths[path] : undefined
if (!run) {
  process.stderr.write(`usage: flood-worker.ts <${Object.keys(paths).join('|')}> <count>\n`)
  process.exit(2)
}
reportToParent(run(Number(countText ?? 100_000)))
