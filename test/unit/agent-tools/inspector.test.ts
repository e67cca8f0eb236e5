import { describe, expect, it, vi } from 'vitest'
import { AgentInspector, InspectorHub, TRUNCATED_KEY } from '../../../main/agents-tools/inspector'
import { REDACTED, SecretSet } from '../../../main/agents-tools/redaction'
import type { AcpClientConnection, WireTrace } from '../../../main/acp/types'
import { Emitter } from '../../../main/base/event'
import type { InspectorMessage } from '../../../common/contract/agent-tools'
import { ManualScheduler } from '../agents/manual-scheduler'

const trace = (direction: 'in' | 'out', time: number, message: unknown, bytes = 50): WireTrace => ({ direction, time, message, bytes })

function inspector(options: ConstructorParameters<typeof AgentInspector>[2] = {}, secrets = new SecretSet()) {
  return new AgentInspector('a', secrets, options)
}

describe('AgentInspector', () => {
  it('classifies messages and matches responses to requests by id and direction for latency', () => {
    const i = inspector()
    i.record(trace('out', 1000, { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }), 1)
    i.record(trace('in', 1005, { jsonrpc: '2.0', id: 1, method: 'fs/read_text_file', params: { sessionId: 's1' } }), 1)
    i.record(trace('out', 1007, { jsonrpc: '2.0', id: 1, result: { content: '' } }), 1)
    i.record(trace('in', 1042, { jsonrpc: '2.0', id: 1, result: { protocolVersion: 1 } }), 1)
    i.record(trace('in', 1050, { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's1' } }), 1)
    i.record(trace('out', 1060, { jsonrpc: '2.0', id: '1', method: 'session/prompt', params: { sessionId: 's1' } }), 1)
    i.record(trace('in', 1070, { jsonrpc: '2.0', id: '1', error: { code: -32000, message: 'auth' } }), 1)
    i.record(trace('in', 1080, 'not json at all'), 1)
    const out = i.drain()
    expect(out.map((m) => [m.direction, m.kind, m.method, m.latencyMs, m.sessionId])).toEqual([
      ['out', 'request', 'initialize', undefined, undefined],
      ['in', 'request', 'fs/read_text_file', undefined, 's1'],
      ['out', 'response', 'fs/read_text_file', 2, 's1'],
      ['in', 'response', 'initialize', 42, undefined],
      ['in', 'notification', 'session/update', undefined, 's1'],
      ['out', 'request', 'session/prompt', undefined, 's1'],
      ['in', 'error', 'session/prompt', 10, 's1'],
      ['in', 'invalid', undefined, undefined, undefined],
    ])
    expect(out.map((m) => m.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8])
  })

  it('keeps 1 and "1" apart, and ids of different connections apart', () => {
    const i = inspector()
    i.record(trace('out', 0, { id: 1, method: 'a' }), 1)
    i.record(trace('in', 10, { id: '1', result: null }), 1)
    i.record(trace('in', 20, { id: 1, result: null }), 2)
    i.record(trace('in', 30, { id: 1, result: null }), 1)
    expect(i.drain().map((m) => m.latencyMs)).toEqual([undefined, undefined, undefined, 30])
  })

  it('is bounded: the last N messages stay, the rest count as dropped', () => {
    const i = inspector({ capacity: 3 })
    for (let n = 0; n < 5; n++) i.record(trace('in', n, { method: 'n', params: { n } }), 1)
    i.drain()
    for (let n = 5; n < 10; n++) i.record(trace('in', n, { method: 'n', params: { n } }), 1)
    const messages = i.list()
    expect(messages.map((m) => (m.message as { params: { n: number } }).params.n)).toEqual([7, 8, 9])
    expect(i.dropped).toBe(7)
  })

  it('truncates huge messages after redaction, with a marker, and never serializes giant ones', () => {
    const secrets = new SecretSet()
    secrets.set('a', ['top-secret-value'])
    const i = inspector({ maxMessageChars: 1000, maxSerializeBytes: 100_000 }, secrets)
    i.record(trace('in', 0, { method: 'big', params: { text: `top-secret-value ${'x'.repeat(5000)}` } }, 5100), 1)
    i.record(trace('in', 0, { method: 'giant', params: { text: 'y' } }, 10_000_000), 1)
    const [big, giant] = i.drain()
    expect(big!.message).toMatchObject({ [TRUNCATED_KEY]: true, bytes: 5100 })
    const preview = (big!.message as { preview: string }).preview
    expect(preview.startsWith('{"method":"big","params":{"text":"«redacted» x')).toBe(true)
    expect(preview).not.toContain('top-secret')
    expect(big!.method).toBe('big')
    expect(giant!.message).toMatchObject({ [TRUNCATED_KEY]: true, bytes: 10_000_000 })
    expect((giant!.message as { preview: string }).preview).toContain('"method":"giant"')
  })

  it('redacts secrets in non-JSON lines too, and filters by method and session', () => {
    const secrets = new SecretSet()
    secrets.set('a', ['sk-live-abcdef'])
    const i = inspector({}, secrets)
    i.record(trace('in', 0, 'garbage sk-live-abcdef'), 1)
    i.record(trace('in', 0, { method: 'session/update', params: { sessionId: 'x' } }), 1)
    i.record(trace('in', 0, { method: 'session/update', params: { sessionId: 'y' } }), 1)
    expect(i.list()[0]!.message).toBe(`garbage ${REDACTED}`)
    expect(i.list({ method: 'session/update', sessionId: 'y' })).toHaveLength(1)
  })
})

