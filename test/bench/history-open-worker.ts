/**
 * Opening a stored 100,000-update session in the browser host (issue 12: first transcript paint ≤ 1 s), in a
 * process of its own. Prints one JSON line. Spawned by `history.ts`:
 *
 *   node --expose-gc --import tsx test/bench/history-open-worker.ts <count>
 *
 * The session is made as Bosun makes it (the reducer over the flood, written by the recorder), then the
 * real web host and services start on that home, Debian's Chromium loads the page, and the time is taken
 * in the page from the click on the session in the sidebar to the first transcript entry in the DOM and to
 * the frame after it (painted). Nothing starts the agent: the transcript comes from the database.
 */
import { applyActions, createSessionState } from '../../common/session/reducer'
import { createLogger } from '../../main/base/log'
import { HistoryRecorder } from '../../main/history/recorder'
import { openHistoryStore } from '../../main/history/sqlite-history-store'
import { buildFloodUpdates } from '../agents/flood-updates'
import { visible } from '../e2e/support/session-ui'
import { reportToParent } from './spawn-worker'
import { withFloodPage } from './flood-page'

export interface HistoryOpenResult {
  count: number
  entries: number
  /** Click → the first transcript entry in the DOM. */
  firstEntryMs: number
  /** Click → the frame after it (the entry painted). */
  firstPaintMs: number
  /** Click → the last entry of the transcript in the DOM (the view opens at the end). */
  lastEntryMs: number
}

const AGENT = 'Flood'
const TITLE = 'the stored flood'

/** Installed before the app loads: the click on the session, then when its entries appear. */
function probe(): void {
  type Probe = { click: number; first?: number; painted?: number; last?: number; lastText: string }
  const p: Probe = { click: 0, lastText: '' }
  ;(window as unknown as { __bench: Probe }).__bench = p
  document.addEventListener('click', (event) => {
    if (p.click === 0 && (event.target as Element).closest('[aria-label="Agents and sessions"]')) p.click = event.timeStamp
  }, true)
  const check = () => {
    if (p.click === 0 || p.last !== undefined) return
    const says = document.querySelectorAll('[aria-label="Flood says"]')
    if (says.length === 0) return
    const now = performance.now()
    if (p.first === undefined) {
      p.first = now
      requestAnimationFrame(() => setTimeout(() => (p.painted = performance.now()), 0))
    }
    if (p.lastText && Array.from(says).some((el) => el.textContent?.includes(p.lastText))) p.last = now
  }
  new MutationObserver(check).observe(document, { subtree: true, childList: true, characterData: true })
}

/** The stored session: a prompt, then the flood, written by the recorder as Bosun writes it. */
function storeFlood(home: string, count: number): { entries: number; lastText: string } {
  const { store } = openHistoryStore(home)
  const recorder = new HistoryRecorder(store, { logger: createLogger('bench', () => {}) })
  let state = createSessionState({ sessionId: 'flood/flood-1', acpSessionId: 'flood-1', agentId: 'flood', protocolVersion: 1, cwd: home })
  recorder.track(state)
  state = applyActions(state, [{ type: 'local_prompt', content: [{ type: 'text', text: TITLE }] }])
  const updates = buildFloodUpdates(count)
  for (let i = 0; i < updates.length; i += 256) {
    state = applyActions(state, [{ type: 'updates', updates: updates.slice(i, i + 256) as never }])
    recorder.changed(state)
  }
  recorder.dispose()
  store.dispose()
  const lastMessage = [...state.entries].reverse().find((e) => e.kind === 'agent_message')
  // Its first words as rendered (the rest holds markdown).
  const lastText = lastMessage?.kind === 'agent_message' ? (((lastMessage.content[0] as { text?: string }).text ?? '').match(/token \d+/)?.[0] ?? '') : ''
  if (!lastText) throw new Error('the flood has no last message to wait for')
  return { entries: state.entries.length, lastText }
}

async function run(count: number): Promise<HistoryOpenResult> {
  let stored = { entries: 0, lastText: '' }
  const prepare = (home: string) => void (stored = storeFlood(home, count))
  return withFloodPage({ count, agentName: AGENT, probe, prepare }, async (page) => {
    await page.evaluate((text) => ((window as unknown as { __bench: { lastText: string } }).__bench.lastText = text), stored.lastText)
    const nav = page.getByRole('navigation', { name: 'Agents and sessions' })
    const item = await visible(nav.getByRole('region', { name: 'History', exact: true }).getByRole('button', { name: new RegExp(`^${TITLE}`) }))
    await item.click()
    await page.waitForFunction(() => {
      const p = (window as unknown as { __bench: { painted?: number; last?: number } }).__bench
      return p.painted !== undefined && p.last !== undefined
    }, undefined, { timeout: 120_000, polling: 100 })
    const p = await page.evaluate(() => (window as unknown as { __bench: { click: number; first: number; painted: number; last: number } }).__bench)
    return { count, entries: stored.entries, firstEntryMs: p.first - p.click, firstPaintMs: p.painted - p.click, lastEntryMs: p.last - p.click }
  })
}

reportToParent(run(Number(process.argv[2] ?? 100_000)))
