import { useEffect, useId, useMemo, useRef, useState } from 'react'
import { OpenInBrowserButton, UrlDetails, defaultOpenInPage, type UrlOpenResult } from './UrlConsentDialog'
import { useModalFocus } from '../common/modal-focus'
import { checkUrl } from './validate'
import './elicitation.css'

export interface LinkConsentDialogProps {
  /** The link's target exactly as the agent wrote it (the dialog shows it as parsed). */
  url: string
  /** Consent: main re-checks the URL and opens it through its chokepoint (or tells the page to). */
  onOpen: () => Promise<UrlOpenResult>
  /** Closed without opening (Cancel, Escape), or after opening. */
  onClose: () => void
  /** How the page opens a tab when main cannot (browser host). */
  openInPage?: (href: string) => void
}

/**
 * A link clicked in agent output (issue 3 item 2): the same consent a URL elicitation gets — the parsed
 * address with the host emphasised, warnings, and a refusal with no Open button for schemes Bosun never
 * opens. A modal `<dialog>`: Escape cancels, focus starts on Cancel so Enter never opens by accident.
 */
export function LinkConsentDialog({ url, onOpen, onClose, openInPage = defaultOpenInPage }: LinkConsentDialogProps) {
  const check = useMemo(() => checkUrl(url), [url])
  const dialogRef = useRef<HTMLDialogElement>(null)
  const cancelRef = useRef<HTMLButtonElement>(null)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const baseId = useId()
  const titleId = `${baseId}-title`
  useModalFocus(dialogRef)

  useEffect(() => {
    const dialog = dialogRef.current
    if (!dialog) return
    if (!dialog.open) dialog.showModal()
    cancelRef.current?.focus()
    return () => {
      if (dialog.open) dialog.close()
    }
  }, [])

  const open = async () => {
    if (busy) return
    setBusy(true)
    setError(null)
    try {
      const result = await onOpen()
      if (!result.ok) {
        setError(result.message)
        return
      }
      if (result.openedBy === 'page') openInPage(result.href)
      onClose()
    } finally {
      setBusy(false)
    }
  }

  return (
    <dialog
      ref={dialogRef}
      className="eli-link-dialog"
      aria-labelledby={titleId}
      onCancel={(event) => {
        // Escape: close through React so the host forgets the link.
        event.preventDefault()
        if (!busy) onClose()
      }}
    >
      <section className="eli-card eli-url-card">
        <header className="eli-header">
          <span className="eli-agent">A link in the agent’s message</span>
          <h2 id={titleId} className="eli-title">
            {check.ok ? 'Open this page in your browser?' : 'Bosun will not open this link'}
          </h2>
        </header>
        <UrlDetails check={check} raw={url} baseId={baseId} />
        {error && (
          <p className="eli-error" role="alert">
            {error}
          </p>
        )}
        <div className="eli-actions">
          {check.ok && <OpenInBrowserButton check={check} baseId={baseId} busy={busy} onClick={() => void open()} />}
          <button ref={cancelRef} type="button" className="eli-button" disabled={busy} onClick={onClose} aria-keyshortcuts="Escape">
            {check.ok ? 'Cancel' : 'Close'}
          </button>
        </div>
      </section>
    </dialog>
  )
}
