import { describe, expect, it } from 'vitest'
import { AttentionService, singleNotification, summaryNotification, type NotificationIntent, type Scheduler } from '../../../main/permissions/attention'
import { toDisposable } from '../../../main/base/lifecycle'

/** A manual clock: timers fire only when the test advances time. */
class ManualScheduler implements Scheduler {
  now = 0
  private timers: { at: number; fn: () => void; live: boolean }[] = []
  setTimeout(fn: () => void, ms: number) {
    const timer = { at: this.now + ms, fn, live: true }
    this.timers.push(timer)
    return toDisposable(() => (timer.live = false))
  }
  advance(ms: number): void {
    this.now += ms
    for (const timer of [...this.timers].sort((a, b) => a.at - b.at)) {
      if (timer.live && timer.at <= this.now) {
        timer.live = false
        timer.fn()
      }
    }
    this.timers = this.timers.filter((t) => t.live)
  }
  get live(): number {
    return this.timers.filter((t) => t.live).length
  }
}

function setup(options: { focused?: boolean; enabled?: boolean; notifyOnTurnEnd?: boolean } = {}) {
  const scheduler = new ManualScheduler()
  const shown: { notification: NotificationIntent; click: () => void }[] = []
  const badges: number[] = []
  const focused: string[] = []
  let isFocused = options.focused ?? false
  const attention = new AttentionService({
    output: { show: (notification, click) => shown.push({ notification, click }), setBadgeCount: (n) => badges.push(n) },
    isWindowFocused: () => isFocused,
    focusRequest: (id) => focused.push(id),
    scheduler,
    settings: { enabled: options.enabled ?? true, notifyOnTurnEnd: options.notifyOnTurnEnd ?? false },
  })
  return { attention, scheduler, shown, badges, focused, setFocused: (f: boolean) => (isFocused = f) }
}

const item = (n: number, agentName = 'Claude') => ({ requestId: `r${n}`, agentName, title: `Edit file ${n}` })

describe('AttentionService', () => {
  it('notifies at once for a request while unfocused, naming agent and title; click focuses it', () => {
    const { attention, shown, focused } = setup()
    attention.requestArrived(item(1))
    expect(shown.map((s) => s.notification)).toEqual([{ title: 'Claude needs your approval', body: 'Edit file 1', requestId: 'r1' }])
    shown[0]!.click()
    expect(focused).toEqual(['r1'])
  })

  it('coalesces a burst within the window into one summary', () => {
    const { attention, scheduler, shown } = setup()
    attention.requestArrived(item(1))
    scheduler.advance(500)
    attention.requestArrived(item(2, 'Codex'))
    attention.requestArrived(item(3))
    expect(shown).toHaveLength(1)
    scheduler.advance(1499)
    expect(shown).toHaveLength(1)
    scheduler.advance(1)
    expect(shown).toHaveLength(2)
    expect(shown[1]!.notification).toEqual({ title: '3 approvals waiting', body: 'Codex: Edit file 2\nClaude: Edit file 3', requestId: 'r2' })
  })

  it('coalesces a burst mixing an elicitation and permissions; the summary says "requests", not "approvals"', () => {
    const { attention, scheduler, shown, badges, focused } = setup()
    attention.requestArrived({ ...item(1), kind: 'permission' })
    attention.requestArrived({ requestId: 'e1', agentName: 'Codex', title: 'Which workspace?', kind: 'elicitation' })
    attention.requestArrived(item(3))
    expect(shown.map((s) => s.notification)).toEqual([{ title: 'Claude needs your approval', body: 'Edit file 1', requestId: 'r1' }])
    expect(badges.at(-1)).toBe(3)
    scheduler.advance(2000)
    expect(shown.map((s) => s.notification)).toEqual([
      { title: 'Claude needs your approval', body: 'Edit file 1', requestId: 'r1' },
      { title: '3 requests waiting', body: 'Codex: Which workspace?\nClaude: Edit file 3', requestId: 'e1' },
    ])
    shown[1]!.click()
    expect(focused).toEqual(['e1'])
  })

  it('an elicitation alone asks for input; after it is answered, a permission burst is "approvals" again', () => {
    const { attention, scheduler, shown, focused } = setup()
    attention.requestArrived({ requestId: 'e1', agentName: 'Codex', title: 'Which workspace?', kind: 'elicitation' })
    expect(shown[0]!.notification).toEqual({ title: 'Codex needs your input', body: 'Which workspace?', requestId: 'e1' })
    shown[0]!.click()
    expect(focused).toEqual(['e1'])
    attention.requestArrived(item(2))
    attention.requestArrived(item(3))
    attention.requestResolved('e1')
    scheduler.advance(2000)
    expect(shown[1]!.notification).toEqual({ title: '2 approvals waiting', body: 'Claude: Edit file 2\nClaude: Edit file 3', requestId: 'r2' })
  })

  it('withdraws a notification once none of the requests it names waits: a single one at once, a summary with its last', () => {
    const scheduler = new ManualScheduler()
    const withdrawn: string[] = []
    const attention = new AttentionService({
      output: { show: () => undefined, setBadgeCount: () => undefined, withdraw: (id) => withdrawn.push(id) },
      isWindowFocused: () => false,
      focusRequest: () => undefined,
      scheduler,
    })
    attention.requestArrived(item(1))
    attention.requestArrived(item(2))
    attention.requestArrived(item(3))
    scheduler.advance(2000)
    attention.requestResolved('r2')
    expect(withdrawn).toEqual([])
    attention.requestResolved('r1')
    expect(withdrawn).toEqual(['r1'])
    attention.requestResolved('r3')
    attention.requestResolved('r3')
    expect(withdrawn).toEqual(['r1', 'r2'])
  })

  it('drops held requests that were answered before the window closed', () => {
    const { attention, scheduler, shown } = setup()
    attention.requestArrived(item(1))
    attention.requestArrived(item(2))
    attention.requestResolved('r2')
    scheduler.advance(2000)
    expect(shown).toHaveLength(1)
    expect(scheduler.live).toBe(0)
  })

  it('shows nothing while focused, but keeps the badge', () => {
    const { attention, scheduler, shown, badges } = setup({ focused: true })
    attention.requestArrived(item(1))
    attention.requestArrived(item(2))
    scheduler.advance(5000)
    expect(shown).toEqual([])
    expect(badges).toEqual([0, 1, 2])
    attention.requestResolved('r1')
    attention.requestResolved('r1')
    expect(badges).toEqual([0, 1, 2, 1])
  })

  it('focusing the window drops the held summary', () => {
    const { attention, scheduler, shown, setFocused } = setup()
    attention.requestArrived(item(1))
    attention.requestArrived(item(2))
    setFocused(true)
    attention.windowStateChanged({ focused: true })
    scheduler.advance(5000)
    expect(shown).toHaveLength(1)
  })

  it('the setting turns notifications off', () => {
    const { attention, scheduler, shown, badges } = setup({ enabled: false })
    attention.requestArrived(item(1))
    scheduler.advance(5000)
    expect(shown).toEqual([])
    expect(badges.at(-1)).toBe(1)
    attention.updateSettings({ enabled: true })
    attention.requestArrived(item(2))
    expect(shown).toHaveLength(1)
  })

  it('turn-ended notifications only with their setting and while unfocused', () => {
    const off = setup()
    off.attention.turnEnded({ sessionId: 's', agentName: 'Claude', sessionTitle: 'Fix bug', stopReason: 'end_turn' })
    expect(off.shown).toEqual([])
    const on = setup({ notifyOnTurnEnd: true })
    on.attention.turnEnded({ sessionId: 's', agentName: 'Claude', sessionTitle: 'Fix bug', stopReason: 'end_turn' })
    expect(on.shown.map((s) => s.notification)).toEqual([{ title: 'Claude finished', body: 'Fix bug', sessionId: 's' }])
    on.setFocused(true)
    on.attention.turnEnded({ sessionId: 's', agentName: 'Claude', stopReason: 'cancelled' })
    expect(on.shown).toHaveLength(1)
  })

  it('a turn that ended with an error says so, with the error under the session title', () => {
    const on = setup({ notifyOnTurnEnd: true })
    on.attention.turnEnded({ sessionId: 's', agentName: 'Claude', sessionTitle: 'Fix bug', stopReason: null, error: 'Claude was killed by SIGKILL.' })
    expect(on.shown.map((s) => s.notification)).toEqual([{ title: "Claude's turn ended with an error", body: 'Fix bug\nClaude was killed by SIGKILL.', sessionId: 's' }])
  })

  it('dispose cancels the burst timer', () => {
    const { attention, scheduler } = setup()
    attention.requestArrived(item(1))
    expect(scheduler.live).toBe(1)
    attention.dispose()
    expect(scheduler.live).toBe(0)
  })
})

