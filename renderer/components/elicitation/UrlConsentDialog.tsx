import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react'
import type { ElicitationView } from '../../../common/session/types'
import { VisibleText } from '../permissions/VisibleText'
import { holdsFocus } from '../permissions/prompt-focus'
import { useFocusAfterAnswer } from '../permissions/use-answer-focus'
import { checkUrl, urlWarningText, type UrlCheck } from './validate'
import './elicitation.css'

/** Main's answer to "open it": who opened it (the browser host's page opens the tab itself) or why not. */
export type UrlOpenResult = { ok: true; openedBy: 'main' | 'page'; href: string } | { ok: false; message: string }

export interface UrlConsentDialogProps {
  elicitation: ElicitationView
  /** Consent: main opens the URL through its chokepoint (and answers the agent `accept`). */
  onOpen: () => Promise<UrlOpenResult>
  onDecline: () => void
  onCancel: () => void
  /** Open again while waiting for completion. */
  onRetry: () => Promise<UrlOpenResult>
  /** Stop waiting for a completion that never came. */
  onDismiss: () => void
  /** How the page opens a tab when main cannot (browser host). Default: a new tab with `noopener`. */
  openInPage?: (href: string) => void
}

/** A new tab with `noopener`: how the page opens one when main cannot (browser host). */
export const defaultOpenInPage = (href: string) => {
  window.open(href, '_blank', 'noopener,noreferrer')
}

/**
 * Consent for a URL-mode elicitation (checklist G19/J1): the full URL as parsed, with the host emphasised,
 * warnings for anything suspicious, and a refusal for schemes Bosun never opens. The URL is shown as text,
 * never as a link, and nothing is fetched before the person presses Open.
 */
export function UrlConsentDialog({ elicitation, onOpen, onDecline, onCancel, onRetry, onDismiss, openInPage = defaultOpenInPage }: UrlConsentDialogProps) {
  const check = useMemo(() => checkUrl(elicitation.url ?? ''), [elicitation.url])
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const baseId = useId()
  const titleId = `${baseId}-title`
  const { status } = elicitation
  const pending = status === 'pending'
  const waiting = status === 'accepted'

  // The keyboard stays with the card as its buttons change: Open in browser gives way to Open again (the focus fell to
  // the page); Decline, Cancel, Escape and Stop waiting end it, and the focus goes on as after any answer.
  const cardRef = useRef<HTMLElement>(null)
  const openAgainRef = useRef<HTMLButtonElement>(null)
  const noteAnswered = useFocusAfterAnswer(pending || waiting, cardRef)
  const openedHere = useRef(false)
  useEffect(() => {
    if (!waiting || !openedHere.current) return
    openedHere.current = false
    const active = document.activeElement
    if (!active || active === document.body || cardRef.current?.contains(active)) openAgainRef.current?.focus()
  }, [waiting])
  const answer = (respond: () => void) => () => {
    noteAnswered()
    respond()
  }

  const run = async (action: () => Promise<UrlOpenResult>) => {
    if (busy) return
    setBusy(true)
    setError(null)
    try {
      const result = await action()
      if (!result.ok) setError(result.message)
      else if (result.openedBy === 'page') openInPage(result.href)
    } finally {
      setBusy(false)
    }
  }

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && pending && !busy) {
      event.preventDefault()
      event.stopPropagation()
      noteAnswered()
      onCancel()
    }
  }

  return (
    <section
      ref={cardRef}
      className={`eli-card eli-url-card eli-status-${status}`}
      // Focusable from script only, as a form is: where the focus goes on to after another request is answered.
      tabIndex={pending ? -1 : undefined}
      aria-labelledby={titleId}
      onKeyDown={onKeyDown}
    >
      <header className="eli-header">
        <span className="eli-agent">{elicitation.agentName} asks you to open a page in your browser</span>
        <h2 id={titleId} className="eli-title eli-message">
          <VisibleText text={elicitation.message} prose />
        </h2>
      </header>

      <UrlDetails check={check} raw={elicitation.url ?? ''} baseId={baseId} />

      {error && (
        <p className="eli-error" role="alert">
          {error}
        </p>
      )}

      {pending && (
        <div className="eli-actions">
          {check.ok && (
            <OpenInBrowserButton
              check={check}
              baseId={baseId}
              busy={busy}
              onClick={() => {
                openedHere.current = holdsFocus(cardRef.current)
                void run(onOpen)
              }}
            />
          )}
          <button type="button" className="eli-button" disabled={busy} onClick={answer(onDecline)}>
            Decline
          </button>
          <button type="button" className="eli-button eli-quiet" disabled={busy} onClick={answer(onCancel)} aria-keyshortcuts="Escape">
            Cancel
          </button>
        </div>
      )}

      {waiting && (
        <div className="eli-waiting" role="status">
          <p className="eli-status">
            Waiting for {elicitation.agentName} to report that you finished in the browser…
          </p>
          <div className="eli-actions">
            {/* Held (not disabled) while it opens: a disabled button drops the focus. */}
            <button ref={openAgainRef} type="button" className="eli-button" aria-disabled={busy || undefined} onClick={() => void run(onRetry)}>
              Open again
            </button>
            <button type="button" className="eli-button eli-quiet" disabled={busy} onClick={answer(onDismiss)}>
              Stop waiting
            </button>
          </div>
        </div>
      )}

      {!pending && !waiting && (
        <p className="eli-status" role="status">
          {status === 'completed'
            ? 'Done.'
            : status === 'declined'
              ? 'Declined.'
              : status === 'cancelled'
                ? 'Cancelled.'
                : status === 'dismissed'
                  ? 'No longer waiting.'
                  : 'The agent stopped waiting.'}
        </p>
      )}
    </section>
  )
}