describe('AgentInspector raw ring', () => {
  const line = (n: number, pad = 0) => {
    const message = { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's1', update: { n, text: 'x'.repeat(pad) } } }
    const text = JSON.stringify(message)
    return { direction: 'in' as const, time: n, message, bytes: text.length, text }
  }

  it('keeps the raw line, not the parsed value, and parses it only when read', () => {
    const secrets = new SecretSet()
    const redactJson = vi.spyOn(secrets, 'redactJson')
    const i = inspector({}, secrets)
    const trace = line(1)
    i.record(trace, 1)
    // Changing the parsed object after the fact does not change what the inspector shows: it kept the text.
    ;(trace.message.params.update as { n: number }).n = 99
    expect(redactJson).not.toHaveBeenCalled()
    const [message] = i.list()
    expect(redactJson).toHaveBeenCalledTimes(1)
    expect(message).toMatchObject({ seq: 1, kind: 'notification', method: 'session/update', sessionId: 's1', bytes: trace.bytes })
    expect((message!.message as { params: { update: { n: number } } }).params.update.n).toBe(1)
    // Processed once: a second read does not redact again.
    i.list()
    expect(redactJson).toHaveBeenCalledTimes(1)
  })

  it('is bounded by bytes as well as by count, and always keeps the newest message', () => {
    const i = inspector({ capacity: 100, maxRingBytes: 10_000 })
    for (let n = 1; n <= 50; n++) i.record(line(n, 1_000), 1)
    expect(i.heldBytes).toBeLessThanOrEqual(10_000)
    const kept = i.list().map((m) => m.seq)
    expect(kept.length).toBeGreaterThan(5)
    expect(kept.length).toBeLessThan(10)
    expect(kept.at(-1)).toBe(50)
    expect(i.dropped).toBe(50 - kept.length)
    // One message larger than the whole budget still shows (the newest is always kept).
    i.record(line(51, 20_000), 1)
    expect(i.list().map((m) => m.seq)).toEqual([51])
  })

  it('a flood of 100,000 lines holds at most `capacity` entries and never more than the byte budget', () => {
    const i = inspector({ capacity: 2_000, maxRingBytes: 64 * 1024 })
    for (let n = 1; n <= 100_000; n++) i.record(line(n), 1)
    expect(i.heldBytes).toBeLessThanOrEqual(64 * 1024)
    const messages = i.list()
    expect(messages.length).toBeLessThanOrEqual(2_000)
    expect(messages.at(-1)!.seq).toBe(100_000)
    expect(i.dropped + messages.length).toBe(100_000)
  })
})