describe('notification text', () => {
  it('leaves out the bidi controls, invisible characters and terminal escapes of an agent\'s title', () => {
    const spoofed = { requestId: 'r1', agentName: 'Claude', title: 'Run \u202Etxt.exe\u200B \x1b[31mnow\x1b[0m\u0007', kind: 'permission' as const }
    expect(singleNotification(spoofed).body).toBe('Run txt.exe now')
    expect(summaryNotification([spoofed], [spoofed]).body).toBe('Claude: Run txt.exe now')
  })

  it('names the session that asks, so two sessions of the same agent are told apart (its title cleaned like the rest)', () => {
    const a = { requestId: 'r1', agentName: 'Claude', title: 'Write b.txt', sessionTitle: 'Fix the \u202Elogin bug' }
    const b = { requestId: 'r2', agentName: 'Claude', title: 'Write c.txt', sessionTitle: 'Add tests' }
    expect(singleNotification(a).body).toBe('Write b.txt\nin “Fix the login bug”')
    expect(summaryNotification([a, b], [a, b]).body).toBe('Claude in “Fix the login bug”: Write b.txt\nClaude in “Add tests”: Write c.txt')
    // The agent's line feeds and blanks make one space: a title of 480 line feeds pushed "in “…”" out of the
    // notification, and one with a line of its own read as a second request (hostile14).
    expect(singleNotification({ ...a, title: `Write b.txt${'\n'.repeat(480)}x` }).body).toBe('Write b.txt x\nin “Fix the login bug”')
    const forged = { ...b, title: 'Write c.txt\r\nClaude in “Docs”: Read a.md\u2028\t\u00a0 now', sessionTitle: 'Add\ntests' }
    expect(summaryNotification([a, forged], [a, forged]).body).toBe('Claude in “Fix the login bug”: Write b.txt\nClaude in “Add tests”: Write c.txt Claude in “Docs”: Read a.md now')
    // A long title is cut to what a system shows of a body with the session's line under it: at 500 characters it
    // filled the notification and the session's name was out of it (ux16).
    const long = singleNotification({ ...a, title: 'Run the migration against the staging cluster, then rebuild every index. '.repeat(8), sessionTitle: 'Staging'.repeat(20) })
    const [titleLine, sessionLine] = long.body.split('\n')
    expect(titleLine).toHaveLength(120)
    expect(titleLine!.endsWith('…')).toBe(true)
    expect(sessionLine).toBe(`in “${'Staging'.repeat(20).slice(0, 59)}…”`)
    // A session without a title (or none known): the request alone, as before.
    expect(singleNotification({ ...a, sessionTitle: null }).body).toBe('Write b.txt')
  })
})
