import type { ReactNode } from 'react'

/**
 * What went wrong for a page as a whole (a file that could not be read, a call that failed, no keychain): one look on
 * Agents, Settings and the agent form, which each drew their own red-edged box, with Dismiss where it can go.
 */
export function PageBanner({ children, onDismiss, className }: { children: ReactNode; onDismiss?: (() => void) | undefined; className?: string }) {
  return (
    <div className={className ? `page-banner ${className}` : 'page-banner'} role="alert">
      <div className="page-banner-text">{children}</div>
      {onDismiss ? (
        <button type="button" className="link-button page-banner-dismiss" onClick={onDismiss}>
          Dismiss
        </button>
      ) : null}
    </div>
  )
}
