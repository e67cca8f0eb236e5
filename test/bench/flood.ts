/**
 * The flood through real pipes: a child-process flood agent (test/agents/flood-agent.ts) writes N mixed
 * `session/update` lines on one prompt, the same bytes for every client, read by
 *   bare       a split-on-newline + JSON.parse loop over the agent's stdout (the floor),
 *   transport  the NDJSON reader and the connection's update path,
 *   services   `createBosunServices` (reader → connection → sessions → batcher → reducer), inspector closed.
 * Each run is a process of its own (RSS is that path's), running the worker built by `vite.bench.config.ts` with
 * plain Node: the app's code bundled as it ships, for every path alike. Paths are interleaved, medians over BENCH_REPS runs
 * (default 3 at 100k, 1 at other sizes). Wall time suffers from a busy machine; CPU time (user + system of
 * that process, same window) much less, so both are printed with their ratios to the bare loop, and the
 * main thread's CPU alone (the history writes on a thread of its own, which the process CPU includes).
 *
 * Below the services' row (Linux): the CPU of the process's other threads in the same window, the history thread's
 * (found by its nice value) and the rest's (V8's GC and compiler helpers, libuv), from /proc in 10 ms ticks.
 *
 * RSS is read after a full GC: before the flood (after the warm-up prompt), right after it, and at 100k also
 * once idle (V8's memory reducer gives back the young generation the flood grew some seconds later). The bare
 * loop's process holds none of the app's modules, so the services' ratio includes what the app holds anyway.
 *
 * The linearity rows print µs per update at each N and, for CPU, the largest N's against 100k's (1.00 is linear).
 *
 * BENCH_COUNTS=10000,50000,100000,200000,400000 (default). BENCH_SERVICES_FLAGS='--max-semi-space-size=4': Node/V8
 * flags for the services path only (what a host could start main with; the bare loop and the transport keep Node's
 * defaults). At 100k, the services' young generation after the run is printed: committed pages that hold nothing
 * after the GC, yet part of the RSS (V8 grows it to its maximum in a flood, 16 MiB per semi-space by default).
 */
import type { BenchSection } from './section'
import type { WorkerResult } from './flood-worker'
import { BUNDLED_FLOOD_WORKER, fixed, median, runWorker } from './spawn-worker'

const PATHS = ['bare', 'transport', 'services'] as const

export const floodSection: BenchSection = {
  name: 'flood: child-process agent → bare loop | transport | services',
  async run(context) {
    const counts = (process.env.BENCH_COUNTS ?? '10000,50000,100000,200000,400000').split(',').map(Number)
    const servicesFlags = (process.env.BENCH_SERVICES_FLAGS ?? '').split(' ').filter(Boolean)
    if (servicesFlags.length > 0) console.log(`  services run with ${servicesFlags.join(' ')}`)
    console.log('  N        path        wall ms  ×bare   cpu ms  ×bare  main cpu ×bare   RSS MiB ×bare  before  max RSS  batches  max updates/batch  plans sent')
    const idleRows: string[] = []
    const perUpdate: { count: number; path: string; cpuUsPerUpdate: number; wallUsPerUpdate: number }[] = []
    for (const count of counts) {
      const reps = Number(process.env.BENCH_REPS ?? (count === 100_000 ? 3 : 1))
      const runs = new Map<string, WorkerResult[]>(PATHS.map((p) => [p, []]))
      for (let rep = 0; rep < reps; rep++) for (const path of PATHS) runs.get(path)!.push(await runWorker<WorkerResult>('flood-worker.ts', [path, String(count), ...(count === 100_000 ? ['idle'] : [])], { bundle: BUNDLED_FLOOD_WORKER, ...(path === 'services' ? { nodeFlags: servicesFlags } : {}) }))
      const med = (path: string, key: 'ms' | 'cpuMs' | 'mainCpuMs' | 'rssMiB' | 'rssBeforeMiB' | 'rssIdleMiB' | 'maxRssMiB' | 'youngMiB' | 'historyCpuMs' | 'helperCpuMs') => median(runs.get(path)!.map((r) => r[key] ?? NaN))
      const bare = { ms: med('bare', 'ms'), cpuMs: med('bare', 'cpuMs'), mainCpuMs: med('bare', 'mainCpuMs'), rssMiB: med('bare', 'rssMiB') }
      if (count === 100_000) {
        context.shared.set('bare.ms@100000', bare.ms)
        context.shared.set('bare.cpuMs@100000', bare.cpuMs)
        context.shared.set('bare.rssMiB@100000', bare.rssMiB)
      }
      for (const path of PATHS) {
        const ms = med(path, 'ms')
        const cpuMs = med(path, 'cpuMs')
        const mainCpuMs = med(path, 'mainCpuMs')
        const rss = med(path, 'rssMiB')
        const last = runs.get(path)!.at(-1)!
        perUpdate.push({ count, path, cpuUsPerUpdate: (cpuMs * 1000) / count, wallUsPerUpdate: (ms * 1000) / count })
        console.log(
          `  ${String(count).padEnd(8)} ${path.padEnd(10)} ${fixed(ms).padStart(8)} ${fixed(ms / bare.ms, 2).padStart(5)}x ${fixed(cpuMs).padStart(8)} ${fixed(cpuMs / bare.cpuMs, 2).padStart(5)}x ${fixed(mainCpuMs).padStart(8)} ${fixed(mainCpuMs / bare.mainCpuMs, 2).padStart(5)}x ${fixed(rss, 1).padStart(8)} ${fixed(rss / bare.rssMiB, 2).padStart(4)}x ${fixed(med(path, 'rssBeforeMiB'), 1).padStart(7)} ${fixed(med(path, 'maxRssMiB'), 1).padStart(8)} ${String(last.batches ?? '').padStart(8)} ${String(last.maxBatchUpdates ?? '').padStart(8)} ${String(last.plansSent ?? '').padStart(18)}` +
            (reps > 1 ? `   (median of ${reps})` : ''),
        )
        const history = med(path, 'historyCpuMs')
        if (Number.isFinite(history)) console.log(`  ${''.padEnd(8)} ${''.padEnd(10)} off main's thread: history thread ${fixed(history)} ms, other threads (GC, compiler, libuv) ${fixed(med(path, 'helperCpuMs'))} ms`)
        const idle = med(path, 'rssIdleMiB')
        if (Number.isFinite(idle)) idleRows.push(`    ${path.padEnd(10)} ${fixed(idle, 1).padStart(7)} MiB  ${fixed(idle / med('bare', 'rssIdleMiB'), 2)}x bare once idle; young generation right after the run ${fixed(med(path, 'youngMiB'), 1)} MiB`)
      }
    }
    if (idleRows.length > 0) console.log(`  RSS at 100k once idle (after V8's memory reducer; medians):\n${idleRows.join('\n')}`)
    console.log('  linearity (µs per update, wall | cpu; cpu per update at the largest N ÷ at 100k):')
    for (const path of PATHS) {
      const rows = perUpdate.filter((r) => r.path === path)
      const at100k = rows.find((r) => r.count === 100_000)
      const largest = rows.at(-1)
      const growth = at100k && largest && largest !== at100k ? `   ${largest.count / 1000}k/100k ${fixed(largest.cpuUsPerUpdate / at100k.cpuUsPerUpdate, 2)}x` : ''
      console.log(`    ${path.padEnd(10)} ${rows.map((r) => `${r.count / 1000}k ${fixed(r.wallUsPerUpdate, 2)} | ${fixed(r.cpuUsPerUpdate, 2)}`).join('   ')}${growth}`)
    }
  },
}
