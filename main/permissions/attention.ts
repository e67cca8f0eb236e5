/**
 * Attention: telling the person that something waits for them while they look elsewhere.
 *
 * - A request (permission or elicitation) that arrives while the window is not focused produces a
 *   notification naming the agent and the request title. Nothing is shown while focused.
 * - Bursts are coalesced: the first request notifies at once; further ones within `coalesceMs` are held
 *   and summarised when the window closes ("3 approvals waiting", or "3 requests waiting" once an
 *   elicitation is among them), skipping those already answered.
 * - The badge count is the number of waiting requests, focused or not.
 * - A setting turns notifications off; another one adds "turn ended" notifications.
 *
 * Time comes from an injected {@link Scheduler}, so tests drive it without sleeping.
 */
import { HIDDEN_BEYOND_C0_CLASS } from '../../common/hidden-characters'
import { disposableTimeout, toDisposable, type IDisposable } from '../base/lifecycle'
import { defaultNotificationSettings, type NotificationSettings } from '../../common/contract/permissions'

export type { NotificationSettings }

export interface Scheduler {
  setTimeout(callback: () => void, ms: number): IDisposable
}

export const realScheduler: Scheduler = { setTimeout: (callback, ms) => disposableTimeout(callback, ms) }

/** A request that waits for the person (permissions and elicitations both feed this). */
export interface AttentionItem {
  requestId: string
  agentName: string
  title: string
  kind?: 'permission' | 'elicitation'
  /**
   * The title of the session that asks, when it has one: with two sessions of the same agent open, "Claude needs your
   * approval" alone does not say which one waits.
   */
  sessionTitle?: string | null
}

export interface NotificationIntent {
  title: string
  body: string
  requestId?: string
  /** A "turn ended" notification: clicking it shows this session. */
  sessionId?: string
}

/** Where notifications go: the OS (Electron `Notifier`) or the browser page (`notify`/`badge` events). */
export interface AttentionOutput {
  show(notification: NotificationIntent, onClick: () => void): void
  setBadgeCount(count: number): void
  /**
   * The notification shown with this `requestId` names no request that still waits (answered here or elsewhere,
   * withdrawn by the agent, its session closed, its agent gone): take it off the screen, where a click would open nothing.
   */
  withdraw?(requestId: string): void
}

export interface AttentionOptions {
  output: AttentionOutput
  isWindowFocused: () => boolean
  /** Bring a request into view (after a notification click). */
  focusRequest: (requestId: string) => void
  /** Bring a session into view (after a "turn ended" notification click). */
  focusSession?: (sessionId: string) => void
  scheduler?: Scheduler
  settings?: NotificationSettings
  /** Burst window; about two seconds. */
  coalesceMs?: number
}

const MAX_TITLE = 200
/**
 * What a notification leaves out of the agent's text: terminal escapes (CSI), C0 controls but the white space ones, and
 * the characters the window shows as markers ({@link HIDDEN_BEYOND_C0_CLASS}: C1 controls, bidi controls, invisible
 * format characters…). The system draws a notification as plain text, where a right-to-left override made
 * "Run \u202Etxt.exe" read "Run exe.txt"; without them it reads as it is.
 */
const HIDDEN_IN_NOTIFICATIONS = new RegExp(`\x1b\\[[0-?]*[ -/]*[@-~]|[\u0000-\u0008\u000e-\u001f${HIDDEN_BEYOND_C0_CLASS}]`, 'gu')
/**
 * The agent's text on one line, each run of white space one space: the notification's own lines say which session
 * asks, and which request each line is; a title's line feeds pushed "in “<session>”" out of the notification, or
 * wrote a line that read as another request ("Claude in “Docs”: Read a.md").
 */
const clip = (text: string, max = MAX_TITLE): string => {
  // Read past the bound, as runs of blanks or hidden characters become one space or nothing (bounded all the same).
  const plain = text.slice(0, Math.max(4 * max, 2000)).replace(HIDDEN_IN_NOTIFICATIONS, '').replace(/\s+/gu, ' ').trim()
  return plain.length > max ? plain.slice(0, max - 1) + '…' : plain
}

/**
 * How much of the request's title a notification's body shows: systems show two to four lines of a body (macOS two,
 * Windows three), and a title of 500 characters filled them, leaving out the line that says which session asks.
 */
const MAX_BODY_TITLE = 120

/** Pure: the notification for one request. */
export function singleNotification(item: AttentionItem): NotificationIntent {
  const what = item.kind === 'elicitation' ? 'needs your input' : 'needs your approval'
  const where = item.sessionTitle ? `\nin “${clip(item.sessionTitle, 60)}”` : ''
  return { title: clip(`${item.agentName} ${what}`), body: clip(item.title, MAX_BODY_TITLE) + where, requestId: item.requestId }
}

/**
 * Pure: the summary for several waiting requests (`waiting` all of them, `items` the ones of the burst).
 * "approvals" only while every waiting request is a permission; an elicitation asks for input, not approval.
 */
