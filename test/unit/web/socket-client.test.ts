import { afterEach, describe, expect, it, vi } from 'vitest'
import { createSocketClient, type SocketLike } from '../../../renderer/bridge/socket-client'

class FakeSocket implements SocketLike {
  readyState = 0
  readonly sent: unknown[] = []
  closed = false
  onopen: ((event: unknown) => void) | null = null
  onmessage: ((event: { data: unknown }) => void) | null = null
  onclose: ((event: unknown) => void) | null = null
  onerror: ((event: unknown) => void) | null = null
  constructor(readonly url: string) {}
  send(data: string) {
    this.sent.push(JSON.parse(data))
  }
  close() {
    this.closed = true
  }
  open() {
    this.readyState = 1
    this.onopen?.({})
  }
  drop() {
    this.readyState = 3
    this.onclose?.({})
  }
  answer(id: number, result: unknown) {
    this.onmessage?.({ data: JSON.stringify({ type: 'result', id, result }) })
  }
}

afterEach(() => vi.useRealTimers())

function setup() {
  const sockets: FakeSocket[] = []
  const client = createSocketClient({
    url: 'ws://127.0.0.1:1/bosun-ws?token=t',
    connect: (url) => {
      const socket = new FakeSocket(url)
      sockets.push(socket)
      return socket
    },
    initialDelayMs: 100,
    maxDelayMs: 1000,
  })
  return { client, sockets }
}

describe('socket client', () => {
  it('queues calls until connected, then pairs answers by id', async () => {
    const { client, sockets } = setup()
    const first = client.api.cancel({ sessionId: 'a' })
    const second = client.api.appInfo(undefined)
    expect(sockets[0]!.sent).toEqual([])
    sockets[0]!.open()
    expect(sockets[0]!.sent).toEqual([
      { type: 'call', id: 1, name: 'cancel', arg: { sessionId: 'a' } },
      { type: 'call', id: 2, name: 'appInfo' },
    ])
    sockets[0]!.answer(2, { ok: true, value: 'info' })
    sockets[0]!.answer(1, { ok: true, value: null })
    expect(await second).toEqual({ ok: true, value: 'info' })
    expect(await first).toEqual({ ok: true, value: null })
    client.dispose()
  })

  it('fails calls in flight when the socket drops, and reconnects with doubling backoff', async () => {
    vi.useFakeTimers()
    const { client, sockets } = setup()
    sockets[0]!.open()
    const pending = client.api.cancel({ sessionId: 'a' })
    sockets[0]!.drop()
    expect(await pending).toMatchObject({ ok: false, error: { kind: 'disconnected' } })
    const delays: number[] = []
    for (let i = 0; i < 5; i++) {
      const before = sockets.length
      let waited = 0
      while (sockets.length === before) {
        await vi.advanceTimersByTimeAsync(50)
        waited += 50
      }
      delays.push(waited)
      sockets.at(-1)!.drop()
    }
    expect(delays).toEqual([100, 200, 400, 800, 1000])
    client.dispose()
  })

  it('after a reconnect fetches getSnapshot and hands it to rehydrate listeners', async () => {
    vi.useFakeTimers()
    const { client, sockets } = setup()
    const snapshots: unknown[] = []
    client.onDidRehydrate((snapshot) => snapshots.push(snapshot))
    sockets[0]!.open()
    expect(sockets[0]!.sent).toEqual([])
    sockets[0]!.drop()
    await vi.advanceTimersByTimeAsync(100)
    sockets[1]!.open()
    expect(sockets[1]!.sent).toEqual([{ type: 'call', id: 1, name: 'getSnapshot' }])
    sockets[1]!.answer(1, { ok: true, value: { agents: [], sessions: [] } })
    await vi.waitFor(() => expect(snapshots).toEqual([{ agents: [], sessions: [] }]))
    client.dispose()
  })

  it('dispatches events to subscribers and stops after unsubscribe', () => {
    const { client, sockets } = setup()
    sockets[0]!.open()
    const listener = vi.fn()
    const off = client.api.onFocusRequest(listener)
    const event = { data: JSON.stringify({ type: 'event', name: 'focusRequest', payload: { requestId: 'r' } }) }
    sockets[0]!.onmessage?.(event)
    off()
    sockets[0]!.onmessage?.(event)
    sockets[0]!.onmessage?.({ data: 'garbage' })
    expect(listener).toHaveBeenCalledTimes(1)
    expect(listener).toHaveBeenCalledWith({ requestId: 'r' })
    client.dispose()
  })

  it('is not a thenable, and dispose fails pending calls and stops reconnecting', async () => {
    vi.useFakeTimers()
    const { client, sockets } = setup()
    expect((client.api as unknown as { then?: unknown }).then).toBeUndefined()
    const queued = client.api.cancel({ sessionId: 'a' })
    client.dispose()
    expect(await queued).toMatchObject({ ok: false, error: { kind: 'disconnected' } })
    expect(sockets[0]!.closed).toBe(true)
    await vi.advanceTimersByTimeAsync(10_000)
    expect(sockets).toHaveLength(1)
  })
})
