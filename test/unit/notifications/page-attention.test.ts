import { describe, expect, it } from 'vitest'
import type { CallResult } from '../../../common/contract'
import {
  notificationPermission,
  requestNotificationPermission,
  startPageAttention,
  type NotificationConstructorLike,
  type NotificationLike,
  type PageAttentionApi,
  type PageEnvironment,
} from '../../../renderer/notifications/page-attention'

type Listener<T> = (payload: T) => void

function fakeApi(pending = 0) {
  const reports: { focused: boolean; visible: boolean }[] = []
  const notify = new Set<Listener<{ title: string; body: string; requestId?: string; sessionId?: string }>>()
  const badge = new Set<Listener<{ count: number }>>()
  const focusSession = new Set<Listener<{ sessionId: string }>>()
  const withdrawn = new Set<Listener<{ requestId: string }>>()
  let listResolve: (() => void) | undefined
  const listed = new Promise<void>((resolve) => (listResolve = resolve))
  const api = {
    reportWindowState: async (state: { focused: boolean; visible: boolean }) => {
      reports.push(state)
      return { ok: true, value: undefined } as CallResult<undefined>
    },
    onFocusSession: (listener: Listener<{ sessionId: string }>) => {
      focusSession.add(listener)
      return () => focusSession.delete(listener)
    },
    onNotify: (listener: Listener<{ title: string; body: string; requestId?: string; sessionId?: string }>) => {
      notify.add(listener)
      return () => notify.delete(listener)
    },
    onNotificationWithdrawn: (listener: Listener<{ requestId: string }>) => {
      withdrawn.add(listener)
      return () => withdrawn.delete(listener)
    },
    onBadge: (listener: Listener<{ count: number }>) => {
      badge.add(listener)
      return () => badge.delete(listener)
    },
    listPendingPermissions: async () => {
      queueMicrotask(() => listResolve?.())
      return { ok: true, value: Array.from({ length: pending }) } as never
    },
  } as unknown as PageAttentionApi
  return {
    api,
    reports,
    listed,
    notify: (payload: { title: string; body: string; requestId?: string; sessionId?: string }) => notify.forEach((l) => l(payload)),
    badge: (count: number) => badge.forEach((l) => l({ count })),
    focusSession: (sessionId: string) => focusSession.forEach((l) => l({ sessionId })),
    withdraw: (requestId: string) => withdrawn.forEach((l) => l({ requestId })),
    listenerCount: () => notify.size + badge.size + focusSession.size + withdrawn.size,
  }
}

function fakeEnv(options: { focused?: boolean; visible?: boolean; permission?: NotificationPermission; withNotification?: boolean } = {}) {
  const win = new EventTarget() as EventTarget & { focus(): void; focusCalls: number }
  win.focusCalls = 0
  win.focus = () => void win.focusCalls++
  const state = { focused: options.focused ?? true, visible: options.visible ?? true }
  // defineProperty, not Object.assign: the getter must stay live.
  const doc = Object.defineProperty(Object.assign(new EventTarget(), { title: 'Bosun', hasFocus: () => state.focused }), 'visibilityState', {
    get: (): DocumentVisibilityState => (state.visible ? 'visible' : 'hidden'),
  }) as EventTarget & { title: string; hasFocus(): boolean; readonly visibilityState: DocumentVisibilityState }
  const shown: (NotificationLike & { title: string; options?: { body?: string; tag?: string }; closed: boolean })[] = []
  class FakeNotification {
    static permission: NotificationPermission = options.permission ?? 'granted'
    static requestPermission = async () => (FakeNotification.permission = 'granted')
    onclick: NotificationLike['onclick'] = null
    closed = false
    constructor(
      public title: string,
      public options?: { body?: string; tag?: string },
    ) {
      shown.push(this)
    }
    close() {
      this.closed = true
    }
  }
  const env: PageEnvironment = {
    window: win as unknown as PageEnvironment['window'],
    document: doc as unknown as PageEnvironment['document'],
    ...(options.withNotification === false ? {} : { Notification: FakeNotification as unknown as NotificationConstructorLike }),
  }
  return {
    env,
    win,
    doc,
    shown,
    Ctor: FakeNotification,
    hide() {
      state.visible = false
      state.focused = false
      doc.dispatchEvent(new Event('visibilitychange'))
    },
    blur() {
      state.focused = false
      win.dispatchEvent(new Event('blur'))
    },
    focus() {
      state.focused = true
      state.visible = true
      doc.dispatchEvent(new Event('visibilitychange'))
      win.dispatchEvent(new Event('focus'))
    },
  }
}

