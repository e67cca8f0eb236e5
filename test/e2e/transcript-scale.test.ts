/**
 * A 10,000-entry transcript (issue 3, 6c): the real agent streams 5,000 messages and 4,998 tool calls into one
 * session. The transcript is virtualized (only rows near the view are in the DOM), the ends are reachable, and
 * an idle session does no work: no animation-frame loop, no timers, no DOM changes, no long tasks.
 *
 * Timing is kept lenient (two cores, CI): the hard checks count things (rows, callbacks, mutations); long tasks
 * are only checked against generous bounds.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { createSocketClient, type SocketClient, type SocketLike } from '../../renderer/bridge/socket-client'
import { WS_PATH } from '../../common/wire'
import { launchPerTest, screenshot, type E2eApp } from './support/harness'
import { agentSays, gone, inTranscriptView, sendPrompt, startSession, transcript, visible, waitIdle } from './support/session-ui'

const AGENT = 'Scripted agent'
const ENTRIES = 10_000
/** Rows in the DOM: what fits in the view plus overscan, whatever the transcript's length. */
const MAX_ROWS = 150
/** The "flood" turn: message, tool call, message, … and a last message (with the user's prompt: ENTRIES entries). */
const PAIRS = (ENTRIES - 2) / 2

let client: SocketClient | undefined
let scratch: string | undefined
// Hooks run last registered first: the client goes, then the app, then its folder.
afterEach(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true })
  scratch = undefined
})
const launch = launchPerTest()
afterEach(() => {
  client?.dispose()
  client = undefined
})

/** Every entry distinct: v1 chunks with their own messageId each, tool calls with their own id. */
function floodScenario(): string {
  const steps: unknown[] = []
  const message = (id: string, text: string) => ({ type: 'update', update: { sessionUpdate: 'agent_message_chunk', messageId: id, content: { type: 'text', text } } })
  for (let i = 1; i <= PAIRS; i++) {
    steps.push(message(`msg-${i}`, `Message ${i} of the long transcript`))
    steps.push({ type: 'tool_call', id: `call-${i}`, title: `Step ${i}`, kind: 'read', status: 'completed' })
  }
  steps.push(message('msg-last', `The end: entry ${ENTRIES}`))
  scratch = mkdtempSync(join(tmpdir(), 'bosun-scale-'))
  const file = join(scratch, 'flood.json')
  writeFileSync(file, JSON.stringify({ prompts: { flood: steps } }))
  return file
}

/**
 * Installed before the app loads: counts animation-frame and timer callbacks (and live intervals), records long
 * tasks, and keeps the original setTimeout for the test's own measuring window.
 */
function instrumentPage(): void {
  type Probe = { raf: number; timeouts: number; intervals: Set<number>; intervalTicks: number; longTasks: number[]; setTimeout: typeof setTimeout }
  const w = window as unknown as { __probe: Probe }
  const probe: Probe = { raf: 0, timeouts: 0, intervals: new Set(), intervalTicks: 0, longTasks: [], setTimeout: window.setTimeout.bind(window) }
  w.__probe = probe
  const raf = window.requestAnimationFrame.bind(window)
  window.requestAnimationFrame = (callback) =>
    raf((time) => {
      probe.raf++
      callback(time)
    })
  const timeout = window.setTimeout.bind(window)
  window.setTimeout = ((handler: TimerHandler, ms?: number, ...args: unknown[]) =>
    timeout(
      (...a: unknown[]) => {
        probe.timeouts++
        if (typeof handler === 'function') (handler as (...x: unknown[]) => void)(...a)
      },
      ms,
      ...args,
    )) as typeof setTimeout
  const interval = window.setInterval.bind(window)
  window.setInterval = ((handler: TimerHandler, ms?: number, ...args: unknown[]) => {
    const id = interval(
      (...a: unknown[]) => {
        probe.intervalTicks++
        if (typeof handler === 'function') (handler as (...x: unknown[]) => void)(...a)
      },
      ms,
      ...args,
    )
    probe.intervals.add(id)
    return id
  }) as typeof setInterval
  const clear = window.clearInterval.bind(window)
  window.clearInterval = ((id?: number) => {
    if (id !== undefined) probe.intervals.delete(id)
    clear(id)
  }) as typeof clearInterval
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) probe.longTasks.push(Math.round(entry.duration))
  }).observe({ type: 'longtask', buffered: true })
}

interface IdleReport {
  raf: number
  timeouts: number
  intervalTicks: number
  liveIntervals: number
  mutations: number
  longTasks: number[]
}

/**
 * Waits (in the page) for the DOM to stay unchanged for `quietMs` (bounded by `maxWaitMs`), then measures a
 * `windowMs` window: callbacks, DOM mutations and long tasks that happened during it.
 */
