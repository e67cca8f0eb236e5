import { createContext, useContext, type ComponentType, type ReactNode } from 'react'
import type { CallResult } from '../../../common/contract/define'
import { downloadBlob } from './download'
import type { ElicitationView, PermissionRequestView, ToolCallEntry } from '../../../common/session/types'

/** The props of `components/permissions/PermissionPrompt.tsx` (written by the permissions helper). */
export interface PermissionPromptProps {
  request: PermissionRequestView
  toolCall?: ToolCallEntry
  onRespond: (optionId: string | null) => void
}

/**
 * Everything the session screen delegates to other parts of Bosun. The lead wires the real components
 * and calls here (`<SessionSeamsProvider value={…}>`); until then the placeholders below keep the
 * screen usable.
 */
export interface SessionSeams {
  /** Renders one pending permission (on its tool-call card, or standalone). */
  PermissionPrompt: ComponentType<PermissionPromptProps>
  /**
   * Answers a permission request (`permission:respond`); `null` = dismissed/cancelled. May return the call's
   * result: a failure (an "always" answer the person did not confirm in main's dialog) is reported by the app.
   */
  onRespondPermission: (requestId: string, optionId: string | null) => void | Promise<CallResult<unknown>>
  /** Renders one elicitation (form or URL consent). */
  renderElicitation: (elicitation: ElicitationView) => ReactNode
  /** A link in agent output was activated: route it through the consent path (never navigate in-app). The session screen binds it to its session. */
  onOpenLink: (url: string) => void
  /** A link in session `sessionId`'s agent output was activated (main opens only links that occur there). */
  onOpenSessionLink: (sessionId: string, url: string) => void
  /** A tool call's file location: main checks it and opens it in the person's editor. The session screen binds it to its session. */
  onOpenLocation: (location: ToolLocation) => Promise<CallResult<{ path: string }>>
  /** A file location of session `sessionId`'s tool calls (`openLocation`; the browser host answers `unsupported`). */
  onOpenSessionLocation: (sessionId: string, location: ToolLocation) => Promise<CallResult<{ path: string }>>
  /**
   * Saves an image Bosun does not show (too large to decode, or its size unreadable): the browser host downloads the
   * data; in Electron (which blocks downloads: only main writes files) the session screen binds it to
   * `onSaveSessionImage`, whose answer the placeholder shows. Null: no button is offered.
   */
  onSaveImage: ((image: SaveableImage) => void | Promise<CallResult<{ savedTo: string | null }>>) | null
  /**
   * Electron: main saves session `sessionId`'s image (`saveImage`, named by its data's SHA-256) through its save
   * dialog, writing the bytes it holds, not the page's. Null where main has no dialog (the browser host).
   */
  onSaveSessionImage: ((sessionId: string, image: SaveableImage) => Promise<CallResult<{ savedTo: string | null }>>) | null
  /** The per-session auto-approve switch (`AutoApproveSwitch`), shown under the composer. */
  AutoApprove: ComponentType<{ checked: boolean; onChange: (value: boolean) => void }>
}

/** An image the transcript does not draw, as the placeholder offers it: a suggested name, its type and its base64 data. */
export interface SaveableImage {
  fileName: string
  mimeType: string
  base64: string
}

export interface ToolLocation {
  path: string
  line?: number | null
}

/** Downloads base64 image data as a file. */
export function downloadImage({ fileName, mimeType, base64 }: SaveableImage): void {
  const binary = atob(base64)
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  downloadBlob(fileName, new Blob([bytes], { type: mimeType }))
}

const notWired = async (): Promise<CallResult<never>> => ({ ok: false, error: { kind: 'unsupported', message: 'Opening files is not available here.' } })

/** Placeholder until `AutoApproveSwitch` is wired. */
export function AutoApprovePlaceholder({ checked, onChange }: { checked: boolean; onChange: (value: boolean) => void }) {
  return (
    <button type="button" role="switch" aria-checked={checked} className="switch" onClick={() => onChange(!checked)}>
      <span className="switch-track" aria-hidden="true">
        <span className="switch-thumb" />
      </span>
      <span>Auto-approve</span>
    </button>
  )
}

/** Placeholder until `PermissionPrompt` lands: the title and one button per option. */
export function PermissionPromptPlaceholder({ request, onRespond }: PermissionPromptProps) {
  const answered = request.status !== 'pending'
  return (
    <div className="permission-placeholder" role="group" aria-label={`Permission: ${request.title}`}>
      <div className="permission-title">
        <strong>{request.title}</strong>
        {answered && <span className="badge badge-muted">{request.status}</span>}
      </div>
      {request.description && <p className="muted">{request.description}</p>}
      {!answered && (
        <div className="button-row">
          {request.options.map((option) => (
            <button
              key={option.optionId}
              type="button"
              className={option.kind.startsWith('reject') ? 'button button-secondary' : 'button button-primary'}
              onClick={() => onRespond(option.optionId)}
            >
              {option.name}
            </button>
          ))}
        </div>
      )}
    </div>
  )
}

export function ElicitationPlaceholder({ elicitation }: { elicitation: ElicitationView }) {
  return (
    <div className="permission-placeholder" role="group" aria-label={`Question from ${elicitation.agentName}`}>
      <strong>{elicitation.message}</strong>
      <p className="muted">
        {elicitation.mode === 'url' ? `Asks to open ${elicitation.url ?? 'a URL'}` : 'Asks for information'} · {elicitation.status}
      </p>
    </div>
  )
}

export const defaultSeams: SessionSeams = {
  PermissionPrompt: PermissionPromptPlaceholder,
  onRespondPermission: (requestId, optionId) => console.warn('[bosun ui] permission response not wired', requestId, optionId),
  renderElicitation: (elicitation) => <ElicitationPlaceholder elicitation={elicitation} />,
  onOpenLink: (url) => console.warn('[bosun ui] open link not wired', url),
  onOpenSessionLink: (sessionId, url) => console.warn('[bosun ui] open link not wired', sessionId, url),
  onOpenLocation: notWired,
  onOpenSessionLocation: notWired,
  onSaveImage: downloadImage,
  onSaveSessionImage: null,
  AutoApprove: AutoApprovePlaceholder,
}

const SeamsContext = createContext<SessionSeams>(defaultSeams)
export const SessionSeamsProvider = SeamsContext.Provider
export const useSeams = (): SessionSeams => useContext(SeamsContext)
