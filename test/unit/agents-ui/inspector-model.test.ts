import { describe, expect, it } from 'vitest'
import {
  appendMessages,
  directionOf,
  filterMessages,
  formatBytes,
  formatLatency,
  formatTime,
  NO_SESSION,
  sessionIdsOf,
  type InspectorBuffer,
} from '../../../renderer/components/inspector/inspector-model'
import type { InspectorMessage } from '../../../renderer/screens/agents/agent-tools-api'

const m = (seq: number, over: Partial<InspectorMessage> = {}): InspectorMessage => ({
  seq,
  time: 0,
  direction: 'in',
  kind: 'notification',
  bytes: 10,
  message: {},
  ...over,
})
const seqs = (b: InspectorBuffer) => b.messages.map((x) => x.seq)

describe('inspector buffer', () => {
  it('appends in seq order and skips what it already holds (a live batch overlapping the list)', () => {
    const listed = appendMessages({ messages: [], dropped: 0 }, [m(1), m(2), m(3)])
    const live = appendMessages(listed, [m(3), m(2), m(5), m(4)])
    expect(seqs(live)).toEqual([1, 2, 3, 4, 5])
    expect(appendMessages(live, [m(5), m(1)])).toBe(live)
  })

  it('keeps only the last N and counts what it let go', () => {
    let b: InspectorBuffer = { messages: [], dropped: 7 }
    for (let i = 1; i <= 10; i++) b = appendMessages(b, [m(i)], 4)
    expect(seqs(b)).toEqual([7, 8, 9, 10])
    expect(b.dropped).toBe(7 + 6)
    b = appendMessages(b, [m(11), m(12), m(13), m(14), m(15)], 4)
    expect(seqs(b)).toEqual([12, 13, 14, 15])
    expect(b.dropped).toBe(7 + 6 + 5)
  })
})

describe('inspector filter', () => {
  const all = [
    m(1, { method: 'initialize', direction: 'out', kind: 'request' }),
    m(2, { method: 'initialize', kind: 'response' }),
    m(3, { method: 'session/new', sessionId: 'a' }),
    m(4, { method: 'session/update', sessionId: 'b' }),
    m(5, { method: 'session/update', sessionId: 'a' }),
    m(6, { kind: 'invalid' }),
  ]
  const pick = (method: string, sessionId: string) => filterMessages(all, { method, sessionId }).map((x) => x.seq)

  it('matches a case-insensitive part of the method; empty matches everything', () => {
    expect(pick('', '')).toEqual([1, 2, 3, 4, 5, 6])
    expect(pick('INIT', '')).toEqual([1, 2])
    expect(pick('  session/up ', '')).toEqual([4, 5])
    expect(pick('nothing', '')).toEqual([])
  })

  it('filters by one session, or by messages of no session', () => {
    expect(pick('', 'a')).toEqual([3, 5])
    expect(pick('update', 'a')).toEqual([5])
    expect(pick('', NO_SESSION)).toEqual([1, 2, 6])
    expect(pick('init', NO_SESSION)).toEqual([1, 2])
  })

  it('lists the sessions seen, first seen first', () => {
    expect(sessionIdsOf(all)).toEqual(['a', 'b'])
  })
})

describe('inspector cells', () => {
  it('formats direction, size, latency, time and long session ids', () => {
    expect(directionOf('out')).toEqual({ arrow: '→', label: 'Sent to the agent' })
    expect(directionOf('in').arrow).toBe('←')
    expect(formatBytes(512)).toBe('512 B')
    expect(formatBytes(1536)).toBe('1.5 KB')
    expect(formatBytes(200 * 1024)).toBe('200 KB')
    expect(formatBytes(3 * 1024 * 1024)).toBe('3.0 MB')
    expect(formatLatency(undefined)).toBe('')
    expect(formatLatency(412.4)).toBe('412 ms')
    expect(formatLatency(2700)).toBe('2.70 s')
    expect(formatTime(new Date(2026, 0, 2, 3, 4, 5, 6).getTime())).toBe('03:04:05.006')
  })
})
