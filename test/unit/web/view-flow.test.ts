import { describe, expect, it } from 'vitest'
import { ViewFlow } from '../../../main/web/view-flow'
import { applyActions, createSessionState } from '../../../common/session/reducer'
import type { SessionAction, SessionState } from '../../../common/session/types'
import { createAppStore } from '../../../renderer/state/app-store'
import type { EventName } from '../../../common/contract'

const chunk = (text: string): SessionAction => ({ type: 'updates', updates: [{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } }] })
const notice = (title: string): SessionAction => ({ type: 'updates', updates: [{ sessionUpdate: 'notice', severity: 'warning', title }] })
const sizeOf = (value: unknown) => JSON.stringify(value).length

/**
 * Main's side, as the sessions service does it: each batch applied to main's copy (its seq) and emitted. The page is a
 * real store, fed what the flow delivers, that reports what it applied when `read` runs (a page that reads when it can).
 */
function harness(options: { maxInFlightBytes: number; maxHeldBytes: number; maxMergedBytes?: number }) {
  const states = new Map<string, SessionState>()
  const inbox: { name: EventName; payload: unknown }[] = []
  const delivered: { name: EventName; payload: unknown; bytes: number }[] = []
  const flow = new ViewFlow({
    ...options,
    deliver(name, payload) {
      inbox.push({ name, payload })
      const bytes = sizeOf(payload)
      delivered.push({ name, payload, bytes })
      return bytes
    },
    stateOf: (sessionId) => states.get(sessionId),
  })
  const page = createAppStore(undefined, { frames: { request: () => undefined, now: () => 0 } })
  page.onDidApply((applied) => flow.applied(applied))
  const open = (sessionId: string) => {
    const state = createSessionState({ sessionId, agentId: 'a', protocolVersion: 1, cwd: '/w' })
    states.set(sessionId, state)
    page.addSession(state)
  }
  const emit = (sessionId: string, actions: SessionAction[]) => {
    const next = applyActions(states.get(sessionId)!, actions)
    states.set(sessionId, next)
    const payload = { sessionId, seq: next.seq, actions }
    flow.emit('sessionActions', payload, sizeOf(payload))
  }
  /** The page reads what arrived, applies it and says so (which may send more: read until nothing comes). */
  const read = () => {
    while (inbox.length > 0) {
      for (const { name, payload } of inbox.splice(0)) {
        if (name === 'sessionActions') page.enqueueSessionActions(payload as never)
        else if (name === 'sessionState') page.resyncSession((payload as { session: SessionState }).session)
      }
      page.flushQueued()
    }
  }
  /** The page's copy of a session equals main's: the same entries, notices (their ids too) and seq. */
  const expectSame = (sessionId: string) => {
    const shown = page.getSnapshot().sessions[sessionId]!
    const main = states.get(sessionId)!
    expect(shown.seq).toBe(main.seq)
    expect(JSON.parse(JSON.stringify(shown))).toEqual(JSON.parse(JSON.stringify(main)))
  }
  return { flow, page, open, emit, read, delivered, expectSame, inbox }
}

