/**
 * The flood end to end in the browser host: the built host (`out/web/web.mjs`) in a process of its own, Debian's
 * Chromium through Playwright from this one, the child-process flood agent.
 * Prints one JSON line. Spawned by `browser.ts`:
 *
 *   node --import tsx test/bench/browser-worker.ts <count>
 *
 * In the page: Enter → "Turn: Idle" shown, when the person's message, Working and the agent's first update
 * were first in the DOM, long tasks during the flood, then heap after GC, DOM size, and frame times while
 * scrolling the finished transcript from the end to the top. BENCH_FRAMES=1 prints the long animation frames
 * (script, render, style and layout time, and which callbacks ran) on stderr; BENCH_PAGE_SHOTS=<dir> saves the
 * finished transcript at its end, middle and top as PNGs.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import type { Page } from 'playwright'
import { buildFloodUpdates, transcriptTextChars } from '../agents/flood-updates'
import { messageBox, startSession, visible } from '../e2e/support/session-ui'
import { reportToParent } from './spawn-worker'
import { withFloodPage } from './flood-page'

export interface BrowserResult {
  count: number
  /** Enter → "Turn: Idle" in the page. */
  endToEndMs: number
  userMessageMs: number
  workingMs: number
  firstAgentUpdateMs: number
  /** When the page handled the host's last socket frame of the turn: close to Idle means the host (or the machine) is what the page waits for. */
  lastHostFrameMs: number
  /** Characters the host sent over the socket during the turn. */
  hostFrameMiB: number
  /** How many socket frames carried it. */
  hostFrames: number
  longTasks: number[]
  /** Transcript rows mounted during the turn, and the most in the DOM at once. */
  rows: { mounted: number; atOnce: number }
  /** The most spinners shown at once during the turn. */
  spinnersAtOnce: number
  /** The page's main thread, Enter → Idle: CPU time (ms; steadier than wall time on a loaded machine), layouts forced or not, and their time. */
  pageCpu: { threadMs: number; layouts: number; layoutMs: number; styleMs: number; scriptMs: number }
  scrollFrames: { count: number; p50: number; p95: number; max: number }
  heapAfterGcMiB: number
  /** The same before Enter: the app and an empty session. */
  heapBeforeMiB: number
  /** Of the page's heap, what Playwright's own scripts take (its selector engine, in two worlds): see {@link harnessHeapMiB}. */
  harnessHeapMiB: number
  transcriptTextMiB: number
  domElements: number
  /** The host's process (every thread), Enter → Idle. */
  hostCpuMs: number
  /** CPU time (ms) from Enter to Idle of the agent (the host's child processes) and of Chromium's processes, by type. */
  otherCpuMs: { agent: number; chromium: Record<string, number> }
  /** The host's process after the run (no forced GC: it is another process), and the most it held. */
  mainRssMiB: number
  mainMaxRssMiB: number
}

const AGENT = 'Flood'

