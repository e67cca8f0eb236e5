/**
 * The flood end to end in the browser host: Enter in Chromium (Debian's, through Playwright) → "Turn: Idle"
 * shown, with the real services and the child-process flood agent (see browser-worker.ts). Prints the time
 * and its ratio to the bare loop measured by the flood section in the same run, when the person's message,
 * Working and the agent's first update appeared, long tasks during the flood, scrolling frame times over the
 * finished transcript, the page's heap after GC against the transcript's text, DOM size, and the host's RSS.
 *
 * Needs the build (`npm run build`: the renderer and the host's bundle). BENCH_BROWSER_COUNTS=100000 (default; comma list).
 */
import { availableParallelism } from 'node:os'
import type { BenchSection } from './section'
import type { BrowserResult } from './browser-worker'
import { fixed, runWorker } from './spawn-worker'

export const browserSection: BenchSection = {
  name: 'browser host end to end (Chromium)',
  async run(context) {
    const counts = (process.env.BENCH_BROWSER_COUNTS ?? '100000').split(',').map(Number)
    for (const count of counts) {
      const r = await runWorker<BrowserResult>('browser-worker.ts', [String(count)])
      const bareMs = context.shared.get(`bare.ms@${count}`)
      const bareRss = context.shared.get(`bare.rssMiB@${count}`)
      const over50 = r.longTasks.filter((ms) => ms > 50)
      const firstAgent = r.firstAgentUpdateMs
      // A mark the page never saw arrives as null (JSON has no NaN): it is not "first".
      const seen = [r.userMessageMs, r.workingMs, firstAgent].every((ms) => typeof ms === 'number' && Number.isFinite(ms))
      const ordered = seen && r.userMessageMs <= firstAgent && r.workingMs <= firstAgent
      console.log(`  N = ${count}`)
      console.log(`    Enter → Idle shown          ${fixed(r.endToEndMs).padStart(7)} ms` + (bareMs ? `   ${fixed(r.endToEndMs / bareMs, 2)}x bare loop (${fixed(bareMs)} ms)` : '   (no bare loop at this N in this run)'))
      console.log(`    your message / Working / first agent update: ${fixed(r.userMessageMs)} / ${fixed(r.workingMs)} / ${fixed(firstAgent)} ms after Enter — ${ordered ? 'message and Working first' : seen ? 'NOT before the agent' : 'NOT ALL SEEN'}`)
      console.log(`    host's last frame handled    ${fixed(r.lastHostFrameMs).padStart(7)} ms after Enter (${fixed(r.hostFrameMiB, 1)} MiB of JSON over the socket in ${r.hostFrames} frames)`)
      const cpu = r.pageCpu
      console.log(`    page main thread, Enter → Idle CPU ${fixed(cpu.threadMs)} ms; ${cpu.layouts} layouts (${fixed(cpu.layoutMs)} ms), style ${fixed(cpu.styleMs)} ms, script ${fixed(cpu.scriptMs)} ms`)
      console.log(`    transcript rows mounted      ${r.rows.mounted} during the turn, at most ${r.rows.atOnce} at once; spinners at most ${r.spinnersAtOnce} at once`)
      console.log(`    long tasks during the flood  ${r.longTasks.length} (${over50.length} over 50 ms, longest ${fixed(Math.max(0, ...r.longTasks))} ms)`)
      console.log(`    scrolling end → top          ${r.scrollFrames.count} frames, p50 ${r.scrollFrames.p50} ms, p95 ${r.scrollFrames.p95} ms, max ${r.scrollFrames.max} ms`)
      console.log(`    page heap after GC           ${fixed(r.heapAfterGcMiB, 1)} MiB = ${fixed(r.heapAfterGcMiB / r.transcriptTextMiB, 2)}x the transcript's text (${fixed(r.transcriptTextMiB, 1)} MiB)`)
      const own = r.heapAfterGcMiB - r.harnessHeapMiB
      console.log(`      without Playwright's own   ${fixed(own, 1)} MiB = ${fixed(own / r.transcriptTextMiB, 2)}x the text (Playwright's injected scripts: ${fixed(r.harnessHeapMiB, 2)} MiB, measured on a second window of the app)`)
      const grown = r.heapAfterGcMiB - r.heapBeforeMiB
      console.log(`      of which the flood         ${fixed(grown, 1)} MiB = ${fixed(grown / r.transcriptTextMiB, 2)}x the text (the app and an empty session: ${fixed(r.heapBeforeMiB, 1)} MiB)`)
      console.log(`    DOM elements                 ${r.domElements}`)
      console.log(`    host process CPU, Enter → Idle ${fixed(r.hostCpuMs)} ms (every thread: main, GC, history)`)
      const chromium = Object.entries(r.otherCpuMs.chromium).filter(([, ms]) => ms >= 1).sort((a, b) => b[1] - a[1])
      const all = r.hostCpuMs + r.otherCpuMs.agent + chromium.reduce((sum, [, ms]) => sum + ms, 0)
      console.log(`    every process's CPU, Enter → Idle ${fixed(all)} ms = ${fixed(all / r.endToEndMs, 2)} cores busy on average: host ${fixed(r.hostCpuMs)}, agent ${fixed(r.otherCpuMs.agent)}, Chromium ${chromium.map(([type, ms]) => `${type} ${fixed(ms)}`).join(', ')} (this machine has ${availableParallelism()})`)
      console.log(`    host RSS (no forced GC)      ${fixed(r.mainRssMiB, 1)} MiB (max ${fixed(r.mainMaxRssMiB, 1)})` + (bareRss ? ` = ${fixed(r.mainRssMiB / bareRss, 2)}x the bare loop's` : ''))
    }
  },
}