export function summaryNotification(waiting: readonly AttentionItem[], items: readonly AttentionItem[]): NotificationIntent {
  const lines = items.slice(0, 3).map((i) => clip(`${i.agentName}${i.sessionTitle ? ` in “${clip(i.sessionTitle, 60)}”` : ''}: ${i.title}`, 160))
  if (items.length > 3) lines.push(`and ${items.length - 3} more`)
  const noun = waiting.every((i) => i.kind !== 'elicitation') ? 'approvals' : 'requests'
  return { title: `${waiting.length} ${noun} waiting`, body: lines.join('\n'), requestId: items[0]?.requestId }
}

export class AttentionService implements IDisposable {
  private readonly waiting = new Map<string, AttentionItem>()
  /** Notifications on the screen, by the `requestId` each carries: the requests it names that still wait. */
  private readonly onScreen = new Map<string, Set<string>>()
  private burst: { timer: IDisposable; held: string[] } | null = null
  private badge = -1
  private current: NotificationSettings
  private readonly scheduler: Scheduler
  private readonly coalesceMs: number

  constructor(private readonly options: AttentionOptions) {
    this.current = { ...(options.settings ?? defaultNotificationSettings) }
    this.scheduler = options.scheduler ?? realScheduler
    this.coalesceMs = options.coalesceMs ?? 2000
    this.updateBadge()
  }

  get settings(): NotificationSettings {
    return { ...this.current }
  }

  updateSettings(patch: Partial<NotificationSettings>): NotificationSettings {
    this.current = { ...this.current, ...patch }
    if (!this.current.enabled) this.closeBurst()
    return this.settings
  }

  /** Number of requests waiting for the person. */
  get waitingCount(): number {
    return this.waiting.size
  }

  requestArrived(item: AttentionItem): void {
    if (this.waiting.has(item.requestId)) return
    this.waiting.set(item.requestId, item)
    this.updateBadge()
    if (!this.shouldNotify()) return
    if (this.burst) {
      this.burst.held.push(item.requestId)
      return
    }
    this.show(singleNotification(item), [item])
    this.openBurst()
  }

  requestResolved(requestId: string): void {
    if (!this.waiting.delete(requestId)) return
    this.updateBadge()
    for (const [key, names] of this.onScreen) {
      if (!names.delete(requestId) || names.size > 0) continue
      this.onScreen.delete(key)
      this.options.output.withdraw?.(key)
    }
  }

  /** A turn ended; notifies only with the "notify when a turn ends" setting, while not focused. */
  turnEnded(turn: { sessionId: string; agentName: string; sessionTitle?: string | null; stopReason?: string | null; error?: string | null }): void {
    if (!this.current.notifyOnTurnEnd || !this.shouldNotify()) return
    const reason = turn.stopReason && turn.stopReason !== 'end_turn' ? ` (${turn.stopReason})` : ''
    // A turn that ended with an error (the agent crashed mid-turn…) is told as such, not as "finished" or not at all.
    const title = turn.error ? `${turn.agentName}'s turn ended with an error` : `${turn.agentName} finished${reason}`
    const body = clip(turn.sessionTitle ?? 'The turn ended.', 500) + (turn.error ? `\n${clip(turn.error, 300)}` : '')
    const notification = { title: clip(title), body, sessionId: turn.sessionId }
    this.options.output.show(notification, () => this.options.focusSession?.(turn.sessionId))
  }

  /** The window gained or lost focus: once focused, held notifications are dropped (the person is here). */
  windowStateChanged(state: { focused: boolean }): void {
    if (state.focused) this.closeBurst()
  }

  dispose(): void {
    this.closeBurst()
    this.waiting.clear()
    this.onScreen.clear()
  }

  private shouldNotify(): boolean {
    return this.current.enabled && !this.options.isWindowFocused()
  }

  /** Shows a notification about `named` (the requests it lists), kept on the screen until none of them waits. */
  private show(notification: NotificationIntent, named: readonly AttentionItem[]): void {
    const { requestId } = notification
    if (requestId) {
      const names = this.onScreen.get(requestId) ?? new Set<string>()
      for (const item of named) names.add(item.requestId)
      this.onScreen.set(requestId, names)
    }
    this.options.output.show(notification, () => {
      if (requestId) this.options.focusRequest(requestId)
    })
  }

  private openBurst(): void {
    const burst = { held: [] as string[], timer: toDisposable(() => {}) }
    burst.timer = this.scheduler.setTimeout(() => this.flushBurst(burst), this.coalesceMs)
    this.burst = burst
  }

  private flushBurst(burst: { held: string[] }): void {
    if (this.burst !== burst) return
    this.burst = null
    const items = burst.held.flatMap((id) => this.waiting.get(id) ?? [])
    if (items.length === 0 || !this.shouldNotify()) return
    this.show(items.length === 1 && this.waiting.size === 1 ? singleNotification(items[0]!) : summaryNotification([...this.waiting.values()], items), items)
    // Keep the rate bounded: what arrives next is held for another window.
    this.openBurst()
  }

  private closeBurst(): void {
    this.burst?.timer.dispose()
    this.burst = null
  }

  private updateBadge(): void {
    if (this.waiting.size === this.badge) return
    this.badge = this.waiting.size
    this.options.output.setBadgeCount(this.badge)
  }
}