/** Installed before the app loads: long tasks, and when each marker of the turn first appears. */
function probe(): void {
  type Probe = { longTasks: { start: number; duration: number }[]; enter: number; marks: Record<string, number>; frameBytes?: number; frameCount?: number; rowsMounted: number; rowsAtOnce: number; spinnersAtOnce: number }
  const p: Probe = { longTasks: [], enter: 0, marks: {}, rowsMounted: 0, rowsAtOnce: 0, spinnersAtOnce: 0 }
  ;(window as unknown as { __bench: Probe }).__bench = p
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) p.longTasks.push({ start: entry.startTime, duration: entry.duration })
  }).observe({ type: 'longtask', buffered: true })
  // What the long frames were made of (Chromium's long-animation-frame entries), for BENCH_FRAMES=1.
  const frames: unknown[] = []
  ;(window as unknown as { __frames: unknown[] }).__frames = frames
  type Frame = PerformanceEntry & { renderStart: number; styleAndLayoutStart: number; scripts: { invoker: string; duration: number; sourceFunctionName: string }[] }
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as Frame[]) {
        if (p.enter === 0) continue
        const end = entry.startTime + entry.duration
        frames.push({
          at: Math.round(entry.startTime - p.enter),
          ms: Math.round(entry.duration),
          script: Math.round(entry.scripts.reduce((sum, s) => sum + s.duration, 0)),
          render: Math.round((entry.styleAndLayoutStart || end) - (entry.renderStart || end)),
          layout: Math.round(end - (entry.styleAndLayoutStart || end)),
          by: entry.scripts.map((s) => `${s.invoker}:${Math.round(s.duration)}`).join(' '),
        })
      }
    }).observe({ type: 'long-animation-frame', buffered: true })
  } catch {
    // Not Chromium: no frame breakdown.
  }
  // When the host's frames arrive: the last one after Enter tells whether the host or the page finishes last.
  const NativeSocket = window.WebSocket
  window.WebSocket = class extends NativeSocket {
    constructor(...args: ConstructorParameters<typeof WebSocket>) {
      super(...args)
      this.addEventListener('message', (event: MessageEvent) => {
        if (p.enter === 0 || p.marks.idle !== undefined) return
        p.marks.lastFrame = event.timeStamp
        p.frameBytes = (p.frameBytes ?? 0) + (typeof event.data === 'string' ? event.data.length : 0)
        p.frameCount = (p.frameCount ?? 0) + 1
      })
    }
  }
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && p.enter === 0 && (event.target as HTMLElement).getAttribute('aria-label') === 'Message') p.enter = event.timeStamp
  }, true)
  let status: Element | null = null
  let rows: HTMLCollection | null = null
  let spinners: HTMLCollection | null = null
  const check = (records: MutationRecord[]) => {
    if (p.enter === 0) return
    // Transcript rows mounted during the turn, and the most in the DOM at once: what each shown batch lays out and paints.
    if (p.marks.idle === undefined) {
      for (const record of records) record.addedNodes.forEach((node) => void ((node as Element).classList?.contains('transcript-row') && p.rowsMounted++))
      rows ??= document.getElementsByClassName('transcript-row')
      p.rowsAtOnce = Math.max(p.rowsAtOnce, rows.length)
      // Spinners shown at once: each one steps 20 times a second, in one phase (one display frame a step for all of them).
      spinners ??= document.getElementsByClassName('spinner')
      p.spinnersAtOnce = Math.max(p.spinnersAtOnce, spinners.length)
    }
    const now = performance.now()
    if (p.marks.user === undefined && document.querySelector('[aria-label="Your message"]')) p.marks.user = now
    if (!status?.isConnected) status = document.querySelector('[role="status"][aria-label^="Turn:"]')
    const label = status?.getAttribute('aria-label') ?? ''
    if (p.marks.working === undefined && label !== '' && label !== 'Turn: Idle') p.marks.working = now
    if (p.marks.agent === undefined && document.querySelector('[aria-label="Flood says"]')) p.marks.agent = now
    if (p.marks.working !== undefined && p.marks.idle === undefined && label === 'Turn: Idle') p.marks.idle = now
  }
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-label'] })
}

/** The page's JS heap (MiB) after two full collections. */
async function heapAfterGc(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('HeapProfiler.enable')
  await cdp.send('HeapProfiler.collectGarbage')
  await cdp.send('HeapProfiler.collectGarbage')
  const heap = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number }
  await cdp.detach()
  return heap.usedSize / 2 ** 20
}

/**
 * What Playwright itself adds to a page's heap once a test has used it: its injected selector engine, kept in the page's
 * world and in a utility world of its own (most of it the engine's source text, twice). A person's window has none of
 * it, so the bench prints the app's heap without it too. Measured on a second window of the same app, opened after the
 * flood run's figures are taken: heap after GC once the app has drawn and settled (waited for through the DevTools
 * protocol, which injects nothing), then again after Playwright calls that only read (each world's engine is injected
 * at its first use; a click or keys would make the app draw, and that heap is the app's); the difference is Playwright's.
 */
