import { revealAsText } from './reveal-text'
import './permissions.css'

/** One request waiting for the person: a permission or an elicitation, from any session. */
export interface InboxItem {
  kind: 'permission' | 'elicitation'
  requestId: string
  agentName: string
  sessionId: string | null
  sessionName: string
  title: string
  /** A second line under the title: a form's message when the form has a title. */
  detail?: string
  /** Epoch ms. */
  createdAt: number
}

export interface ApprovalInboxProps {
  items: InboxItem[]
  onOpen: (requestId: string) => void
  /** For "2 min ago"; defaults to now. */
  now?: number
}

/** Everything waiting for an answer, oldest first, across sessions and agents. */
export function ApprovalInbox({ items, onOpen, now = Date.now() }: ApprovalInboxProps) {
  const sorted = [...items].sort((a, b) => a.createdAt - b.createdAt)
  return (
    <nav className="perm-inbox" aria-label="Waiting for you">
      <h2 className="perm-inbox-title">
        Waiting for you{sorted.length > 0 && <span className="perm-count">{sorted.length}</span>}
      </h2>
      {sorted.length === 0 ? (
        <p className="perm-muted perm-inbox-empty">Nothing is waiting for an answer.</p>
      ) : (
        <ul className="perm-inbox-list">
          {sorted.map((item) => (
            <li key={item.requestId}>
              <button type="button" className="perm-inbox-item" onClick={() => onOpen(item.requestId)}>
                <span className="perm-inbox-kind">{item.kind === 'permission' ? 'Approval' : 'Question'}</span>
                {/* Plain text with visible markers: a title is untrusted agent text. */}
                {item.kind === 'permission' ? (
                  <span className="perm-inbox-item-title">{revealAsText(item.title)}</span>
                ) : (
                  // A question's title and message are cut to a line each (the whole text in the tooltip and the
                  // button's name), so one long question does not fill the panel.
                  <>
                    <span className="perm-inbox-item-title perm-inbox-one-line" title={revealAsText(item.title)}>
                      {revealAsText(item.title)}
                    </span>
                    {item.detail && (
                      <span className="perm-inbox-detail perm-inbox-one-line" title={revealAsText(item.detail)}>
                        {revealAsText(item.detail)}
                      </span>
                    )}
                  </>
                )}
                <span className="perm-inbox-meta">
                  <bdi>{revealAsText(item.agentName)}</bdi> · <bdi>{revealAsText(item.sessionName)}</bdi> · {formatAge(now - item.createdAt)}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </nav>
  )
}

export function formatAge(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000))
  if (s < 60) return 'just now'
  const m = Math.round(s / 60)
  if (m < 60) return `${m} min ago`
  const h = Math.round(m / 60)
  return h < 24 ? `${h} h ago` : `${Math.round(h / 24)} d ago`
}
