import { lazy, Suspense } from 'react'
import { flushSync } from 'react-dom'
import { createRoot, type Root } from 'react-dom/client'
import type { CallResult } from '../../../common/contract/define'

/** Loaded with the first link clicked, not with the app (its URL checks carry the public-suffix list: see LazyElicitationCard). */
const LinkConsentDialog = lazy(() => import('./LinkConsentDialog').then((module) => ({ default: module.LinkConsentDialog })))

/** The slice of `window.bosun` a clicked link needs. */
export interface LinkOpenApi {
  openLink(arg: { url: string; sessionId: string }): Promise<CallResult<{ openedBy: 'main' | 'page'; href: string }>>
}

export interface LinkConsent {
  /**
   * `SessionSeams.onOpenSessionLink`: shows the consent dialog for `url`, clicked in session `sessionId`
   * (replacing any dialog already open). Main opens it only if the link occurs in that session's agent content.
   */
  open(url: string, sessionId: string): void
  dispose(): void
}

/**
 * Routes links clicked in agent output through the URL consent dialog, then main's chokepoint
 * (`openLink`). The dialog lives in its own small React root under `<body>`, mounted on the first click,
 * so any screen that renders Markdown gets it without a slot in the app layout.
 */
export function createLinkConsent(
  api: LinkOpenApi,
  options: { container?: HTMLElement; openInPage?: (href: string) => void } = {},
): LinkConsent {
  let root: Root | null = null
  let host: HTMLElement | null = null
  let shown = 0
  let returnFocus: HTMLElement | null = null

  const close = () => {
    // Synchronously: while the modal dialog is still up, everything behind it is inert and cannot take focus.
    flushSync(() => root?.render(null))
    // Back to the link that was activated (a span with tabindex=0), as a native dialog would.
    if (returnFocus?.isConnected) returnFocus.focus()
    returnFocus = null
  }

  return {
    open(url, sessionId) {
      if (!root) {
        host = document.createElement('div')
        host.className = 'link-consent-host'
        ;(options.container ?? document.body).appendChild(host)
        root = createRoot(host)
      }
      returnFocus = document.activeElement instanceof HTMLElement ? document.activeElement : null
      const onOpen = async () => {
        try {
          const result = await api.openLink({ url, sessionId })
          return result.ok ? { ok: true as const, ...result.value } : { ok: false as const, message: result.error.message }
        } catch {
          // A transport that lost its connection (or a preview without this call): say so in the dialog.
          return { ok: false as const, message: 'Bosun could not reach its main process to open the link.' }
        }
      }
      // A fresh key per click: a new link never inherits the previous dialog's error or busy state.
      root.render(
        <Suspense fallback={null}>
          <LinkConsentDialog key={++shown} url={url} onOpen={onOpen} onClose={close} {...(options.openInPage ? { openInPage: options.openInPage } : {})} />
        </Suspense>,
      )
    },
    dispose() {
      root?.unmount()
      host?.remove()
      root = null
      host = null
    },
  }
}
