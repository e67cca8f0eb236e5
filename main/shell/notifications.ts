/**
 * OS integration for pending requests: a notification when the window is not in front (click → window to
 * the front, then the notification's own `onClick`, which opens its request or session), and the
 * dock/taskbar badge with the number of waiting requests.
 */
import { app, Notification, type BrowserWindow } from 'electron'
import type { Notifier } from '../app/services'
import type { IDisposable } from '../base/lifecycle'
import { focusWindow } from './window'

/** Focused and not minimised: the person can see the request without a notification. */
export function isWindowFocused(window: BrowserWindow | undefined): boolean {
  return !!window && !window.isDestroyed() && window.isVisible() && window.isFocused() && !window.isMinimized()
}

export function createNotifier(getWindow: () => BrowserWindow | undefined): Notifier & IDisposable {
  // Electron drops click handlers of notifications that were garbage-collected: keep them until closed.
  const live = new Set<Notification>()
  return {
    show({ title, body }, onClick) {
      if (!Notification.isSupported()) return
      const notification = new Notification({ title, body })
      live.add(notification)
      notification.on('click', () => {
        live.delete(notification)
        focusWindow(getWindow())
        // What the click opens is the caller's: attention emits `focusRequest` (or `focusSession`) once.
        onClick()
      })
      notification.on('close', () => live.delete(notification))
      notification.show()
    },
    setBadgeCount(count) {
      app.setBadgeCount(Math.max(0, Math.floor(count)))
    },
    dispose() {
      for (const notification of live) notification.close()
      live.clear()
    },
  }
}
