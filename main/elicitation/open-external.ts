/**
 * The one chokepoint through which Bosun opens a URL an agent supplied (checklist G19/J1). A URL is
 * opened only if a pending URL elicitation offered exactly that URL and the person consented to it (the
 * consent token is Bosun's elicitation request id), and only if {@link checkUrl} — the same check the
 * consent dialog shows — accepts it. Nothing is fetched before consent: this module never touches the
 * network itself; `open` hands the URL to the system browser.
 *
 * Links the person clicks in agent output take the same road ({@link ExternalOpener.openLink}): the
 * renderer shows the same consent dialog, and only after "Open" does main re-check and open the URL.
 */
import { fail, ok, type Result } from '../base/errors'
import type { checkUrl } from '../../common/url-safety'
import { createBurstLimit } from '../base/burst-limit'

/**
 * The URL check, loaded with the first address main opens: its public-suffix list (tldts) is about 12 MiB of
 * main's RSS, held from start for a feature most sessions never use. One load, shared by every opener.
 */
let urlCheck: Promise<typeof checkUrl> | undefined
const loadUrlCheck = (): Promise<typeof checkUrl> => (urlCheck ??= import('../../common/url-safety').then((module) => module.checkUrl))

export interface OpenConsent {
  elicitationRequestId: string
  url: string
}

/** Who opens the page: main (Electron `shell.openExternal`) or, in the browser host, the page itself (new tab, `noopener`). */
export interface OpenOutcome {
  openedBy: 'main' | 'page'
  href: string
}

export interface ExternalOpener {
  /** Records that a pending URL elicitation offers `url` (the broker calls this when the request arrives). */
  offer(elicitationRequestId: string, url: string): void
  /** Forgets an offer (completed, dismissed, answered decline/cancel, agent gone). */
  withdraw(elicitationRequestId: string): void
  /** Opens `consent.url` if it matches a live offer and passes the URL check. */
  openAfterConsent(consent: OpenConsent): Promise<Result<OpenOutcome>>
  /**
   * Opens a link the person clicked in agent output and consented to in the dialog. No offer is needed (the
   * person chose the link), but the check is the same: a refused URL never reaches `open`.
   */
  openLink(url: string): Promise<Result<OpenOutcome>>
  /** Ids with a live offer (tests, diagnostics). */
  readonly offeredIds: readonly string[]
}

/**
 * Addresses main opens in the system browser in a burst, at most; after that one more every
 * {@link OPEN_REFILL_MS}. Each open follows a consent the person gave in the window, so a person never meets
 * the bound; a compromised renderer consenting in a loop does, instead of opening hundreds of browser tabs.
 */
export const OPEN_BURST = 5
export const OPEN_REFILL_MS = 2_000

/**
 * @param open Opens a URL in the system browser. Omitted in the browser host: the outcome then says the
 *   page must open it (`openedBy: 'page'`) after the same checks.
 * @param now The clock of the open bound (tests).
 */
export function createExternalOpener(open?: (url: string) => Promise<void>, now: () => number = Date.now): ExternalOpener {
  const offers = new Map<string, string>()
  const opens = createBurstLimit(OPEN_BURST, OPEN_REFILL_MS, now)
  /** The only place `open` is called: after {@link checkUrl} accepted the URL, with its parsed href. */
  const openChecked = async (raw: string): Promise<Result<OpenOutcome>> => {
    const check = (await loadUrlCheck())(raw)
    if (!check.ok) return fail({ kind: 'invalid-argument', message: check.refusal ?? 'Bosun will not open this address.' })
    // Open the parsed href, never the raw string: what was shown is what is opened.
    if (!open) return ok({ openedBy: 'page', href: check.href })
    if (!opens.take()) return fail({ kind: 'busy', message: 'Bosun opened several addresses just now; wait a moment, then open this one again.' })
    try {
      await open(check.href)
    } catch (error) {
      return fail({ kind: 'io-error', message: `The browser could not be opened: ${error instanceof Error ? error.message : String(error)}` })
    }
    return ok({ openedBy: 'main', href: check.href })
  }
  return {
    offer(id, url) {
      offers.set(id, url)
    },
    withdraw(id) {
      offers.delete(id)
    },
    get offeredIds() {
      return [...offers.keys()]
    },
    async openAfterConsent(consent) {
      await loadUrlCheck() // first, so the offer is read as it is when the check runs
      const offered = offers.get(consent.elicitationRequestId)
      if (offered === undefined) {
        return fail({ kind: 'not-found', message: 'There is no pending request to open this address.' })
      }
      if (offered !== consent.url) {
        return fail({ kind: 'invalid-argument', message: 'This is not the address the agent asked you to open.' })
      }
      return openChecked(offered)
    },
    openLink(url) {
      return openChecked(url)
    },
  }
}
