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

/** One line of the shortcut list Settings shows: the keys as this computer shows them, and what they do. */
export interface ShortcutHelp {
  keys: string
  what: string
}

/**
 * Every key the app answers in this host, grouped where it works, for the list in Settings: the same labels the
 * buttons' tooltips show (`newSessionShortcut`, `settingsShortcut`), so the list cannot promise keys the host keeps.
 */
export function shortcutList(host: ShortcutHost, onMac = mac()): { group: string; items: ShortcutHelp[] }[] {
  const newSession = newSessionShortcut(host, onMac).label
  const settings = settingsShortcut(onMac).label
  const shift = onMac ? '⇧' : 'Shift+'
  return [
    {
      group: 'Anywhere',
      items: [
        { keys: newSession, what: 'New session' },
        // The browser keeps Ctrl+N for a new window; the Electron app has its menu's New Session on it.
        ...(host === 'browser' ? [] : [{ keys: newSessionShortcut('browser', onMac).label, what: 'New session (also)' }]),
        { keys: settings, what: 'Open or close Settings' },
        { keys: 'Escape', what: 'Close the page, dialog or menu on top' },
        { keys: `F6, ${shift}F6`, what: 'Move between the sidebar, the transcript and the message box' },
      ],
    },
    {
      group: 'In the message box',
      items: [
        { keys: 'Enter', what: 'Send the message' },
        { keys: `${shift}Enter`, what: 'New line' },
        { keys: '/', what: 'The agent’s commands (at the start of the message)' },
        { keys: '@', what: 'Mention a file of the working folder' },
        { keys: '↑ ↓, Enter or Tab', what: 'Move in a menu and pick' },
      ],
    },
    {
      group: 'In a permission request (when it has the focus)',
      items: [
        { keys: '1', what: 'Allow once' },
        { keys: '2', what: 'Always allow' },
        { keys: '3', what: 'Reject once' },
        { keys: '4', what: 'Always reject' },
        { keys: '5 – 9', what: 'The agent’s other options, in its order' },
        { keys: 'Escape', what: 'Dismiss it without an answer' },
      ],
    },
  ]
}