async function harnessHeapMiB(page: Page, url: string): Promise<number> {
  const context = await page.context().browser()!.newContext({ viewport: { width: 1280, height: 800 } })
  const second = await context.newPage()
  try {
    await second.goto(url)
    const cdp = await second.context().newCDPSession(second)
    const drawn = 'document.querySelector(\'[role="log"][aria-label="Transcript"]\') !== null && document.querySelector(\'textarea[aria-label="Message"]\') !== null'
    // Polled: a wait on the page's side would be Playwright's script in the page.
    for (let tries = 0; ; tries++) {
      const { result } = (await cdp.send('Runtime.evaluate', { expression: drawn, returnByValue: true })) as { result: { value?: unknown } }
      if (result.value === true) break
      if (tries > 600) throw new Error('the second window never showed the session')
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    await cdp.detach()
    // Settled: the app has nothing more to load or draw (two collections in a row agree within 16 KiB; at most 10 tries).
    let before = await heapAfterGc(second)
    for (let tries = 0, settled = await heapAfterGc(second); tries < 10 && Math.abs(settled - before) > 1 / 64; tries++, settled = await heapAfterGc(second)) before = settled
    const log = second.getByRole('log', { name: 'Transcript' })
    await visible(log)
    await visible(second.getByRole('status', { name: 'Turn: Idle' }))
    await log.evaluate((el) => el.scrollTop)
    await messageBox(second).evaluate((el) => (el as HTMLTextAreaElement).value)
    await second.waitForFunction(() => document.readyState === 'complete', undefined, { polling: 250 })
    await second.evaluate(() => document.getElementsByTagName('*').length)
    return (await heapAfterGc(second)) - before
  } finally {
    await context.close()
  }
}

/** CPU time (ms) of each of Chromium's processes so far, summed by type (browser, renderer, GPU, utility…), from Chromium itself. */
async function chromiumCpu(page: Page): Promise<Record<string, number>> {
  const cdp = await page.context().browser()!.newBrowserCDPSession()
  try {
    const { processInfo } = (await cdp.send('SystemInfo.getProcessInfo')) as { processInfo: { type: string; id: number; cpuTime: number }[] }
    const byType: Record<string, number> = {}
    for (const { type, cpuTime } of processInfo) byType[type] = (byType[type] ?? 0) + cpuTime * 1000
    return byType
  } finally {
    await cdp.detach()
  }
}

async function writeHeapSnapshot(page: Page, file: string): Promise<void> {
  const cdp = await page.context().newCDPSession(page)
  const chunks: string[] = []
  cdp.on('HeapProfiler.addHeapSnapshotChunk', ({ chunk }: { chunk: string }) => chunks.push(chunk))
  await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false })
  await cdp.detach()
  writeFileSync(file, chunks.join(''))
}

/** Screenshots of the transcript at its end, its middle and its top (`<dir>/transcript-<count>-<where>.png`), then back at its end. */
async function shootTranscript(page: Page, dir: string, count: number): Promise<void> {
  mkdirSync(dir, { recursive: true })
  const log = page.getByRole('log', { name: 'Transcript' })
  const settle = () => page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))))
  const shoot = async (where: string) => {
    // Rows measured on the way move the view a little; a few frames let it settle.
    for (let i = 0; i < 4; i++) await settle()
    await page.screenshot({ path: `${dir}/transcript-${count}-${where}.png` })
  }
  await shoot('end')
  // As the person does it: Home leaves the end (a scroll made by a script is followed back to the end).
  await log.focus()
  await page.keyboard.press('Home')
  await shoot('top')
  await log.evaluate((el) => {
    el.scrollTop = (el.scrollHeight - el.clientHeight) / 2
  })
  await shoot('middle')
  await page.keyboard.press('End')
  for (let i = 0; i < 4; i++) await settle()
}

