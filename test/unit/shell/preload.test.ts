import { beforeAll, describe, expect, it, vi } from 'vitest'

vi.mock('electron', async () => (await import('../../electron/fake-electron')).electronModule)

import { callChannel, calls, eventChannel, events, subscriptionName, type CallName, type EventName } from '../../../common/contract'
import { BRIDGE_ARG_PREFIX, decodeBridgeManifest, encodeBridgeManifest } from '../../../common/bridge-manifest'
import { secureWebPreferences } from '../../../main/shell/window'
import { fake } from '../../electron/fake-electron'

let api: Record<string, (...args: unknown[]) => unknown>

const originalArgv = [...process.argv]

beforeAll(async () => {
  fake.reset()
  // What Electron does with webPreferences.additionalArguments: append them to the renderer's process.argv.
  process.argv.push(...(secureWebPreferences('/p').additionalArguments ?? []))
  try {
    await import('../../../preload/index')
  } finally {
    process.argv.splice(0, process.argv.length, ...originalArgv)
  }
  api = fake.exposed.get('bosun') as typeof api
})

describe('preload bridge', () => {
  it('exposes exactly one method per call and one subscription per event, frozen', () => {
    const expected = [...Object.keys(calls), ...Object.keys(events).map((n) => subscriptionName(n as EventName))].sort()
    expect(Object.keys(api).sort()).toEqual(expected)
    expect(Object.isFrozen(api)).toBe(true)
    for (const raw of ['send', 'invoke', 'on', 'ipcRenderer', 'removeListener']) expect(api).not.toHaveProperty(raw)
  })

  it('has no call whose name collides with a subscription', () => {
    const subscriptions = new Set(Object.keys(events).map((n) => subscriptionName(n as EventName)))
    for (const name of Object.keys(calls)) {
      expect(subscriptions.has(name), name).toBe(false)
      expect(name, 'calls must not look like subscriptions').not.toMatch(/^on[A-Z]/)
    }
  })

  it('invokes the call channel with exactly the one argument', async () => {
    const name: CallName = 'cancel'
    await api[name]!({ sessionId: 's1' })
    expect(fake.rendererInvocations.at(-1)).toEqual({ channel: callChannel(name), args: [{ sessionId: 's1' }] })
  })

  it('gives listeners the payload only, and unsubscribes', () => {
    const listener = vi.fn()
    const unsubscribe = api[subscriptionName('focusRequest')]!(listener) as () => void
    fake.rendererListeners.emit(eventChannel('focusRequest'), { sender: 'the ipcRenderer event' }, { requestId: 'r1' })
    expect(listener).toHaveBeenCalledTimes(1)
    expect(listener.mock.calls[0]).toEqual([{ requestId: 'r1' }])
    unsubscribe()
    fake.rendererListeners.emit(eventChannel('focusRequest'), {}, { requestId: 'r2' })
    expect(listener).toHaveBeenCalledTimes(1)
    expect(fake.rendererListeners.listenerCount(eventChannel('focusRequest'))).toBe(0)
  })

  it('refuses a subscription without a listener function', () => {
    expect(() => api[subscriptionName('focusRequest')]!('not a function')).toThrow(TypeError)
  })
})

describe('bridge manifest', () => {
  it('round-trips and refuses anything that is not ours', () => {
    const manifest = { calls: { cancel: 'bosun:call:cancel' }, events: { onFocusRequest: 'bosun:event:focusRequest' } }
    expect(decodeBridgeManifest(['electron', encodeBridgeManifest(manifest)])).toEqual(manifest)
    expect(decodeBridgeManifest([])).toBeNull()
    expect(decodeBridgeManifest([BRIDGE_ARG_PREFIX + '%7Bnot json'])).toBeNull()
    expect(decodeBridgeManifest([encodeBridgeManifest({ calls: { x: 'other:channel' }, events: {} })])).toBeNull()
    expect(decodeBridgeManifest([encodeBridgeManifest({ calls: {}, events: { onX: 'bosun:call:x' } })])).toBeNull()
  })
})
