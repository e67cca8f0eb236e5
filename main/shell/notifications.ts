/**
 * OS integration for pending requests: a notification when the window is not in front (click → window to
 * the front, then the notification's own `onClick`, which opens its request or session), and the
 * dock/taskbar badge with the number of waiting requests.
 */
import { app, nativeImage, Notification, type BrowserWindow, type NativeImage } from 'electron'
import type { Notifier } from '../app/services'
import type { IDisposable } from '../base/lifecycle'
import { focusWindow } from './window'

/** Focused and not minimised: the person can see the request without a notification. */
export function isWindowFocused(window: BrowserWindow | undefined): boolean {
  return !!window && !window.isDestroyed() && window.isVisible() && window.isFocused() && !window.isMinimized()
}

/** A 16×16 red dot (BGRA): Windows' taskbar overlay, where `app.setBadgeCount` does nothing. */
function badgeDot(): NativeImage {
  const size = 16
  const pixels = Buffer.alloc(size * size * 4)
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const distance = Math.hypot(x + 0.5 - size / 2, y + 0.5 - size / 2)
      const alpha = Math.round(255 * Math.min(1, Math.max(0, size / 2 - distance)))
      pixels.set([0x2e, 0x22, 0xcf, alpha], (y * size + x) * 4)
    }
  }
  return nativeImage.createFromBitmap(pixels, { width: size, height: size })
}

/**
 * A body as a Linux notification server reads it: as markup (the freedesktop spec's `body-markup`, which GNOME Shell,
 * KDE Plasma, Xfce, dunst and mako advertise), and Electron hands libnotify the text as it is. An agent's title with
 * "<b>…</b>" or "<a href=…>" drew bold text or a link in a notification that reads as Bosun's own, and a lone "&" or
 * "<" left some servers nothing to show. The spec asks the sender to escape: https://specifications.freedesktop.org/notification-spec/latest/markup.html
 */
export const escapeBodyMarkup = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

export function createNotifier(getWindow: () => BrowserWindow | undefined, options: { platform?: NodeJS.Platform } = {}): Notifier & IDisposable {
  const platform = options.platform ?? process.platform
  let dot: NativeImage | undefined
  // Electron drops click handlers of notifications that were garbage-collected: keep them until closed.
  const live = new Set<Notification>()
  /** The live notifications shown with a `requestId`, for {@link Notifier.withdraw}. */
  const byRequest = new Map<string, Notification>()
  const forget = (notification: Notification, requestId: string | undefined) => {
    live.delete(notification)
    if (requestId !== undefined && byRequest.get(requestId) === notification) byRequest.delete(requestId)
  }
  return {
    show({ title, body, requestId }, onClick) {
      if (!Notification.isSupported()) return
      const notification = new Notification({ title, body: platform === 'linux' ? escapeBodyMarkup(body) : body })
      live.add(notification)
      if (requestId !== undefined) byRequest.set(requestId, notification)
      notification.on('click', () => {
        forget(notification, requestId)
        focusWindow(getWindow())
        // What the click opens is the caller's: attention emits `focusRequest` (or `focusSession`) once.
        onClick()
      })
      notification.on('close', () => forget(notification, requestId))
      notification.show()
    },
    withdraw(requestId) {
      const notification = byRequest.get(requestId)
      if (!notification) return
      forget(notification, requestId)
      notification.close()
    },
    setBadgeCount(count) {
      const n = Math.max(0, Math.floor(count))
      app.setBadgeCount(n)
      if (platform === 'win32') {
        // The taskbar button gets a dot; its description (read by screen readers) carries the number.
        const window = getWindow()
        if (window && !window.isDestroyed()) window.setOverlayIcon(n > 0 ? (dot ??= badgeDot()) : null, n > 0 ? `${n} waiting for you` : '')
      }
    },
    dispose() {
      for (const notification of live) notification.close()
      live.clear()
      byRequest.clear()
    },
  }
}
