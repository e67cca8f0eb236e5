import { beforeEach, describe, expect, it, vi } from 'vitest'

vi.mock('electron', async () => (await import('../../electron/fake-electron')).electronModule)

import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { EventSink } from '../../../common/contract'
import { createPermissionsService } from '../../../main/permissions/service'
import { createNotifier, isWindowFocused } from '../../../main/shell/notifications'
import { FakeBrowserWindow, fake } from '../../electron/fake-electron'
import { FakeConnection, standardOptions } from '../permissions/fakes'

let window: FakeBrowserWindow
let emitted: { name: string; payload: unknown }[]
const sink: EventSink = { emit: (name, payload) => void emitted.push({ name, payload }) }

beforeEach(() => {
  fake.reset()
  window = new FakeBrowserWindow({})
  emitted = []
})

/** The permissions service with the OS notifier, as create-services wires them, the window not focused. */
async function notifyingService(home: string) {
  const notifier = createNotifier(() => window as never)
  const service = await createPermissionsService({
    home,
    sink: () => {},
    sessions: { getSession: () => ({ cwd: '/proj', sessionId: 'a/s' }) },
    events: sink,
    notifier,
    isWindowFocused: () => false,
    focusRequest: (requestId) => sink.emit('focusRequest', { requestId }),
    focusSession: (sessionId) => sink.emit('focusSession', { sessionId }),
  })
  return { notifier, service }
}

describe('notifier', () => {
  it('shows a notification whose click brings the window up and runs its onClick once (no event of its own)', () => {
    const notifier = createNotifier(() => window as never)
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
    expect(emitted).toEqual([])
    expect(onClick).toHaveBeenCalledTimes(1)
  })

  it('on Linux the body is escaped as the notification spec asks: an agent’s tags or a lone "&" are shown as written, not read as markup', () => {
    const body = 'Run <b>rm -rf build</b> & <a href="https://evil.example">approve here</a>\nin “a < b”'
    createNotifier(() => window as never, { platform: 'linux' }).show({ title: 'Claude needs your approval', body }, () => {})
    expect(fake.notifications[0]?.options).toEqual({
      title: 'Claude needs your approval',
      body: 'Run &lt;b&gt;rm -rf build&lt;/b&gt; &amp; &lt;a href="https://evil.example"&gt;approve here&lt;/a&gt;\nin “a &lt; b”',
    })
    // macOS and Windows show the body as plain text: as it is.
    for (const platform of ['darwin', 'win32'] as const) createNotifier(() => window as never, { platform }).show({ title: 'Claude needs your approval', body }, () => {})
    expect(fake.notifications.slice(1).map((n) => n.options)).toEqual([
      { title: 'Claude needs your approval', body },
      { title: 'Claude needs your approval', body },
    ])
  })

  it('with the permissions service (as create-services wires it): one focusRequest per click, and focusSession for "turn ended"', async () => {
    const home = await mkdtemp(join(tmpdir(), 'bosun-notify-'))
    try {
      const { notifier, service } = await notifyingService(home)
      await service.handlers.setNotificationSettings({ notifyOnTurnEnd: true })
      const connection = new FakeConnection(1)
      service.broker.attach(connection, { agentId: 'a', agentName: 'Agent A', protocolVersion: 1 })
      void connection.request(1, { sessionId: 's', toolCall: { toolCallId: 'c', title: 'Run ls' }, options: standardOptions })
      const requestId = service.broker.pending()[0]!.requestId
      window.focused = false
      fake.notifications[0]!.emit('click')
      expect(window.focusCalls).toBe(1)
      service.attention.turnEnded({ sessionId: 'a/s', agentName: 'Agent A', sessionTitle: 'Fix the build' })
      fake.notifications[1]!.emit('click')
      expect(emitted.filter((e) => e.name.startsWith('focus'))).toEqual([
        { name: 'focusRequest', payload: { requestId } },
        { name: 'focusSession', payload: { sessionId: 'a/s' } },
      ])
      // The browser page gets nothing: Electron shows the OS notification instead.
      expect(emitted.some((e) => e.name === 'notify')).toBe(false)
      service.dispose()
      await service.flush()
      notifier.dispose()
    } finally {
      await rm(home, { recursive: true, force: true })
    }
  })

  it('closes the OS notification of a request that goes before the person answers: the agent withdraws it, or exits', async () => {
    const home = await mkdtemp(join(tmpdir(), 'bosun-notify-'))
    try {
      const { notifier, service } = await notifyingService(home)
      const connection = new FakeConnection(1)
      service.broker.attach(connection, { agentId: 'a', agentName: 'Agent A', protocolVersion: 1 })
      const withdrawn = connection.request(1, { sessionId: 's', toolCall: { toolCallId: 'c1', title: 'Run ls' }, options: standardOptions })
      const [first] = fake.notifications
      expect(first).toMatchObject({ shown: true, closed: false })
      connection.cancelRequest(1)
      await withdrawn
      expect(first!.closed).toBe(true)
      // Past the burst window: the next one is a notification of its own, and goes when the agent exits.
      service.attention.windowStateChanged({ focused: true })
      void connection.request(2, { sessionId: 's', toolCall: { toolCallId: 'c2', title: 'Run pwd' }, options: standardOptions })
      const second = fake.notifications[1]
      expect(second).toMatchObject({ shown: true, closed: false })
      connection.close()
      expect(service.broker.pending()).toEqual([])
      expect(second!.closed).toBe(true)
      expect(emitted.filter((e) => e.name === 'focusRequest' || e.name === 'notificationWithdrawn')).toEqual([])
      service.dispose()
      await service.flush()
      notifier.dispose()
    } finally {
      await rm(home, { recursive: true, force: true })
    }
  })

  it('closes live notifications on dispose', () => {
    const notifier = createNotifier(() => window as never)
    notifier.show({ title: 't', body: 'b' }, () => undefined)
    notifier.dispose()
    expect(fake.notifications[0]?.closed).toBe(true)
  })

  it('sets the badge count, never negative', () => {
    const notifier = createNotifier(() => window as never)
    notifier.setBadgeCount(3)
    expect(fake.app.badgeCount).toBe(3)
    notifier.setBadgeCount(-1)
    expect(fake.app.badgeCount).toBe(0)
  })

  it('on Windows also puts a dot on the taskbar button, described with the count, and clears it at zero', () => {
    const notifier = createNotifier(() => window as never, { platform: 'win32' })
    notifier.setBadgeCount(2)
    expect(window.overlay).toEqual({ image: { fakeImage: true, bytes: 16 * 16 * 4, width: 16, height: 16 }, description: '2 waiting for you' })
    notifier.setBadgeCount(0)
    expect(window.overlay).toEqual({ image: null, description: '' })
    const elsewhere = createNotifier(() => window as never, { platform: 'linux' })
    window.overlay = undefined
    elsewhere.setBadgeCount(4)
    expect(window.overlay).toBeUndefined()
    expect(fake.app.badgeCount).toBe(4)
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
