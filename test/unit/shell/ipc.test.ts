import { MAX_IN_FLIGHT_BYTES } from '../../../main/web/view-flow'
import { beforeEach, describe, expect, it, vi } from 'vitest'

vi.mock('electron', async () => (await import('../../electron/fake-electron')).electronModule)

import { callChannel, calls, eventChannel, type CallClient, type CallHandlers } from '../../../common/contract'
import { BosunError } from '../../../main/base/errors'
import { createMemoryLogger } from '../../../main/base/log'
import { createWindowEventSink, registerIpcHandlers } from '../../../main/shell/ipc'
import { MAX_CALLS_IN_FLIGHT } from '../../../main/web/dispatch'
import { heldUntilReleased } from '../../support/held'
import { FakeBrowserWindow, FakeFrame, FakeWebContents, fake, invokeEvent } from '../../electron/fake-electron'

type Handler = ReturnType<typeof vi.fn>

function stubHandlers(): Record<string, Handler> {
  return Object.fromEntries(
    Object.keys(calls).map((name) => [name, vi.fn(async (arg: unknown) => ({ ok: true, value: { echoed: arg } }))]),
  ) as Record<string, Handler>
}

let window: FakeBrowserWindow
let handlers: ReturnType<typeof stubHandlers>
let log: ReturnType<typeof createMemoryLogger>

beforeEach(() => {
  fake.reset()
  window = new FakeBrowserWindow({})
  handlers = stubHandlers()
  log = createMemoryLogger()
  registerIpcHandlers({ getWindow: () => window as never, handlers: handlers as unknown as CallHandlers, log })
})

const good = () => invokeEvent(window.webContents)

describe('IPC handlers', () => {
  it('registers exactly one handler per contract call', () => {
    expect([...fake.ipcHandlers.keys()].sort()).toEqual(Object.keys(calls).map((n) => callChannel(n as never)).sort())
  })

  it('passes a good call from our main frame to its handler, parsed', async () => {
    const result = await fake.invoke(callChannel('cancel'), good(), { sessionId: 's1' })
    expect(result).toEqual({ ok: true, value: { echoed: { sessionId: 's1' } } })
    expect(handlers.cancel).toHaveBeenCalledWith({ sessionId: 's1' }, expect.anything())
    expect(await fake.invoke(callChannel('appInfo'), good(), undefined)).toMatchObject({ ok: true })
  })

  it('tells each call which page made it: one per loaded document, which leaves on a reload, a crash or the close', async () => {
    const left: number[] = []
    const clients: CallClient[] = []
    handlers.cancel!.mockImplementation(async (_arg: unknown, client: CallClient) => {
      if (!clients.includes(client)) {
        const n = clients.push(client)
        client.onDidLeave(() => left.push(n))
      }
      return { ok: true, value: undefined }
    })
    const cancel = () => fake.invoke(callChannel('cancel'), good(), { sessionId: 's1' })
    await cancel()
    await cancel()
    expect(clients).toHaveLength(1)
    // A reload loads another document: the first page leaves, the next call is from the second.
    window.webContents.emit('did-navigate', {}, 'bosun://app/index.html')
    expect(left).toEqual([1])
    await cancel()
    expect(clients).toHaveLength(2)
    window.webContents.emit('render-process-gone', {}, { reason: 'crashed' })
    expect(left).toEqual([1, 2])
    await cancel()
    window.destroy()
    window.webContents.emit('destroyed')
    expect(left).toEqual([1, 2, 3])
    // Nothing of a page that left stays subscribed to its webContents.
    expect(window.webContents.listenerCount('did-navigate')).toBe(0)
    expect(window.webContents.listenerCount('destroyed')).toBe(0)
  })

  it.each([
    ['a null sender frame', () => invokeEvent(window.webContents, null)],
    ['a subframe', () => invokeEvent(window.webContents, new FakeFrame('bosun://app/index.html', window.webContents.mainFrame))],
    ['another origin', () => invokeEvent(window.webContents, new FakeFrame('https://evil.example/'))],
    ['another host on our scheme', () => invokeEvent(window.webContents, new FakeFrame('bosun://evil/index.html'))],
    ['a file URL', () => invokeEvent(window.webContents, new FakeFrame('file:///app/out/renderer/index.html'))],
    ['another webContents', () => invokeEvent(new FakeWebContents())],
  ])('refuses a call from %s without calling the handler', async (_label, event) => {
    const result = await fake.invoke(callChannel('cancel'), event(), { sessionId: 's1' })
    expect(result).toMatchObject({ ok: false, error: { kind: 'forbidden' } })
    expect(handlers.cancel).not.toHaveBeenCalled()
    expect(log.lines.some((l) => l.includes('refused call cancel'))).toBe(true)
  })

  it('runs at most MAX_CALLS_IN_FLIGHT calls at once: the next is answered busy without reaching its handler', async () => {
    const { run, release } = heldUntilReleased({ ok: true, value: undefined })
    handlers.cancel!.mockImplementation(run)
    const waiting = Array.from({ length: MAX_CALLS_IN_FLIGHT }, () => fake.invoke(callChannel('cancel'), good(), { sessionId: 's1' }))
    expect(await fake.invoke(callChannel('appInfo'), good(), undefined)).toMatchObject({ ok: false, error: { kind: 'busy' } })
    expect(handlers.appInfo).not.toHaveBeenCalled()
    release()
    expect((await Promise.all(waiting)).every((r) => (r as { ok: boolean }).ok)).toBe(true)
    expect(await fake.invoke(callChannel('appInfo'), good(), undefined)).toMatchObject({ ok: true })
  })

  it('refuses calls once the window is destroyed', async () => {
    window.destroy()
    expect(await fake.invoke(callChannel('cancel'), good(), { sessionId: 's1' })).toMatchObject({ ok: false, error: { kind: 'forbidden' } })
  })

  it.each([
    ['a missing argument', []],
    ['a wrong type', [{ sessionId: 42 }]],
    ['an empty id', [{ sessionId: '' }]],
    ['a string', ['s1']],
    ['two arguments', [{ sessionId: 's1' }, { sessionId: 's2' }]],
  ])('answers %s with invalid-argument and never calls the handler', async (_label, args) => {
    const result = await fake.invoke(callChannel('cancel'), good(), ...args)
    expect(result).toMatchObject({ ok: false, error: { kind: 'invalid-argument' } })
    expect(handlers.cancel).not.toHaveBeenCalled()
  })

  it('turns an unexpected throw into an internal failure and logs it', async () => {
    handlers.cancel!.mockRejectedValueOnce(new Error('boom with secret detail'))
    const result = await fake.invoke(callChannel('cancel'), good(), { sessionId: 's1' })
    expect(result).toEqual({ ok: false, error: { kind: 'internal', message: expect.not.stringContaining('secret') } })
    expect(log.lines.some((l) => l.startsWith('error') && l.includes('boom with secret detail'))).toBe(true)
  })

  it('passes a thrown BosunError through as its failure value', async () => {
    handlers.cancel!.mockRejectedValueOnce(new BosunError({ kind: 'not-found', message: 'no such session' }))
    expect(await fake.invoke(callChannel('cancel'), good(), { sessionId: 's1' })).toEqual({
      ok: false,
      error: { kind: 'not-found', message: 'no such session' },
    })
  })

  it('removes every handler on dispose', () => {
    fake.ipcHandlers.clear()
    const disposable = registerIpcHandlers({ getWindow: () => window as never, handlers: handlers as unknown as CallHandlers, log })
    expect(fake.ipcHandlers.size).toBe(Object.keys(calls).length)
    disposable.dispose()
    expect(fake.ipcHandlers.size).toBe(0)
  })
})