/**
 * The host with its registrable domain (who owns it) in bold and the labels before it plain, so
 * `google.com.attacker.example` reads as a page of attacker.example.
 */
function HostWithSite({ host, site }: { host: string; site: string }) {
  const split = site && host !== site && host.endsWith(`.${site}`) ? host.length - site.length : 0
  return (
    <mark className="eli-url-host">
      {split > 0 && <span className="eli-url-subdomain">{host.slice(0, split)}</span>}
      <strong className="eli-url-domain">{host.slice(split)}</strong>
    </mark>
  )
}

/** The ids {@link UrlDetails} gives its parts, for `aria-describedby` on the Open button. */
export const urlDetailIds = (baseId: string) => ({ urlId: `${baseId}-url`, warningsId: `${baseId}-warnings` })

/** The consent itself, described by the address and its warnings as {@link UrlDetails} shows them. */
export function OpenInBrowserButton({ check, baseId, busy, onClick }: { check: UrlCheck; baseId: string; busy: boolean; onClick: () => void }) {
  const { urlId, warningsId } = urlDetailIds(baseId)
  return (
    <button
      type="button"
      className="eli-button eli-primary"
      // Held (not disabled) while it opens: a disabled button drops the focus. The handlers ignore a second press.
      aria-disabled={busy || undefined}
      aria-describedby={check.warnings.length > 0 ? `${urlId} ${warningsId}` : urlId}
      onClick={onClick}
    >
      Open in browser
    </button>
  )
}

/**
 * The parsed address with its host emphasised, the site, every warning, and the refusal if any: the part
 * the elicitation card and the link dialog share, so both show exactly what main's chokepoint will check.
 */
export function UrlDetails({ check, raw, baseId }: { check: UrlCheck; raw: string; baseId: string }) {
  const { urlId, warningsId } = urlDetailIds(baseId)
  const { ref: urlRef, scrolls } = useScrollsDown(raw)
  const showUnicode = check.hostUnicode !== '' && check.hostUnicode !== check.host
  return (
    <>
      <div className="eli-url-block">
        <span className="eli-label" id={`${urlId}-label`}>
          Full address
        </span>
        {/* Text only, never a link: the one way to open it is the Open button below. */}
        {/* A long address scrolls in a box of a few lines, which the keyboard can scroll too: at its full height it
            pushed the question and the site out of a small or zoomed window (the link dialog scrolled to its buttons). */}
        <code ref={urlRef} id={urlId} className="eli-url" aria-labelledby={`${urlId}-label`} tabIndex={scrolls ? 0 : undefined}>
          {/* A refused address is not emphasised: "vscode://file/…" has no site worth pointing at. */}
          {check.ok ? (
            <>
              <span className="eli-url-part">{check.highlight.before}</span>
              <HostWithSite host={check.highlight.host} site={check.site} />
              <span className="eli-url-part">{check.highlight.after}</span>
            </>
          ) : (
            <span className="eli-url-part">{check.href || raw}</span>
          )}
        </code>
        {check.ok && check.host && (
          <p className="eli-url-site">
            Site: <strong className="eli-url-site-name">{check.site || check.host}</strong>
            {check.site && check.site !== check.host && <span className="eli-muted"> (host {check.host})</span>}
            {showUnicode && <span className="eli-muted"> (displayed as “{check.hostUnicode}”)</span>}
            {check.scheme === 'https' ? null : <span className="eli-muted"> · {check.scheme}</span>}
          </p>
        )}
      </div>

      {check.warnings.length > 0 && (
        <ul id={warningsId} className="eli-warnings" aria-label="Warnings about this address">
          {check.warnings.map((w) => (
            <li key={w} className="eli-warning">
              <span aria-hidden="true">⚠ </span>
              {urlWarningText[w]}
            </li>
          ))}
        </ul>
      )}

      {!check.ok && (
        <p className="eli-error" role="alert">
          Bosun will not open this address. {check.refusal}
        </p>
      )}
    </>
  )
}

/** Whether a box is taller than its bound and scrolls (`watch` changes with its content), measured again as it resizes. */
function useScrollsDown(watch: unknown) {
  const ref = useRef<HTMLElement>(null)
  const [scrolls, setScrolls] = useState(false)
  useLayoutEffect(() => {
    const el = ref.current
    if (!el) return
    const check = () => setScrolls(el.scrollHeight > el.clientHeight + 1)
    check()
    const observer = new ResizeObserver(check)
    observer.observe(el)
    return () => observer.disconnect()
  }, [watch])
  return { ref, scrolls }
}
