/**
 * The flood through the whole of main (`createBosunServices`: pipe → reader → connection → sessions →
 * batcher → reducer → events), with the history written (`on`, on its thread as Bosun runs it) or off
 * (`off`: the home's history file cannot be opened, so the store keeps nothing and nothing is recorded), in
 * a process of its own. Prints one JSON line. Spawned by `history.ts`:
 *
 *   node --expose-gc --import tsx test/bench/history-flood-worker.ts <on|off> <count>
 *
 * Main's thread CPU (`/proc/thread-self/schedstat`, Linux) from `session/prompt` to the turn's end; the whole
 * process's (`process.cpuUsage()`, the history thread too) until the history has written everything.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createBosunServices } from '../../main/app/create-services'
import { HISTORY_FILE } from '../../main/history/sqlite-history-store'
import type { EventSink } from '../../common/contract'
import { floodAgentCommand } from './flood-agent-command'
import { reportToParent } from './spawn-worker'

export interface HistoryFloodResult {
  history: 'on' | 'off'
  count: number
  ms: number
  processCpuMs: number
  mainThreadCpuMs: number
  /** After the turn: how long the history thread took to finish what was posted (on). */
  settleMs: number
}

const gc = (globalThis as { gc?: () => void }).gc ?? (() => {})

function threadCpuMs(): number {
  try {
    return Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6
  } catch {
    return Number.NaN
  }
}

async function run(history: 'on' | 'off', count: number): Promise<HistoryFloodResult> {
  const home = mkdtempSync(join(tmpdir(), 'bosun-bench-history-'))
  // A folder where the database file should be: history is off, as with a read-only home.
  if (history === 'off') mkdirSync(join(home, HISTORY_FILE))
  const { command, args } = floodAgentCommand(count)
  writeFileSync(join(home, 'agents.json'), JSON.stringify({ version: 1, agents: [{ id: 'flood', name: 'Flood', command, args, env: {}, secretEnv: [], defaultCwd: home }] }))
  const events: EventSink = { emit() {} }
  const bosun = await createBosunServices({ home, host: 'web', appVersion: '0.0.0-bench', events })
  try {
    // On: the history must run as the app runs it, on its thread (a fallback to main's would skew every figure).
    const listed = await bosun.handlers.historyList({})
    if (history === 'on' && (!listed.ok || listed.value.problem)) throw new Error(`history is not on its thread: ${listed.ok ? listed.value.problem?.message : listed.error.message}`)
    const created = await bosun.handlers.newSession({ agentId: 'flood', cwd: home })
    if (!created.ok) throw new Error(created.error.message)
    const warm = await bosun.handlers.prompt({ sessionId: created.value.sessionId, prompt: [{ type: 'text', text: 'warmup' }] })
    if (!warm.ok) throw new Error(warm.error.message)
    gc()
    const t = performance.now()
    const cpu = process.cpuUsage()
    const thread = threadCpuMs()
    const turn = await bosun.handlers.prompt({ sessionId: created.value.sessionId, prompt: [{ type: 'text', text: 'flood' }] })
    const ms = performance.now() - t
    const mainThreadCpuMs = threadCpuMs() - thread
    if (!turn.ok) throw new Error(turn.error.message)
    // What the history still has to write: a search flushes the recorder and waits for the thread.
    const s = performance.now()
    const searched = await bosun.handlers.historySearch({ query: 'token' })
    const settleMs = performance.now() - s
    if (!searched.ok || (history === 'on' && searched.value.hits.length === 0)) throw new Error(`history ${history}: the flood was not stored`)
    const used = process.cpuUsage(cpu)
    return { history, count, ms, processCpuMs: (used.user + used.system) / 1000, mainThreadCpuMs, settleMs }
  } finally {
    await bosun.dispose()
    rmSync(home, { recursive: true, force: true })
  }
}

const [mode, countText] = process.argv.slice(2)
if (mode !== 'on' && mode !== 'off') {
  process.stderr.write('usage: history-flood-worker.ts <on|off> <count>\n')
  process.exit(2)
}
reportToParent(run(mode, Number(countText ?? 100_000)))