describe('ViewFlow', () => {
  it('gives a page that never said what it applied everything as it comes (an old page), holding nothing', () => {
    const h = harness({ maxInFlightBytes: 1000, maxHeldBytes: 5000 })
    h.open('s1')
    for (let i = 0; i < 100; i++) h.emit('s1', [chunk('x'.repeat(100))])
    expect(h.delivered).toHaveLength(100)
    expect(h.flow.bytes).toEqual({ inFlight: 0, held: 0 })
  })

  it('sends a page at most the window it has not applied, merges what waits, and the page ends with main\'s state', () => {
    const h = harness({ maxInFlightBytes: 2000, maxHeldBytes: 1_000_000 })
    h.open('s1')
    // The page says what it has (its first word turns flow control on).
    h.flow.applied([{ sessionId: 's1', seq: 0 }])
    for (let i = 0; i < 200; i++) {
      h.emit('s1', i % 50 === 7 ? [notice(`n${i}`), chunk(`a${i} `)] : [chunk(`a${i} `)])
      expect(h.flow.bytes.inFlight).toBeLessThan(2000 + 300)
    }
    expect(h.delivered.length).toBeLessThan(40)
    expect(h.flow.bytes.held).toBeGreaterThan(0)
    h.read()
    expect(h.flow.bytes).toEqual({ inFlight: 0, held: 0 })
    h.expectSame('s1')
    // What waited went as a few merged batches, their text joined, notices numbered as main numbered them.
    const merged = h.delivered.filter((d) => (d.payload as { fromSeq?: number }).fromSeq !== undefined)
    expect(merged.length).toBeGreaterThan(0)
    expect(h.delivered.length).toBeLessThan(60)
    expect(h.page.getSnapshot().sessions.s1!.notices).toHaveLength(4)
  })

  it('resends a session whole once held batches pass the bound (and its size when last sent whole): held bytes stay bounded, and the page ends the same', () => {
    const h = harness({ maxInFlightBytes: 2000, maxHeldBytes: 10_000 })
    h.open('s1')
    h.open('s2')
    h.flow.applied([{ sessionId: 's1', seq: 0 }])
    let over = 0
    let wholeSum = 0
    for (let i = 0; i < 20_000; i++) {
      const before = h.delivered.length
      h.emit(i % 10 === 0 ? 's2' : 's1', [chunk(`b${i} `.repeat(5))])
      // Held: the bound, plus (per session) up to its state's size when it was last sent whole, plus one batch.
      for (const d of h.delivered.slice(before)) if (d.name === 'sessionState') wholeSum += d.bytes
      over = Math.max(over, h.flow.bytes.held - 10_000 - wholeSum - 200)
      // A page that reads now and then.
      if (i % 500 === 499) {
        const before = h.delivered.length
        h.read()
        for (const d of h.delivered.slice(before)) if (d.name === 'sessionState') wholeSum += d.bytes
      }
    }
    expect(over).toBeLessThanOrEqual(0)
    // A state is sent whole again only after more than it was held: a page that cannot keep up gets few of them.
    const wholes = h.delivered.filter((d) => d.name === 'sessionState' && (d.payload as { session: SessionState }).session.sessionId === 's1').map((d) => d.bytes)
    expect(wholes.length).toBeGreaterThan(1)
    for (let i = 1; i < wholes.length; i++) expect(wholes[i]!).toBeGreaterThan(wholes[i - 1]!)
    expect(wholes.length).toBeLessThan(10)
    h.read()
    expect(h.flow.bytes).toEqual({ inFlight: 0, held: 0 })
    expect(h.delivered.some((d) => d.name === 'sessionState')).toBe(true)
    h.expectSame('s1')
    h.expectSame('s2')
  })

  it('holds nothing for a page that stopped reading beyond its bounds', () => {
    const h = harness({ maxInFlightBytes: 2000, maxHeldBytes: 10_000 })
    h.open('s1')
    h.flow.applied([])
    for (let i = 0; i < 10_000; i++) h.emit('s1', [chunk('c'.repeat(50))])
    expect(h.flow.bytes.inFlight).toBeLessThan(2000 + 200)
    expect(h.flow.bytes.held).toBe(0)
    const sent = h.delivered.reduce((sum, d) => sum + d.bytes, 0)
    expect(sent).toBeLessThan(2000 + 200)
    // It reads again: one state, then batches as before.
    h.read()
    h.emit('s1', [chunk('after')])
    h.read()
    h.expectSame('s1')
  })

  it('forgets a removed session: nothing of it held or counted', () => {
    const h = harness({ maxInFlightBytes: 100, maxHeldBytes: 100_000 })
    h.open('s1')
    h.flow.applied([])
    for (let i = 0; i < 10; i++) h.emit('s1', [chunk('d'.repeat(50))])
    expect(h.flow.bytes.held).toBeGreaterThan(0)
    h.flow.emit('sessionRemoved', { sessionId: 's1' }, 0)
    expect(h.flow.bytes).toEqual({ inFlight: 0, held: 0 })
    expect(h.delivered.at(-1)?.name).toBe('sessionRemoved')
  })
})