describe('window event sink', () => {
  it('sends events on their channel to our webContents, and nowhere once it is gone', () => {
    let current: FakeBrowserWindow | undefined = window
    const sink = createWindowEventSink(() => current as never, log, () => undefined)
    sink.emit('focusRequest', { requestId: 'r1' })
    expect(window.webContents.sent).toEqual([{ channel: eventChannel('focusRequest'), args: [{ requestId: 'r1' }] }])
    window.destroy()
    sink.emit('focusRequest', { requestId: 'r2' })
    current = undefined
    sink.emit('focusRequest', { requestId: 'r3' })
    expect(window.webContents.sent).toHaveLength(1)
  })

  it('sends the page no more than the window of batches it has not applied (webContents.send has no backpressure), more as it applies them', () => {
    const sink = createWindowEventSink(() => window as never, log, () => undefined)
    const text = 'x'.repeat(64 * 1024)
    const batch = (seq: number) => ({ sessionId: 's1', seq, actions: [{ type: 'updates' as const, updates: [{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } }] as never }] })
    const sent = () => window.webContents.sent.filter((m) => m.channel === eventChannel('sessionActions')).map((m) => m.args[0] as { seq: number })
    // The page says what it applied (nothing yet): from now on main counts.
    sink.flow.applied([])
    for (let seq = 1; seq <= 400; seq++) sink.emit('sessionActions', batch(seq))
    const first = sent()
    // The window's worth of 64 KiB batches, and one more.
    expect(first.length).toBeLessThanOrEqual(MAX_IN_FLIGHT_BYTES / (64 * 1024) + 1)
    sink.flow.applied([{ sessionId: 's1', seq: first.at(-1)!.seq }])
    const second = sent()
    expect(second.length).toBeGreaterThan(first.length)
    // What waited went merged: fewer messages than batches, the seqs continuing where the first ones stopped.
    expect((window.webContents.sent.at(-1)!.args[0] as { fromSeq?: number }).fromSeq).toBeGreaterThan(first.at(-1)!.seq)
  })
})