describe('startPageAttention', () => {
  it('reports the window state at start and on each change, once per distinct state', () => {
    const api = fakeApi()
    const page = fakeEnv()
    const stop = startPageAttention({ api: api.api, openRequest: () => {}, reportToMain: true, env: page.env })
    page.blur()
    page.blur()
    page.hide()
    page.focus()
    expect(api.reports).toEqual([
      { focused: true, visible: true },
      { focused: false, visible: true },
      { focused: false, visible: false },
      { focused: true, visible: true },
    ])
    stop()
  })

  it('reports again after a reconnect, even when nothing changed', () => {
    const api = fakeApi()
    const page = fakeEnv()
    let reconnect: (() => void) | undefined
    const stop = startPageAttention({
      api: api.api,
      openRequest: () => {},
      reportToMain: true,
      env: page.env,
      onDidReconnect: (listener) => {
        reconnect = listener
        return () => (reconnect = undefined)
      },
    })
    reconnect!()
    expect(api.reports).toHaveLength(2)
    stop()
    expect(reconnect).toBeUndefined()
  })

  it('shows a notify event only while hidden or unfocused, and a click opens its request', () => {
    const api = fakeApi()
    const page = fakeEnv()
    const opened: string[] = []
    const stop = startPageAttention({ api: api.api, openRequest: (id) => opened.push(id), reportToMain: true, env: page.env })
    api.notify({ title: 'A needs your approval', body: 'Run ls', requestId: 'r1' })
    expect(page.shown).toHaveLength(0)

    page.blur()
    api.notify({ title: 'A needs your approval', body: 'Run ls', requestId: 'r1' })
    expect(page.shown).toHaveLength(1)
    expect(page.shown[0]!.title).toBe('A needs your approval')
    expect(page.shown[0]!.options).toEqual({ body: 'Run ls', tag: 'bosun-r1' })

    page.shown[0]!.onclick!.call(page.shown[0], new Event('click'))
    expect(page.win.focusCalls).toBe(1)
    expect(opened).toEqual(['r1'])
    expect(page.shown[0]!.closed).toBe(true)
    stop()
  })

  it('a "turn ended" notification opens its session; main\'s focusSession (Electron) does too', () => {
    const api = fakeApi()
    const page = fakeEnv()
    const requests: string[] = []
    const sessions: string[] = []
    const stop = startPageAttention({ api: api.api, openRequest: (id) => requests.push(id), openSession: (id) => sessions.push(id), reportToMain: true, env: page.env })
    page.blur()
    api.notify({ title: 'A finished', body: 'Fix the build', sessionId: 'a/s1' })
    page.shown[0]!.onclick!.call(page.shown[0], new Event('click'))
    expect(page.win.focusCalls).toBe(1)
    expect(sessions).toEqual(['a/s1'])
    api.focusSession('a/s2')
    expect(sessions).toEqual(['a/s1', 'a/s2'])
    expect(requests).toEqual([])
    stop()
    api.focusSession('a/s3')
    expect(sessions).toEqual(['a/s1', 'a/s2'])
    expect(api.listenerCount()).toBe(0)
  })

  it('closes the notification of a request main withdraws (answered elsewhere, its session or agent gone); others stay', () => {
    const api = fakeApi()
    const page = fakeEnv()
    const opened: string[] = []
    const stop = startPageAttention({ api: api.api, openRequest: (id) => opened.push(id), reportToMain: true, env: page.env })
    page.blur()
    api.notify({ title: 'A needs your approval', body: 'Run ls', requestId: 'r1' })
    api.notify({ title: 'A needs your approval', body: 'Run pwd', requestId: 'r2' })
    api.withdraw('r1')
    api.withdraw('never-shown')
    expect(page.shown.map((n) => n.closed)).toEqual([true, false])
    api.withdraw('r1')
    expect(opened).toEqual([])
    stop()
    expect(api.listenerCount()).toBe(0)
  })

  it('closes open notifications when the person comes back', () => {
    const api = fakeApi()
    const page = fakeEnv()
    const stop = startPageAttention({ api: api.api, openRequest: () => {}, reportToMain: true, env: page.env })
    page.hide()
    api.notify({ title: 't', body: 'b' })
    expect(page.shown[0]!.closed).toBe(false)
    page.focus()
    expect(page.shown[0]!.closed).toBe(true)
    stop()
  })

  it('shows nothing without the browser permission or without the API', () => {
    for (const env of [fakeEnv({ permission: 'default' }), fakeEnv({ permission: 'denied' }), fakeEnv({ withNotification: false })]) {
      const api = fakeApi()
      const stop = startPageAttention({ api: api.api, openRequest: () => {}, reportToMain: true, env: env.env })
      env.hide()
      api.notify({ title: 't', body: 'b', requestId: 'r' })
      expect(env.shown).toHaveLength(0)
      stop()
    }
  })

  it('puts the waiting count in the title, starting from the pending list, and restores it when stopped', async () => {
    const api = fakeApi(2)
    const page = fakeEnv()
    const stop = startPageAttention({ api: api.api, openRequest: () => {}, reportToMain: true, env: page.env })
    await api.listed
    await Promise.resolve()
    expect(page.doc.title).toBe('(2) Bosun')
    api.badge(3)
    expect(page.doc.title).toBe('(3) Bosun')
    api.badge(0)
    expect(page.doc.title).toBe('Bosun')
    stop()
    expect(api.listenerCount()).toBe(0)
  })

  it('a badge event that arrives before the pending list wins', async () => {
    const api = fakeApi(5)
    const page = fakeEnv()
    const stop = startPageAttention({ api: api.api, openRequest: () => {}, reportToMain: true, env: page.env })
    api.badge(1)
    await api.listed
    await Promise.resolve()
    expect(page.doc.title).toBe('(1) Bosun')
    stop()
  })

  it('in Electron (reportToMain false) reports nothing and leaves the title alone, but still shows notify events', () => {
    const api = fakeApi(4)
    const page = fakeEnv()
    const stop = startPageAttention({ api: api.api, openRequest: () => {}, reportToMain: false, env: page.env })
    page.blur()
    api.badge(2)
    api.notify({ title: 't', body: 'b' })
    expect(api.reports).toEqual([])
    expect(page.doc.title).toBe('Bosun')
    expect(page.shown).toHaveLength(1)
    stop()
  })

  it('stops listening when disposed', () => {
    const api = fakeApi()
    const page = fakeEnv()
    startPageAttention({ api: api.api, openRequest: () => {}, reportToMain: true, env: page.env })()
    page.blur()
    api.notify({ title: 't', body: 'b' })
    expect(api.reports).toHaveLength(1)
    expect(page.shown).toHaveLength(0)
    expect(api.listenerCount()).toBe(0)
  })
})

describe('notification permission', () => {
  it('asks the browser only while undecided', async () => {
    const undecided = fakeEnv({ permission: 'default' })
    expect(notificationPermission(undecided.env)).toBe('default')
    expect(await requestNotificationPermission(undecided.env)).toBe('granted')
    const denied = fakeEnv({ permission: 'denied' })
    denied.Ctor.requestPermission = async () => {
      throw new Error('must not be asked')
    }
    expect(await requestNotificationPermission(denied.env)).toBe('denied')
    expect(await requestNotificationPermission(fakeEnv({ withNotification: false }).env)).toBe('unsupported')
  })
})