async function measureIdle(app: E2eApp, quietMs: number, windowMs: number, maxWaitMs: number): Promise<IdleReport> {
  return app.page.evaluate(
    ([quiet, span, maxWait]) => {
      type Probe = { raf: number; timeouts: number; intervals: Set<number>; intervalTicks: number; longTasks: number[]; setTimeout: typeof setTimeout }
      const probe = (window as unknown as { __probe: Probe }).__probe
      const later = probe.setTimeout
      return new Promise<IdleReport>((resolve) => {
        let mutations = 0
        let quietTimer: ReturnType<typeof setTimeout> | undefined
        const startWindow = () => {
          observer.disconnect()
          const start = { raf: probe.raf, timeouts: probe.timeouts, intervalTicks: probe.intervalTicks, longTasks: probe.longTasks.length }
          mutations = 0
          const counting = new MutationObserver((records) => (mutations += records.length))
          counting.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true })
          later(() => {
            counting.disconnect()
            resolve({
              raf: probe.raf - start.raf,
              timeouts: probe.timeouts - start.timeouts,
              intervalTicks: probe.intervalTicks - start.intervalTicks,
              liveIntervals: probe.intervals.size,
              mutations,
              longTasks: probe.longTasks.slice(start.longTasks),
            })
          }, span)
        }
        // Settled = no DOM change for `quiet` ms (or give up waiting after `maxWait` and measure anyway).
        const observer = new MutationObserver(() => {
          if (quietTimer !== undefined) clearTimeout(quietTimer)
          quietTimer = later(startWindow, quiet)
        })
        observer.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true })
        quietTimer = later(startWindow, quiet)
        later(() => {
          if (quietTimer !== undefined) {
            clearTimeout(quietTimer)
            quietTimer = undefined
            startWindow()
          }
        }, maxWait)
      })
    },
    [quietMs, windowMs, maxWaitMs] as const,
  )
}

const rowCount = (app: E2eApp) => transcript(app.page).evaluate((el) => el.querySelectorAll('.transcript-row').length)

describe('a 10,000-entry transcript (v1 agent)', () => {
  it('keeps the DOM small, reaches both ends, and does nothing while idle', async () => {
    const app = await launch([{ id: 'scripted', name: AGENT, scenario: floodScenario() }], { beforeLoad: (page) => page.addInitScript(instrumentPage) })
    const { page } = app
    const { host } = app
    client = createSocketClient({
      url: `ws://127.0.0.1:${host.port}${WS_PATH}?token=${encodeURIComponent(host.token)}`,
      connect: (url) => new WebSocket(url, { origin: host.origin }) as unknown as SocketLike,
    })
    await startSession(page, { agentName: AGENT, cwd: app.home.workspace })
    const log = transcript(page)

    await sendPrompt(page, 'flood')
    // The view follows the stream to its end.
    const last = agentSays(page, AGENT).getByText(`The end: entry ${ENTRIES}`)
    await visible(last, 120_000)
    await waitIdle(page)
    await inTranscriptView(last)
    const snapshot = await client.api.getSnapshot(undefined)
    if (!snapshot.ok) throw new Error(snapshot.error.message)
    expect(snapshot.value.sessions[0]!.entries).toHaveLength(ENTRIES)
    expect(await rowCount(app)).toBeLessThan(MAX_ROWS)
    await screenshot(page, 'transcript-scale-end')

    // The top: Home on the focused transcript. The first entries are there, and still only a window of rows.
    // Under load the scroll event of the last follow-to-end scroll can arrive after the key: it is sent here, right
    // after the key's own handling, and must not make the view follow the end again (it used to: the rows at the top
    // were then never rendered and the view went back to the end).
    await log.focus()
    await page.evaluate(() => {
      const el = document.querySelector('[role="log"]')!
      window.addEventListener('keydown', () => el.dispatchEvent(new Event('scroll')), { once: true })
    })
    await log.press('Home')
    await inTranscriptView(log.getByLabel('Your message').getByText('flood', { exact: true }))
    await inTranscriptView(agentSays(page, AGENT).getByText('Message 1 of the long transcript', { exact: true }))
    expect(await rowCount(app)).toBeLessThan(MAX_ROWS)
    expect(await log.getByText(`The end: entry ${ENTRIES}`).count()).toBe(0)
    await screenshot(page, 'transcript-scale-top')

    // End goes back to the end and follows again (no "Jump to latest"); Home leaves it once more.
    await log.press('End')
    await inTranscriptView(last)
    await gone(page.getByRole('button', { name: 'Jump to latest' }))
    await log.press('Home')
    await inTranscriptView(log.getByLabel('Your message').getByText('flood', { exact: true }))

    // Back to the end with "Jump to latest" (shown because the view stopped following).
    await (await visible(page.getByRole('button', { name: 'Jump to latest' }))).click()
    await inTranscriptView(last)
    await inTranscriptView(log.getByRole('article', { name: `Read: Step ${PAIRS}` }))
    expect(await rowCount(app)).toBeLessThan(MAX_ROWS)

    // Idle: after the DOM settles, a 2 s window with no frame loop, no timers and no DOM work.
    const idle = await measureIdle(app, 500, 2_000, 15_000)
    const allLongTasks = await page.evaluate(() => (window as unknown as { __probe: { longTasks: number[] } }).__probe.longTasks)
    console.log(`idle window: ${JSON.stringify(idle)}; long tasks over the whole run (ms): ${JSON.stringify(allLongTasks)}`)
    expect(idle.raf).toBeLessThanOrEqual(1)
    expect(idle.intervalTicks).toBe(0)
    expect(idle.liveIntervals).toBe(0)
    expect(idle.timeouts).toBeLessThanOrEqual(1)
    expect(idle.mutations).toBe(0)
    expect(idle.longTasks.filter((ms) => ms > 200)).toEqual([])
    // The probe sees what it counts: one frame requested now is one more callback.
    const before = await page.evaluate(() => (window as unknown as { __probe: { raf: number } }).__probe.raf)
    const after = await page.evaluate(
      () => new Promise<number>((resolve) => requestAnimationFrame(() => resolve((window as unknown as { __probe: { raf: number } }).__probe.raf))),
    )
    expect(after - before).toBe(1)
  })
})
