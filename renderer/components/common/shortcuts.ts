/**
 * The app's own keyboard shortcuts, one place for the keys each one takes, how the UI shows them and what
 * `aria-keyshortcuts` says. New session is Ctrl/⌘+N in the Electron app; a browser keeps Ctrl+N for itself (a new
 * window, never given to the page), so the browser host also takes Ctrl/⌘+Shift+O, which it does give to the page.
 */

export interface Shortcut {
  /** As `aria-keyshortcuts` writes it (both modifiers: Ctrl elsewhere, ⌘ on macOS). */
  readonly keys: string
  /** As the UI shows it on this computer ("Ctrl+Shift+O", "⌘⇧O"). */
  readonly label: string
}

export type ShortcutHost = 'electron' | 'browser'

const mac = (): boolean => typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform)

export function newSessionShortcut(host: ShortcutHost, onMac = mac()): Shortcut {
  if (host === 'electron') return { keys: 'Control+N Meta+N', label: onMac ? '⌘N' : 'Ctrl+N' }
  return { keys: 'Control+Shift+O Meta+Shift+O', label: onMac ? '⌘⇧O' : 'Ctrl+Shift+O' }
}

export function settingsShortcut(onMac = mac()): Shortcut {
  return { keys: 'Control+Comma Meta+Comma', label: onMac ? '⌘,' : 'Ctrl+,' }
}

/** Ctrl/⌘ and nothing else but what is asked (Shift or not; never Alt, which types characters on macOS). */
const command = (event: KeyboardEvent, shift: boolean): boolean =>
  (event.ctrlKey || event.metaKey) && !(event.ctrlKey && event.metaKey) && !event.altKey && event.shiftKey === shift

/** New session's keys, in either host: Ctrl/⌘+N (which reaches the page only in Electron) or Ctrl/⌘+Shift+O. */
export function isNewSessionKey(event: KeyboardEvent): boolean {
  const key = event.key.toLowerCase()
  return (key === 'n' && command(event, false)) || (key === 'o' && command(event, true))
}

/** Settings' keys: Ctrl/⌘+, (no Shift, no Alt). */
export function isSettingsKey(event: KeyboardEvent): boolean {
  return event.key === ',' && command(event, false)
}
