/**
 * Attention in the page: what Electron's shell does with OS notifications and the dock badge, the browser
 * host does here, with the Web Notifications API and the document title.
 *
 * - Focus and visibility go to main (`reportWindowState`) at start, on every change and after a reconnect:
 *   main decides whether to notify from them (nothing while the person looks at Bosun).
 * - A `notify` event becomes a `Notification` while the page is hidden or unfocused. Main emits `notify`
 *   only when it has no native notifier, so in Electron this never doubles an OS notification.
 * - Clicking one focuses the window and opens its request (the `focusRequest` path), or for "turn ended"
 *   its session. In Electron the OS notification's click arrives as `focusRequest`/`focusSession` instead.
 * - `badge` shows the waiting count in the title: "(3) Bosun".
 *
 * Permission to notify is asked only on a gesture (`requestNotificationPermission`, from Settings).
 */
import type { BosunApi } from '../../common/contract'

export type PageAttentionApi = Pick<BosunApi, 'reportWindowState' | 'onNotify' | 'onNotificationWithdrawn' | 'onBadge' | 'listPendingPermissions' | 'onFocusSession'>

/** The page's own window and document, injectable for tests. */
export interface PageEnvironment {
  window: Pick<Window, 'addEventListener' | 'removeEventListener' | 'focus'>
  document: Pick<Document, 'addEventListener' | 'removeEventListener' | 'hasFocus' | 'visibilityState' | 'title'>
  /** `window.Notification`, when the browser has it. */
  Notification?: NotificationConstructorLike
}

export interface NotificationLike {
  onclick: ((this: unknown, event: Event) => unknown) | null
  close(): void
}

export interface NotificationConstructorLike {
  new (title: string, options?: { body?: string; tag?: string }): NotificationLike
  readonly permission: NotificationPermission
  requestPermission(): Promise<NotificationPermission>
}

export interface PageAttentionOptions {
  api: PageAttentionApi
  /** Select the request's session and bring its prompt into view (same path as `focusRequest`). */
  openRequest: (requestId: string) => void
  /** Select a session ("turn ended" notifications: the page's own, and main's `focusSession` in Electron). */
  openSession?: (sessionId: string) => void
  /** Reports the window state to main and shows the badge in the title; false in Electron (main knows both). */
  reportToMain: boolean
  /** Fires after the browser transport reconnected (main may have lost what the page reported). */
  onDidReconnect?: (listener: () => void) => () => void
  env?: PageEnvironment
}

function defaultEnvironment(): PageEnvironment {
  const Ctor = (globalThis as { Notification?: NotificationConstructorLike }).Notification
  return { window, document, ...(Ctor ? { Notification: Ctor } : {}) }
}

/** Starts reporting and listening; returns the function that stops everything. */
export function startPageAttention(options: PageAttentionOptions): () => void {
  const { api, openRequest, openSession, reportToMain } = options
  const env = options.env ?? defaultEnvironment()
  const { window: win, document: doc } = env
  const baseTitle = doc.title || 'Bosun'
  const open = new Set<NotificationLike>()
  /** The open notifications shown with a `requestId`: main withdraws one once none of the requests it names waits. */
  const byRequest = new Map<string, NotificationLike>()
  const cleanup: (() => void)[] = []

  let state = { focused: doc.hasFocus(), visible: doc.visibilityState !== 'hidden' }
  let reported: string | null = null
  const report = (force = false) => {
    const key = `${state.focused}/${state.visible}`
    if (!reportToMain || (!force && key === reported)) return
    reported = key
    void api.reportWindowState({ ...state })
  }
  const onChange = (focused: boolean) => () => {
    state = { focused, visible: doc.visibilityState !== 'hidden' }
    // Hidden means not looked at, whatever the last focus event said.
    if (!state.visible) state.focused = false
    report()
    if (state.focused && state.visible) closeAll()
  }
  const onFocus = onChange(true)
  const onBlur = onChange(false)
  const onVisibility = () => onChange(doc.visibilityState !== 'hidden' && doc.hasFocus())()
  win.addEventListener('focus', onFocus)
  win.addEventListener('blur', onBlur)
  doc.addEventListener('visibilitychange', onVisibility)
  cleanup.push(() => {
    win.removeEventListener('focus', onFocus)
    win.removeEventListener('blur', onBlur)
    doc.removeEventListener('visibilitychange', onVisibility)
  })
  report(true)
  if (options.onDidReconnect) cleanup.push(options.onDidReconnect(() => report(true)))

  function closeAll() {
    for (const notification of open) notification.close()
    open.clear()
    byRequest.clear()
  }

  cleanup.push(
    api.onNotify(({ title, body, requestId, sessionId }) => {
      // Main decided from the last report; the person may be back already.
      if (state.focused && state.visible) return
      const Ctor = env.Notification
      if (!Ctor || Ctor.permission !== 'granted') return
      let notification: NotificationLike
      try {
        notification = new Ctor(title, { body, tag: requestId ? `bosun-${requestId}` : 'bosun' })
      } catch {
        return // e.g. a browser that only allows notifications from a service worker
      }
      open.add(notification)
      if (requestId) byRequest.set(requestId, notification)
      notification.onclick = () => {
        win.focus()
        open.delete(notification)
        if (requestId && byRequest.get(requestId) === notification) byRequest.delete(requestId)
        notification.close()
        if (requestId) openRequest(requestId)
        else if (sessionId) openSession?.(sessionId)
      }
    }),
  )
  cleanup.push(
    api.onNotificationWithdrawn(({ requestId }) => {
      const notification = byRequest.get(requestId)
      if (!notification) return
      byRequest.delete(requestId)
      open.delete(notification)
      notification.close()
    }),
  )
  if (openSession) cleanup.push(api.onFocusSession(({ sessionId }) => openSession(sessionId)))

  if (reportToMain) {
    let badgeSeen = false
    const showBadge = (count: number) => {
      doc.title = count > 0 ? `(${count}) ${baseTitle}` : baseTitle
    }
    cleanup.push(
      api.onBadge(({ count }) => {
        badgeSeen = true
        showBadge(count)
      }),
    )
    // `badge` fires on changes only: start from what waits now (unless an event came first).
    void api.listPendingPermissions(undefined).then((result) => {
      if (result.ok && !badgeSeen) showBadge(result.value.length)
    })
    cleanup.push(() => showBadge(0))
  }

  return () => {
    for (const dispose of cleanup.splice(0)) dispose()
    closeAll()
  }
}

/** The browser's notification permission, or `unsupported`. */
export function notificationPermission(env: Pick<PageEnvironment, 'Notification'> = defaultEnvironment()): NotificationPermission | 'unsupported' {
  return env.Notification ? env.Notification.permission : 'unsupported'
}

/** Asks the browser for permission to notify; call it from a click (browsers refuse otherwise). */
export async function requestNotificationPermission(
  env: Pick<PageEnvironment, 'Notification'> = defaultEnvironment(),
): Promise<NotificationPermission | 'unsupported'> {
  if (!env.Notification) return 'unsupported'
  if (env.Notification.permission !== 'default') return env.Notification.permission
  try {
    return await env.Notification.requestPermission()
  } catch {
    return env.Notification.permission
  }
}
