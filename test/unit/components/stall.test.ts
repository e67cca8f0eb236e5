/**
 * Stall detection (issue 14 §5) with a manual clock: when the notice appears, how its words move, that news
 * from the agent hides it, what counts as news, that a person being waited on is no stall, and that the one
 * timer is disposed.
 */
import { describe, expect, it } from 'vitest'
import { applyActions, createSessionState } from '../../../common/session/reducer'
import { STOP_OVERDUE_TITLE } from '../../../common/session/stop-watchdog'
import type { PermissionRequestView, SessionAction, SessionState } from '../../../common/session/types'
import { DEFAULT_STALL_AFTER_MS, StallWatch, nextLabelIn, silenceLabel, waitingOnAgent, type StallClock } from '../../../renderer/components/session/stall'
import { restartsSilence } from '../../../renderer/state/activity'
import { createAppStore } from '../../../renderer/state/app-store'

/** Time moves only when the test says; `pending` is the number of live timers. */
function manualClock(start = 1_000_000) {
  let time = start
  let timers: { at: number; fn: () => void; id: number }[] = []
  let ids = 0
  const clock: StallClock = {
    now: () => time,
    setTimeout(fn, ms) {
      const timer = { at: time + ms, fn, id: ++ids }
      timers.push(timer)
      return timer.id
    },
    clearTimeout(handle) {
      timers = timers.filter((t) => t.id !== handle)
    },
  }
  return {
    clock,
    get pending() {
      return timers.length
    },
    advance(ms: number) {
      const target = time + ms
      for (;;) {
        const due = timers.filter((t) => t.at <= target).sort((a, b) => a.at - b.at)[0]
        if (!due) break
        timers = timers.filter((t) => t !== due)
        time = due.at
        due.fn()
      }
      time = target
    },
  }
}

const chunk: SessionAction = { type: 'updates', updates: [{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'x' } }] }

describe('silence words', () => {
  it.each([
    [1_500, '1 s'],
    [9_999, '9 s'],
    [12_000, '10 s'],
    [30_000, '30 s'],
    [34_999, '30 s'],
    [35_000, '35 s'],
    [59_999, '55 s'],
    [60_000, '1 min'],
    [119_999, '1 min'],
    [120_000, '2 min'],
    [3_600_000, '1 h'],
    [3_900_000, '1 h 5 min'],
  ])('%d ms reads as %s', (ms, words) => {
    expect(silenceLabel(ms)).toBe(words)
  })

  it('the next change of words: the next second under 10 s, the next 5 s step under a minute, the next minute after', () => {
    expect(nextLabelIn(1_500)).toBe(500)
    expect(nextLabelIn(9_000)).toBe(1_000)
    expect(nextLabelIn(30_000)).toBe(5_000)
    expect(nextLabelIn(31_000)).toBe(4_000)
    expect(nextLabelIn(61_000)).toBe(59_000)
  })

  it('30 s by default', () => {
    expect(DEFAULT_STALL_AFTER_MS).toBe(30_000)
  })
})

describe('StallWatch', () => {
  it('says nothing before the threshold, then the silence, updated as its words change; news hides it', () => {
    const t = manualClock()
    const heard: (number | null)[] = []
    const watch = new StallWatch(t.clock, 30_000, (silent) => heard.push(silent))
    watch.watch(t.clock.now())
    expect(heard).toEqual([])
    expect(t.pending).toBe(1)
    t.advance(29_999)
    expect(heard).toEqual([])
    t.advance(1)
    expect(heard).toEqual([30_000])
    t.advance(5_000)
    t.advance(25_000)
    expect(heard.slice(1)).toEqual([35_000, 40_000, 45_000, 50_000, 55_000, 60_000])
    // A minute on, the words change once a minute: one timer at a time, never a poll.
    t.advance(60_000)
    expect(heard.at(-1)).toBe(120_000)
    expect(heard.at(-2)).toBe(60_000)
    expect(t.pending).toBe(1)
    // News from the agent: the silence starts again, and the notice goes.
    watch.watch(t.clock.now())
    expect(heard.at(-1)).toBeNull()
    expect(t.pending).toBe(1)
    watch.dispose()
    expect(t.pending).toBe(0)
  })

  it('a silence that began long ago is reported at once; not waiting clears it and leaves no timer', () => {
    const t = manualClock()
    const heard: (number | null)[] = []
    const watch = new StallWatch(t.clock, 30_000, (silent) => heard.push(silent))
    watch.watch(t.clock.now() - 95_000)
    expect(heard).toEqual([95_000])
    watch.watch(null)
    expect(heard).toEqual([95_000, null])
    expect(t.pending).toBe(0)
  })

  it('the threshold is injectable', () => {
    const t = manualClock()
    const heard: (number | null)[] = []
    new StallWatch(t.clock, 300, (silent) => heard.push(silent)).watch(t.clock.now())
    t.advance(300)
    expect(heard).toEqual([300])
    t.advance(1_000)
    // Short silences count in whole seconds.
    expect(heard).toEqual([300, 1_000])
  })
})

