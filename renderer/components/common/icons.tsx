import type { KnownToolKind } from '../transcript/tool-kind'

const PATHS: Record<KnownToolKind | 'chevron' | 'send' | 'stop' | 'plus' | 'inbox' | 'folder' | 'alert' | 'close' | 'restart' | 'agents' | 'settings', string> = {
  read: 'M4 4h10l6 6v10H4z M14 4v6h6 M8 14h8 M8 17h5',
  edit: 'M4 20h4L19 9l-4-4L4 16z M13.5 6.5l4 4',
  delete: 'M4 7h16 M9 7V4h6v3 M6 7l1 13h10l1-13 M10 11v6 M14 11v6',
  move: 'M4 12h14 M14 7l5 5-5 5 M4 5v14',
  search: 'M10.5 4a6.5 6.5 0 1 0 0 13a6.5 6.5 0 1 0 0-13z M15.5 15.5L20 20',
  execute: 'M4 5h16v14H4z M7 9l3 3-3 3 M12 15h5',
  think: 'M9 18h6 M10 21h4 M12 3a6 6 0 0 0-3.5 10.9V16h7v-2.1A6 6 0 0 0 12 3z',
  fetch: 'M12 3a9 9 0 1 0 0 18a9 9 0 1 0 0-18z M3 12h18 M12 3c3 3 3 15 0 18 M12 3c-3 3-3 15 0 18',
  switch_mode: 'M4 8h13l-3-3 M20 16H7l3 3',
  other: 'M14.7 6.3a4 4 0 0 0-5.4 5.4L4 17v3h3l5.3-5.3a4 4 0 0 0 5.4-5.4l-2.5 2.5-2.5-.5-.5-2.5z',
  chevron: 'M9 6l6 6-6 6',
  send: 'M5 12h13 M13 6l6 6-6 6',
  stop: 'M7 7h10v10H7z',
  plus: 'M12 5v14 M5 12h14',
  inbox: 'M4 13l3-8h10l3 8v6H4z M4 13h5l1 2h4l1-2h5',
  folder: 'M3 6h6l2 2h10v11H3z',
  alert: 'M12 3l10 18H2z M12 10v5 M12 18v.5',
  close: 'M6 6l12 12 M18 6L6 18',
  restart: 'M4 12a8 8 0 1 0 2.3-5.7 M4 4v4h4',
  agents: 'M5 8h14v11H5z M12 8V4 M9 12.5v1.5 M15 12.5v1.5 M9.5 16.5h5',
  settings: 'M4 7h9 M17 7h3 M15 5v4 M4 12h3 M11 12h9 M9 10v4 M4 17h11 M19 17h1 M17 15v4',
}

export type IconName = keyof typeof PATHS

/** Decorative stroke icon; always `aria-hidden` (the control next to it carries the accessible name). */
export function Icon({ name, size = 16, className }: { name: IconName; size?: number; className?: string }) {
  return (
    <svg
      className={className ? `icon ${className}` : 'icon'}
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d={PATHS[name]} />
    </svg>
  )
}
