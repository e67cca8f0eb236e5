import { memo, useState } from 'react'
import type { PermissionRequestView, TerminalView, ToolCallEntry } from '../../state/types'
import { Icon } from '../common/icons'
import { JsonDisclosure } from '../common/JsonView'
import { useSeams } from '../common/seams'
import { ContentBlockView } from './ContentBlockView'
import { DiffView } from './DiffView'
import { TerminalOutput } from './TerminalOutput'
import { STATUS_LABEL, TOOL_KIND_LABEL, statusBadgeOf, toolKindOf } from './tool-kind'

export interface ToolCallCardProps {
  entry: ToolCallEntry
  /** The session's permission requests (the card shows those named by `entry.permissionIds`). */
  permissions: Record<string, PermissionRequestView>
  /** Terminals referenced by the card's content. */
  terminals: Record<string, TerminalView>
}

const STATUS_CLASS = {
  pending: 'badge-muted',
  in_progress: 'badge-progress',
  completed: 'badge-ok',
  failed: 'badge-danger',
  cancelled: 'badge-muted',
  paused: 'badge-warn',
} as const

/** "Allowed by rule …" / "Rejected by auto-approve" / "Allowed by you (Allow once)". */
export function decidedByText(decidedBy: NonNullable<ToolCallEntry['decidedBy']>): string {
  const verb = decidedBy.optionKind?.startsWith('reject') ? 'Rejected' : 'Allowed'
  switch (decidedBy.kind) {
    case 'rule':
      return `${verb} by rule ${decidedBy.label}`
    case 'auto-approve':
      return `${verb} by auto-approve${decidedBy.label ? ` (${decidedBy.label})` : ''}`
    default:
      return `${verb} by you${decidedBy.label ? ` (${decidedBy.label})` : ''}`
  }
}

export const ToolCallCard = memo(function ToolCallCard({ entry, permissions, terminals }: ToolCallCardProps) {
  const seams = useSeams()
  const kind = toolKindOf(entry.toolKind)
  const status = statusBadgeOf(entry.status)
  const pending = entry.permissionIds.map((id) => permissions[id]).filter((p): p is PermissionRequestView => p?.status === 'pending')
  // Finished cards with only raw payloads start collapsed; anything awaiting the person is open.
  const [open, setOpen] = useState(true)
  const title = entry.title ?? entry.name ?? TOOL_KIND_LABEL[kind]
  const bodyId = `tool-body-${entry.id}`
  const hasBody =
    entry.content.length > 0 || entry.locations.length > 0 || entry.rawInput !== undefined || entry.rawOutput !== undefined || pending.length > 0
  return (
    <article className={`tool-card tool-${status}${pending.length ? ' tool-awaiting' : ''}`} aria-label={`${TOOL_KIND_LABEL[kind]}: ${title}`}>
      <header className="tool-header">
        <span className={`tool-icon tool-icon-${kind}`} title={TOOL_KIND_LABEL[kind]}>
          <Icon name={kind} />
        </span>
        <span className="tool-title">{title}</span>
        {pending.length > 0 && <span className="badge badge-warn">Needs approval</span>}
        <span className={`badge ${STATUS_CLASS[status]}`}>{STATUS_LABEL[status]}</span>
        {hasBody && (
          <button
            type="button"
            className="icon-button disclosure-button"
            aria-expanded={open}
            aria-controls={bodyId}
            aria-label={open ? `Collapse ${title}` : `Expand ${title}`}
            onClick={() => setOpen(!open)}
          >
            <Icon name="chevron" className={open ? 'rotate-90' : undefined} />
          </button>
        )}
      </header>
      {open && hasBody && (
        <div className="tool-body" id={bodyId}>
          {entry.locations.length > 0 && (
            <ul className="tool-locations" aria-label="Locations">
              {entry.locations.map((loc, i) => (
                <li key={i} className="location">
                  {loc.path}
                  {loc.line != null ? `:${loc.line}` : ''}
                </li>
              ))}
            </ul>
          )}
          {entry.content.map((content, i) => {
            const c = content as Record<string, unknown>
            switch (content.type) {
              case 'content':
                return <ContentBlockView key={i} block={c.content as never} markdown onOpenLink={seams.onOpenLink} />
              case 'diff':
                return <DiffView key={i} block={c} />
              case 'terminal': {
                const id = String(c.terminalId ?? '')
                return <TerminalOutput key={i} terminalId={id} terminal={terminals[id]} />
              }
              default:
                return <JsonDisclosure key={i} summary={`Unknown content (${String(content.type)})`} value={content} />
            }
          })}
          {pending.map((request) => (
            <div className="tool-permission" key={request.requestId}>
              <seams.PermissionPrompt
                request={request}
                toolCall={entry}
                onRespond={(optionId) => seams.onRespondPermission(request.requestId, optionId)}
              />
            </div>
          ))}
          {entry.rawInput !== undefined && <JsonDisclosure summary="Raw input" value={entry.rawInput} />}
          {entry.rawOutput !== undefined && <JsonDisclosure summary="Raw output" value={entry.rawOutput} />}
        </div>
      )}
      {entry.decidedBy && (
        <footer className="tool-footer muted">
          {decidedByText(entry.decidedBy)}
        </footer>
      )}
    </article>
  )
})