describe('InspectorHub', () => {
  it('does no per-message work while nobody watches, and a view that opens lists the recent messages', () => {
    const scheduler = new ManualScheduler()
    const secrets = new SecretSet()
    const redactJson = vi.spyOn(secrets, 'redactJson')
    let watching = false
    const sent: InspectorMessage[][] = []
    const hub = new InspectorHub(secrets, (_a, messages) => sent.push(messages), scheduler, { capacity: 100 }, () => watching)
    const trace = new Emitter<WireTrace>()
    hub.attach('a', { onDidTrace: trace.event, onDidClose: new Emitter<{ error?: Error }>().event } as unknown as AcpClientConnection)
    for (let n = 1; n <= 1_000; n++) trace.fire({ direction: 'in', time: n, message: { method: 'session/update', params: { n } }, bytes: 40, text: JSON.stringify({ method: 'session/update', params: { n } }) })
    expect(scheduler.pending).toEqual([])
    hub.flush()
    expect(sent).toEqual([])
    expect(redactJson).not.toHaveBeenCalled()

    // The view opens: it lists the newest messages (processed now), and events carry only what follows.
    watching = true
    hub.startWatching('a')
    const listed = hub.inspector('a').list()
    expect(listed.map((m) => (m.message as { params: { n: number } }).params.n)).toEqual(Array.from({ length: 100 }, (_, k) => 901 + k))
    trace.fire({ direction: 'in', time: 2_000, message: { method: 'x' }, bytes: 10 })
    scheduler.advance(100)
    expect(sent.map((batch) => batch.map((m) => m.seq))).toEqual([[1_001]])
    hub.dispose()
  })


  function fakeConnection() {
    const trace = new Emitter<WireTrace>()
    const close = new Emitter<{ error?: Error }>()
    return { trace, close, connection: { onDidTrace: trace.event, onDidClose: close.event } as unknown as AcpClientConnection }
  }

  it('batches events (one per interval per agent) and stops listening when the connection closes', () => {
    const scheduler = new ManualScheduler()
    const sent: { agentId: string; messages: InspectorMessage[] }[] = []
    const hub = new InspectorHub(new SecretSet(), (agentId, messages) => sent.push({ agentId, messages }), scheduler, { batchMs: 100 })
    const { trace, close, connection } = fakeConnection()
    hub.attach('a', connection)
    for (let n = 0; n < 5; n++) trace.fire({ direction: 'in', time: n, message: { method: 'x' }, bytes: 10 })
    expect(sent).toEqual([])
    expect(scheduler.pending).toEqual([100])
    scheduler.advance(100)
    expect(sent).toHaveLength(1)
    expect(sent[0]!.messages).toHaveLength(5)

    close.fire({})
    expect(trace.listenerCount).toBe(0)
    hub.dispose()
  })

  it('a read drains the queue, and the next event still announces those messages once', () => {
    const scheduler = new ManualScheduler()
    const sent: InspectorMessage[][] = []
    const hub = new InspectorHub(new SecretSet(), (_a, messages) => sent.push(messages), scheduler)
    const { trace, connection } = fakeConnection()
    hub.attach('a', connection)
    trace.fire({ direction: 'in', time: 0, message: { method: 'x' }, bytes: 10 })
    expect(hub.inspector('a').list()).toHaveLength(1)
    scheduler.advance(100)
    expect(sent.map((m) => m.length)).toEqual([1])
    scheduler.advance(1000)
    expect(sent).toHaveLength(1)
    hub.dispose()
  })
})