async function run(count: number): Promise<BrowserResult> {
  return withFloodPage({ count, agentName: AGENT, probe }, async (page, home, host) => {
    await startSession(page, { agentName: AGENT, cwd: home })
    const box = messageBox(page)
    await box.fill('flood')
    // The page's heap before the flood (the app, its code, an empty session), so the growth can be told apart.
    const heapBefore = await heapAfterGc(page)
    // BENCH_PAGE_HEAP=<file>: <file>.before is the same snapshot before Enter, to compare with.
    if (process.env.BENCH_PAGE_HEAP) await writeHeapSnapshot(page, `${process.env.BENCH_PAGE_HEAP}.before`)
    // BENCH_PAGE_PROFILE=<file>: a CPU profile of the page from Enter to Idle (for finding what to fix).
    const profileFile = process.env.BENCH_PAGE_PROFILE
    const profiler = profileFile ? await page.context().newCDPSession(page) : undefined
    if (profiler) {
      await profiler.send('Profiler.enable')
      await profiler.send('Profiler.start')
    }
    const metrics = await page.context().newCDPSession(page)
    await metrics.send('Performance.enable')
    const readMetrics = async () => {
      const { metrics: list } = (await metrics.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] }
      return Object.fromEntries(list.map((m) => [m.name, m.value])) as Record<string, number>
    }
    // BENCH_PAGE_TRACE=<file>: a Chromium trace from Enter to Idle (its events carry thread CPU time, `tdur`, which a loaded
    // machine stretches less than wall time): what the page's main thread and Chromium's other threads spent, by task.
    const traceFile = process.env.BENCH_PAGE_TRACE
    const browser = page.context().browser()
    if (traceFile && browser) await browser.startTracing(page, { path: traceFile, categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'v8.execute', 'blink', 'toplevel', 'disabled-by-default-v8.gc', 'loading', 'cc', 'gpu', 'ipc', 'mojom'] })
    const before = await readMetrics()
    const hostCpuBefore = host.cpuMs()
    const agentCpuBefore = host.childrenCpuMs()
    const chromiumCpuBefore = await chromiumCpu(page)
    await box.press('Enter')
    // BENCH_PAGE_SHOTS=<dir>: the page mid-flood too, once the agent's first words are shown (the screenshot takes the page's time).
    const shots = process.env.BENCH_PAGE_SHOTS
    if (shots) {
      await page.waitForFunction(() => (window as unknown as { __bench: { marks: { agent?: number } } }).__bench.marks.agent !== undefined, undefined, { timeout: 300_000, polling: 'raf' })
      mkdirSync(shots, { recursive: true })
      await page.screenshot({ path: `${shots}/transcript-${count}-mid-flood.png` })
    }
    await page.waitForFunction(() => (window as unknown as { __bench: { marks: { idle?: number } } }).__bench.marks.idle !== undefined, undefined, { timeout: 300_000, polling: 250 })
    const marks = await page.evaluate(() => {
      const p = (window as unknown as { __bench: { enter: number; marks: Record<string, number>; frameBytes?: number; frameCount?: number; rowsMounted: number; rowsAtOnce: number; spinnersAtOnce: number; longTasks: { start: number; duration: number }[] } }).__bench
      return { enter: p.enter, marks: p.marks, frameBytes: p.frameBytes ?? 0, frameCount: p.frameCount ?? 0, rowsMounted: p.rowsMounted, rowsAtOnce: p.rowsAtOnce, spinnersAtOnce: p.spinnersAtOnce, longTasks: p.longTasks.filter((t) => t.start + t.duration >= p.enter && t.start <= p.marks.idle!).map((t) => Math.round(t.duration)) }
    })
    const hostCpuMs = host.cpuMs() - hostCpuBefore
    const agentCpuMs = host.childrenCpuMs() - agentCpuBefore
    const chromiumCpuAfter = await chromiumCpu(page)
    await visible(page.getByRole('status', { name: 'Turn: Idle' }))
    if (process.env.BENCH_FRAMES) {
      const frames = await page.evaluate(() => (window as unknown as { __frames: { at: number }[] }).__frames)
      for (const frame of frames) process.stderr.write(`[frame] ${JSON.stringify(frame)}\n`)
    }
    if (traceFile && browser) await browser.stopTracing()
    const after = await readMetrics()
    const delta = (name: string, scale = 1000) => ((after[name] ?? 0) - (before[name] ?? 0)) * scale
    if (profiler && profileFile) {
      const { profile } = (await profiler.send('Profiler.stop')) as { profile: unknown }
      writeFileSync(profileFile, JSON.stringify(profile))
    }

    // BENCH_PAGE_SHOTS=<dir>: the finished transcript at its end, its middle and its top, as PNGs (to look at).
    if (shots) await shootTranscript(page, shots, count)

    // Scrolling the finished transcript: from the end to the top, one step per frame.
    const scrollFrames = await page.getByRole('log', { name: 'Transcript' }).evaluate(async (log) => {
      const deltas: number[] = []
      let last = performance.now()
      for (let i = 0; i < 180 && log.scrollTop > 0; i++) {
        log.scrollTop = Math.max(0, log.scrollTop - 1200)
        await new Promise<void>((resolve) => requestAnimationFrame(() => resolve()))
        const now = performance.now()
        deltas.push(now - last)
        last = now
      }
      deltas.sort((a, b) => a - b)
      const at = (q: number) => Math.round((deltas[Math.min(deltas.length - 1, Math.floor(q * deltas.length))] ?? 0) * 10) / 10
      return { count: deltas.length, p50: at(0.5), p95: at(0.95), max: at(1) }
    })

    const heapAfter = await heapAfterGc(page)
    // BENCH_PAGE_HEAP=<file>: a heap snapshot of the page after the flood (what its heap holds; <file>.before: before Enter).
    if (process.env.BENCH_PAGE_HEAP) await writeHeapSnapshot(page, process.env.BENCH_PAGE_HEAP)
    const domElements = await page.evaluate(() => document.getElementsByTagName('*').length)
    const harnessHeap = await harnessHeapMiB(page, host.url)
    const hostMemory = host.rssMiB()
    const since = (mark: string | undefined) => (mark === undefined ? NaN : Number(mark) - marks.enter)
    return {
      count,
      endToEndMs: since(String(marks.marks.idle)),
      userMessageMs: since(marks.marks.user === undefined ? undefined : String(marks.marks.user)),
      workingMs: since(marks.marks.working === undefined ? undefined : String(marks.marks.working)),
      firstAgentUpdateMs: since(marks.marks.agent === undefined ? undefined : String(marks.marks.agent)),
      lastHostFrameMs: since(marks.marks.lastFrame === undefined ? undefined : String(marks.marks.lastFrame)),
      hostFrameMiB: marks.frameBytes / 2 ** 20,
      hostFrames: marks.frameCount,
      longTasks: marks.longTasks,
      rows: { mounted: marks.rowsMounted, atOnce: marks.rowsAtOnce },
      spinnersAtOnce: marks.spinnersAtOnce,
      pageCpu: { threadMs: delta('ThreadTime'), layouts: delta('LayoutCount', 1), layoutMs: delta('LayoutDuration'), styleMs: delta('RecalcStyleDuration'), scriptMs: delta('ScriptDuration') },
      scrollFrames,
      heapAfterGcMiB: heapAfter,
      heapBeforeMiB: heapBefore,
      harnessHeapMiB: harnessHeap,
      transcriptTextMiB: transcriptTextChars(buildFloodUpdates(count)) / 2 ** 20,
      domElements,
      hostCpuMs,
      otherCpuMs: { agent: agentCpuMs, chromium: Object.fromEntries(Object.entries(chromiumCpuAfter).map(([type, ms]) => [type, ms - (chromiumCpuBefore[type] ?? 0)])) },
      mainRssMiB: hostMemory.rss,
      mainMaxRssMiB: hostMemory.max,
    }
  })
}

reportToParent(run(Number(process.argv[2] ?? 100_000)))