describe('what the session waits on', () => {
  const running = (): SessionState => applyActions(createSessionState({ sessionId: 's', agentId: 'a', protocolVersion: 1, cwd: '/w' }), [{ type: 'local_prompt', content: [{ type: 'text', text: 'go' }] }, { type: 'turn_started' }])
  const request: PermissionRequestView = {
    requestId: 'r1',
    agentId: 'a',
    agentName: 'A',
    sessionId: 's',
    title: 'Run?',
    subject: { type: 'none' },
    options: [{ optionId: 'y', name: 'Yes', kind: 'allow_once' }],
    createdAt: 1,
    status: 'pending',
  }

  it('a running turn with a running agent waits on the agent; an idle session or a stopped agent does not', () => {
    const s = running()
    expect(waitingOnAgent(s, true)).toBe(true)
    expect(waitingOnAgent(s, false)).toBe(false)
    expect(waitingOnAgent(applyActions(s, [{ type: 'turn_ended', stopReason: 'end_turn' }]), true)).toBe(false)
    expect(waitingOnAgent(applyActions(s, [{ type: 'cannot_continue', reason: 'gone' }]), true)).toBe(false)
  })

  it('a pending permission or question waits on the person, not the agent', () => {
    const asked = applyActions(running(), [{ type: 'permission_requested', request }])
    expect(waitingOnAgent(asked, true)).toBe(false)
    const answered = applyActions(asked, [{ type: 'permission_resolved', requestId: 'r1', resolution: { kind: 'selected', optionId: 'y', by: 'person' } as never, status: 'answered' }])
    expect(waitingOnAgent(answered, true)).toBe(true)
    const question = applyActions(running(), [
      { type: 'elicitation_requested', elicitation: { elicitationRequestId: 'e1', agentId: 'a', agentName: 'A', sessionId: 's', mode: 'form', message: 'm', createdAt: 1, status: 'pending' } },
    ])
    expect(waitingOnAgent(question, true)).toBe(false)
  })

  it('v2 requires_action waits on the person', () => {
    const s = applyActions(createSessionState({ sessionId: 's', agentId: 'a', protocolVersion: 2, cwd: '/w' }), [
      { type: 'updates', updates: [{ sessionUpdate: 'state_update', state: 'requires_action' }] },
    ])
    expect(waitingOnAgent(s, true)).toBe(false)
  })
})

describe('news from the agent', () => {
  it.each<[string, SessionAction, boolean]>([
    ['an update', chunk, true],
    ['terminal output of a command it runs', { type: 'client_terminal', update: { sessionUpdate: 'terminal_output_chunk', terminalId: 't', data: 'eA==' } }, true],
    ['a permission request', { type: 'permission_requested', request: {} as PermissionRequestView }, true],
    ['the end of the turn', { type: 'turn_ended', stopReason: 'end_turn' }, true],
    ['a prompt sent', { type: 'turn_started' }, true],
    ['Stop', { type: 'cancel_requested' }, true],
    ['auto-approve switched', { type: 'set_auto_approve', value: true }, false],
    ['a notice dismissed', { type: 'dismiss_notice', id: 'n' }, false],
    ["the Stop watchdog's notice", { type: 'updates', updates: [{ sessionUpdate: 'notice', severity: 'warning', title: STOP_OVERDUE_TITLE, fromBosun: true }] }, false],
    ["an agent's notice with the Stop watchdog's title", { type: 'updates', updates: [{ sessionUpdate: 'notice', severity: 'warning', title: STOP_OVERDUE_TITLE }] }, true],
    ['an empty batch of updates', { type: 'updates', updates: [] }, false],
  ])('%s: %s', (_what, action, news) => {
    expect(restartsSilence(action)).toBe(news)
  })
})

describe('the store notes when news came, per session', () => {
  const session = (id: string) => createSessionState({ sessionId: id, agentId: 'a', protocolVersion: 1, cwd: '/w' })

  it('applied batches with news move the time; bookkeeping does not; removal forgets it', () => {
    let now = 100
    const store = createAppStore(undefined, { clock: () => now })
    store.addSession(session('s1'))
    store.addSession(session('s2'))
    expect(store.getSnapshot().lastActivityAt).toEqual({ s1: 100, s2: 100 })
    now = 200
    store.applySessionActions({ sessionId: 's1', seq: 1, actions: [chunk] })
    now = 300
    store.applySessionActions({ sessionId: 's1', seq: 2, actions: [{ type: 'set_auto_approve', value: true }] })
    expect(store.getSnapshot().lastActivityAt).toEqual({ s1: 200, s2: 100 })
    // Queued batches are noted when applied (in the frame).
    store.enqueueSessionActions({ sessionId: 's2', seq: 1, actions: [chunk] })
    now = 400
    store.flushQueued()
    expect(store.getSnapshot().lastActivityAt).toEqual({ s1: 200, s2: 400 })
    store.removeSession('s1')
    expect(store.getSnapshot().lastActivityAt).toEqual({ s2: 400 })
  })

  it('a snapshot keeps the time of a session it shows unchanged, and counts a changed or new one from now', () => {
    let now = 100
    const store = createAppStore(undefined, { clock: () => now })
    const s1 = session('s1')
    store.addSession(s1)
    now = 500
    const s2 = session('s2')
    store.applySnapshot({ agents: [], sessions: [s1, applyActions(s2, [chunk])] })
    expect(store.getSnapshot().lastActivityAt).toEqual({ s1: 100, s2: 500 })
    now = 900
    store.applySnapshot({ agents: [], sessions: [applyActions(s1, [chunk])] })
    expect(store.getSnapshot().lastActivityAt).toEqual({ s1: 900 })
  })
})
