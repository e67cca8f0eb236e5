import { beforeEach, describe, expect, it, vi } from 'vitest'

vi.mock('electron', async () => (await import('../../electron/fake-electron')).electronModule)

import type { EventSink } from '../../../preload/contract'
import { createNotifier, isWindowFocused } from '../../../main/shell/notifications'
import { FakeBrowserWindow, fake } from '../../electron/fake-electron'

let window: FakeBrowserWindow
let emitted: { name: string; payload: unknown }[]
const sink: EventSink = { emit: (name, payload) => void emitted.push({ name, payload }) }

beforeEach(() => {
  fake.reset()
  window = new FakeBrowserWindow({})
  emitted = []
})

describe('notifier', () => {
  it('shows a notification whose click brings the window up and focuses the request', () => {
    const notifier = createNotifier(() => window as never, sink)
    const onClick = vi.fn()
    window.minimized = true
    window.focused = false
    notifier.show({ title: 'Permission needed', body: 'codex wants to run `ls`', requestId: 'req-1' }, onClick)
    const [notification] = fake.notifications
    expect(notification?.shown).toBe(true)
    expect(notification?.options).toEqual({ title: 'Permission needed', body: 'codex wants to run `ls`' })
    notification!.emit('click')
    expect(window.minimized).toBe(false)
    expect(window.focusCalls).toBe(1)
    expect(emitted).toEqual([{ name: 'focusRequest', payload: { requestId: 'req-1' } }])
    expect(onClick).toHaveBeenCalledTimes(1)
  })

  it('closes live notifications on dispose', () => {
    const notifier = createNotifier(() => window as never, sink)
    notifier.show({ title: 't', body: 'b' }, () => undefined)
    notifier.dispose()
    expect(fake.notifications[0]?.closed).toBe(true)
  })

  it('sets the badge count, never negative', () => {
    const notifier = createNotifier(() => window as never, sink)
    notifier.setBadgeCount(3)
    expect(fake.app.badgeCount).toBe(3)
    notifier.setBadgeCount(-1)
    expect(fake.app.badgeCount).toBe(0)
  })

  it('isWindowFocused: focused, visible and not minimised', () => {
    expect(isWindowFocused(window as never)).toBe(true)
    window.minimized = true
    expect(isWindowFocused(window as never)).toBe(false)
    window.minimized = false
    window.focused = false
    expect(isWindowFocused(window as never)).toBe(false)
    expect(isWindowFocused(undefined)).toBe(false)
  })
})
