import { memo, useRef, useState } from 'react'
import type { ToolCallEntry } from '../../../common/session/types'
import { useSeams } from '../common/seams'
import { revealAsText } from '../permissions/reveal-text'
import { VisibleText } from '../permissions/VisibleText'
import { LOCATIONS_SHOWN } from './locations-shown'
import { notKeptNote } from './cut-list'
import './locations.css'

type Location = ToolCallEntry['locations'][number]

/** What the person copies: `path:line` (the form editors and terminals understand), or the path alone. */
export const locationText = (location: Location): string => (location.line != null ? `${location.path}:${location.line}` : location.path)

/**
 * Copies `text`: the Clipboard API, else a selected hidden field and `execCommand('copy')` (the Electron app
 * denies the clipboard permission). `false` when neither worked (the row then shows the text to copy by hand).
 */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text)
    return true
  } catch {
    // Fall through to the older way.
  }
  const active = document.activeElement instanceof HTMLElement ? document.activeElement : null
  const field = document.createElement('textarea')
  field.value = text
  field.setAttribute('readonly', '')
  field.style.position = 'fixed'
  field.style.opacity = '0'
  document.body.append(field)
  field.select()
  let copied = false
  try {
    copied = document.execCommand('copy')
  } catch {
    copied = false
  }
  field.remove()
  active?.focus()
  return copied
}

type Status = { index: number; kind: 'info' | 'error' | 'manual'; text: string }

/**
 * A tool call's file locations, each with Open (main checks and opens it in the person's editor) and Copy
 * path. Main decides whether a path may be opened; the row only says what main answered.
 */
export const LocationList = memo(function LocationList({
  locations,
  pathsInTitle,
  notKept = 0,
}: {
  locations: Location[]
  pathsInTitle?: ReadonlySet<string>
  /** How many more the agent sent than Bosun keeps (`ToolCallEntry.locationsNotKept`). */
  notKept?: number
}) {
  const { onOpenLocation } = useSeams()
  const [status, setStatus] = useState<Status | null>(null)
  const [busy, setBusy] = useState<number | null>(null)
  const manualRef = useRef<HTMLInputElement>(null)
  const [all, setAll] = useState(false)
  const shown = all ? locations : locations.slice(0, LOCATIONS_SHOWN)

  const open = async (index: number, location: Location) => {
    setBusy(index)
    const result = await onOpenLocation({ path: location.path, ...(location.line != null ? { line: location.line } : {}) })
    setBusy(null)
    if (result.ok) return setStatus({ index, kind: 'info', text: `Opened ${revealAsText(location.path)}` })
    // The browser host cannot reach a local editor: copying is what it can offer.
    if (result.error.kind === 'unsupported') return setStatus({ index, kind: 'error', text: 'This browser cannot open files in your editor. Use Copy path instead.' })
    setStatus({ index, kind: 'error', text: `Cannot open: ${result.error.message}` })
  }

  const copy = async (index: number, location: Location) => {
    const text = locationText(location)
    if (await copyText(text)) return setStatus({ index, kind: 'info', text: `Copied ${revealAsText(text)}` })
    setStatus({ index, kind: 'manual', text })
    requestAnimationFrame(() => manualRef.current?.select())
  }

  return (
    <div className="tool-locations-block">
      <ul className="tool-locations" aria-label="Locations">
        {shown.map((location, i) => {
          const text = locationText(location)
          // Names and tooltips show hidden characters as markers too (the agent chose the path).
          const shown = revealAsText(text)
          return (
            <li key={i} className="location">
              {/* A path the card's title already names is not shown again (its buttons still name it): its line, if any. */}
              {!pathsInTitle?.has(location.path) ? (
                <span className="location-path" title={shown}>
                  <VisibleText text={text} />
                </span>
              ) : (
                location.line != null && <span className="location-path">Line {location.line}</span>
              )}
              <button type="button" className="location-action" aria-label={`Open ${shown}`} disabled={busy === i} onClick={() => void open(i, location)}>
                Open
              </button>
              <button type="button" className="location-action" aria-label={`Copy path ${shown}`} onClick={() => void copy(i, location)}>
                Copy path
              </button>
            </li>
          )
        })}
      </ul>
      {shown.length < locations.length && (
        <button type="button" className="link-button location-more" onClick={() => setAll(true)}>
          Show all {locations.length.toLocaleString('en')} locations
        </button>
      )}
      {notKept > 0 && <p className="muted tool-content-cut">{notKeptNote(notKept, 'locations')}</p>}
      {status && status.kind !== 'manual' && (
        <p className={status.kind === 'error' ? 'location-status location-status-error' : 'location-status'} role="status">
          {status.text}
        </p>
      )}
      {status?.kind === 'manual' && (
        <label className="location-status location-manual">
          <span>Copying is not available here; select and copy:</span>
          <input ref={manualRef} className="input mono" readOnly value={status.text} onFocus={(e) => e.currentTarget.select()} />
        </label>
      )}
    </div>
  )
})
