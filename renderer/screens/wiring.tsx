import type { BosunApi } from '../../common/contract'
import { sha256Hex } from '../../common/sha256'
import type { InboxItem } from '../state/app-store'
import type { ElicitationView } from '../../common/session/types'
import type { PermissionPromptProps, SessionSeams } from '../components/common/seams'
import { ApprovalInbox } from '../components/permissions/ApprovalInbox'
import { AutoApproveSwitch } from '../components/permissions/AutoApproveSwitch'
import { PermissionPrompt } from '../components/permissions/PermissionPrompt'
import { LazyElicitationCard } from '../components/elicitation/LazyElicitationCard'
import { createLinkConsent } from '../components/elicitation/link-consent'
import type { InboxProps } from '../App'

/**
 * The real permission/elicitation components behind the session screen's seams. Kept apart from `App`
 * so the screen (and its dev preview) also runs with the placeholders.
 */
export function createWiredSeams(api: BosunApi): Partial<SessionSeams> {
  // Links in agent output take the URL-elicitation consent path: dialog first, then main's chokepoint.
  const links = createLinkConsent(api)
  return {
    // On a tool-call card the card already shows what the request is about; a command subject is still shown
    // (PermissionPrompt does that itself: the card does not know the command and folder being approved).
    PermissionPrompt: (props: PermissionPromptProps) => <PermissionPrompt {...props} showSubject={!props.toolCall} />,
    onRespondPermission: (requestId, optionId) => api.respondPermission({ requestId, optionId }),
    renderElicitation: (elicitation) => <LazyElicitationCard key={elicitation.elicitationRequestId} elicitation={elicitation} api={api} />,
    onOpenSessionLink: (sessionId, url) => links.open(url, sessionId),
    // Main decides whether the file may be opened (named by the session's tool calls, inside its folders).
    onOpenSessionLocation: (sessionId, location) => api.openLocation({ sessionId, path: location.path, ...(location.line != null ? { line: location.line } : {}) }),
    // Main writes the bytes it holds for the session: the page names the image by its data's SHA-256, never hands bytes.
    onSaveSessionImage: (sessionId, image) => api.saveImage({ sessionId, sha256: sha256Hex(image.base64) }),
    AutoApprove: AutoApproveSwitch,
  }
}

/** `ApprovalInbox` over the store's inbox items. */
export function WiredInbox({ items, onOpen }: InboxProps) {
  return <ApprovalInbox items={items.map(toApprovalItem)} onOpen={onOpen} />
}

function toApprovalItem(item: InboxItem) {
  return {
    kind: item.kind,
    requestId: item.id,
    agentName: item.agentName,
    sessionId: item.sessionId,
    sessionName: item.sessionTitle ?? (item.sessionId ? 'Untitled session' : 'New session'),
    ...(item.kind === 'permission' ? { title: item.request.title } : elicitationTitle(item.elicitation)),
    createdAt: item.createdAt,
  }
}

/** A form is listed by its title, its message under it; a form without one (or a URL request) by its message. */
function elicitationTitle(elicitation: ElicitationView): { title: string; detail?: string } {
  const schemaTitle = (elicitation.requestedSchema as { title?: unknown } | undefined)?.title
  const title = typeof schemaTitle === 'string' ? oneLine(schemaTitle) : ''
  const message = oneLine(elicitation.message)
  return title ? { title, ...(message ? { detail: message } : {}) } : { title: message }
}

/** Agent text on one line, long enough to fill the panel's width and no longer. */
function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > 300 ? `${Array.from(flat).slice(0, 300).join('')}…` : flat
}

/**
 * Default working folders from the agent definitions (`listAgentDefinitions`, kept current by
 * `onAgentDefinitionsChanged`). Returns the lookup and its unsubscribe.
 */
export function watchDefaultFolders(api: BosunApi): { defaultCwdFor: (agentId: string) => string; dispose: () => void } {
  let folders = new Map<string, string>()
  const take = (list: { agents: { id: string; defaultCwd?: string | undefined }[] }) => {
    folders = new Map(list.agents.map((a) => [a.id, a.defaultCwd ?? '']))
  }
  void api.listAgentDefinitions(undefined).then((result) => {
    if (result.ok) take(result.value)
  })
  const dispose = api.onAgentDefinitionsChanged(take)
  return { defaultCwdFor: (agentId) => folders.get(agentId) ?? '', dispose }
}
