/**
 * Pure normalisation of `session/request_permission` params, v1 (`{sessionId, toolCall, options}`) and
 * v2 (`{sessionId, title, description?, subject?, options}`), into the view the UI shows plus the
 * tool-call patch the session applies before showing the prompt (checklist G2, G3, K11).
 *
 * Both shapes are accepted whatever version was negotiated: agents mix them in the wild.
 */
import { HandlerError, INVALID_PARAMS } from '../acp/types'
import type { PermissionRequestView } from '../../common/session/types'
import { cutText } from '../../common/bounded'
import { MAX_PERMISSION_OPTION_ID_CHARS } from '../../common/contract/permissions'

export const DEFAULT_PERMISSION_TITLE = 'Permission requested'

export type PermissionOptionView = PermissionRequestView['options'][number]

/** What main knows about a tool call already on screen (for the title fallback and rule facts). */
export interface StoredToolCall {
  title?: string | null
  toolKind?: string | null
  rawInput?: unknown
  locations?: { path: string }[] | null
  content?: unknown[] | null
  /** v2 `ToolCall.name`. */
  name?: string | null
  _meta?: Record<string, unknown>
}

/**
 * What the request says about its subject, gathered for remembered rules (see subject-identity.ts, which
 * turns it into the identity a rule stores). Agent strings: untrusted, kept verbatim.
 */
export interface PermissionFacts {
  toolKind: string | null
  /** The v2 `command` subject, verbatim. */
  commandSubject: { command: string; cwd: string } | null
  /** The tool call's raw input (the request's patch, else the stored call); `undefined` when there is none. */
  rawInput: unknown
  /** The tool's own name: v2 `toolCall.name`, or a `toolName` in the tool call's `_meta`. */
  toolName: string | null
  /** The tool call's own title (request patch, else stored); never the v2 prompt's title, which words the question. */
  toolTitle: string | null
  /** `locations[].path` of the tool call. */
  locations: string[]
  /** The tool call's `content` (request patch, else stored): its diffs name files too. */
  content: unknown[]
}

export interface NormalizedPermissionRequest {
  sessionId: string
  title: string
  description: string | null
  subject: PermissionRequestView['subject']
  toolCallId: string | null
  options: PermissionOptionView[]
  /** The v1 `toolCall` / v2 `subject.toolCall`, to apply like a `tool_call_update` (title/description never added). */
  toolCallPatch: Record<string, unknown> | null
  facts: PermissionFacts
  /** Set when options repeat an `optionId` (G5): what the dialog tells the person before the click. */
  sharedIdNote: string | null
}

export interface NormalizeContext {
  /** The tool call as stored for this session, if it was announced. */
  lookupToolCall?: (sessionId: string, toolCallId: string) => StoredToolCall | undefined
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const nonEmptyString = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null)

function invalid(message: string): never {
  throw new HandlerError(INVALID_PARAMS, `Invalid params for session/request_permission: ${message}`)
}

/**
 * Parses and normalises the params. Throws {@link HandlerError} `-32602` for malformed params; the
 * connection turns it into the JSON-RPC error. Unknown option kinds and subject types are kept intact.
 */
export function normalizePermissionRequest(params: unknown, context: NormalizeContext = {}): NormalizedPermissionRequest {
  if (!isRecord(params)) invalid('params must be an object')
  const sessionId = params.sessionId
  if (typeof sessionId !== 'string' || sessionId === '') invalid('sessionId must be a non-empty string')
  const { options, sharedIdNote } = parseOptions(params.options)

  let subject: PermissionRequestView['subject'] = { type: 'none' }
  let toolCall: Record<string, unknown> | null = null
  let commandSubject: { command: string; cwd: string } | null = null

  // v2 `subject` (omitted and null are equivalent: no structured context).
  const rawSubject = params.subject
  if (rawSubject !== undefined && rawSubject !== null) {
    if (!isRecord(rawSubject) || typeof rawSubject.type !== 'string') invalid('subject must be an object with a string type')
    if (rawSubject.type === 'tool_call') {
      toolCall = parseToolCall(rawSubject.toolCall, 'subject.toolCall')
      subject = { type: 'tool_call', toolCallId: toolCall.toolCallId as string }
    } else if (rawSubject.type === 'command') {
      // A malformed known tag is invalid, never demoted to "unknown" (checklist I5).
      const command = rawSubject.command
      const cwd = rawSubject.cwd
      if (typeof command !== 'string') invalid('subject.command must be a string')
      if (typeof cwd !== 'string') invalid('subject.cwd must be a string')
      const toolCallId = optionalString(rawSubject.toolCallId, 'subject.toolCallId')
      const terminalId = optionalString(rawSubject.terminalId, 'subject.terminalId')
      subject = { type: 'command', command, cwd, toolCallId, terminalId }
      commandSubject = { command, cwd }
    } else {
      subject = { type: 'unknown', raw: rawSubject }
    }
  }

  // v1 `toolCall` (a ToolCallUpdate patch: only toolCallId is required).
  if (params.toolCall !== undefined && params.toolCall !== null && toolCall === null) {
    toolCall = parseToolCall(params.toolCall, 'toolCall')
    if (subject.type === 'none') subject = { type: 'tool_call', toolCallId: toolCall.toolCallId as string }
  }

  const toolCallId =
    toolCall !== null ? (toolCall.toolCallId as string) : subject.type === 'command' ? (subject.toolCallId ?? null) : null
  const stored = toolCallId !== null ? context.lookupToolCall?.(sessionId, toolCallId) : undefined

  const title = cutText(
    nonEmptyString(params.title) ?? nonEmptyString(toolCall?.title) ?? nonEmptyString(stored?.title) ?? DEFAULT_PERMISSION_TITLE,
    MAX_PERMISSION_TITLE_CHARS,
  )
  const description = typeof params.description === 'string' && params.description !== '' ? cutText(params.description, MAX_PERMISSION_DESCRIPTION_CHARS) : null

  return {
    sessionId,
    title,
    description,
    subject,
    toolCallId,
    options,
    toolCallPatch: toolCall,
    facts: extractFacts(subject, toolCall, stored, commandSubject),
    sharedIdNote,
  }
}

function optionalString(value: unknown, field: string): string | null {
  if (value === undefined || value === null) return null
  if (typeof value !== 'string') invalid(`${field} must be a string`)
  return value
}

/** A question's title and description as the approval draws them (a tool title is cut the same way), with "…". */
export const MAX_PERMISSION_TITLE_CHARS = 4_096
export const MAX_PERMISSION_DESCRIPTION_CHARS = 16_384

/** Options one permission request may offer: real agents offer two to four; a dialog of more is no question a person can answer. */
export const MAX_PERMISSION_OPTIONS = 64

/**
 * The offered options, each kept (G5: an agent that repeats an `optionId` is answered with that id, never refused).
 * The dialog shows every one, told apart: a repeated name gets its place (“Allow (2)”). An id offered under two kinds
 * says neither: those options count as of no known kind, so no rule, auto-approve or "always" ever picks them, and
 * the note tells the person the agent cannot tell them apart.
 */
function parseOptions(value: unknown): { options: PermissionOptionView[]; sharedIdNote: string | null } {
  if (!Array.isArray(value)) invalid('options must be an array')
  if (value.length > MAX_PERMISSION_OPTIONS) invalid(`options has more than ${MAX_PERMISSION_OPTIONS} entries; Bosun shows at most that many`)
  const options = value.map((option, index): PermissionOptionView => {
    if (!isRecord(option)) invalid(`options[${index}] must be an object`)
    const optionId = option.optionId
    if (typeof optionId !== 'string' || optionId === '') invalid(`options[${index}].optionId must be a non-empty string`)
    // The window answers with the id: a longer one could not be chosen, and "Reject" would not work while "Allow" did.
    if (optionId.length > MAX_PERMISSION_OPTION_ID_CHARS) invalid(`options[${index}].optionId is longer than ${MAX_PERMISSION_OPTION_ID_CHARS.toLocaleString('en')} characters`)
    // Kind is open in v2: keep whatever string came; a missing kind is simply unknown ('').
    const kind = typeof option.kind === 'string' ? option.kind : ''
    const name = typeof option.name === 'string' && option.name !== '' ? option.name : optionId
    return { optionId, name, kind }
  })
  const byId = new Map<string, PermissionOptionView[]>()
  for (const option of options) byId.set(option.optionId, [...(byId.get(option.optionId) ?? []), option])
  const shared = [...byId.values()].filter((group) => group.length > 1)
  if (shared.length === 0) return { options, sharedIdNote: null }
  const mixed = new Set(shared.filter((group) => new Set(group.map((o) => o.kind)).size > 1).flat())
  const nameCount = new Map<string, number>()
  for (const option of options) nameCount.set(option.name, (nameCount.get(option.name) ?? 0) + 1)
  const seenName = new Map<string, number>()
  const shown = options.map((option) => {
    const place = (seenName.get(option.name) ?? 0) + 1
    seenName.set(option.name, place)
    const name = (nameCount.get(option.name) ?? 0) > 1 ? `${option.name} (${place})` : option.name
    return { ...option, name, kind: mixed.has(option) ? '' : option.kind }
  })
  const names = shown.filter((o) => byId.get(o.optionId)!.length > 1).map((o) => `“${cutText(o.name, 100)}”`)
  const sharedIdNote = `The agent gave ${names.join(', ')} one answer between them: whichever you choose, it hears the same.`
  return { options: shown, sharedIdNote }
}

function parseToolCall(value: unknown, field: string): Record<string, unknown> {
  if (!isRecord(value)) invalid(`${field} must be an object`)
  if (typeof value.toolCallId !== 'string' || value.toolCallId === '') invalid(`${field}.toolCallId must be a non-empty string`)
  // A shallow copy: the session reducer owns what happens to it next.
  return { ...value }
}

function extractFacts(
  subject: PermissionRequestView['subject'],
  toolCall: Record<string, unknown> | null,
  stored: StoredToolCall | undefined,
  commandSubject: { command: string; cwd: string } | null,
): PermissionFacts {
  if (subject.type === 'unknown') return { toolKind: null, commandSubject: null, rawInput: undefined, toolName: null, toolTitle: null, locations: [], content: [] }
  const toolKind = nonEmptyString(toolCall?.kind) ?? nonEmptyString(stored?.toolKind) ?? (commandSubject ? 'execute' : null)
  const rawInput = toolCall && 'rawInput' in toolCall ? toolCall.rawInput : stored?.rawInput
  const locations: string[] = []
  const rawLocations: unknown = Array.isArray(toolCall?.locations) ? toolCall.locations : (stored?.locations ?? [])
  if (Array.isArray(rawLocations)) {
    for (const location of rawLocations) {
      if (isRecord(location) && typeof location.path === 'string' && location.path !== '') locations.push(location.path)
    }
  }
  const meta = isRecord(toolCall?._meta) ? toolCall._meta : isRecord(stored?._meta) ? stored._meta : undefined
  const toolName = nonEmptyString(toolCall?.name) ?? nonEmptyString(stored?.name) ?? metaToolName(meta)
  const toolTitle = nonEmptyString(toolCall?.title) ?? nonEmptyString(stored?.title)
  const content = Array.isArray(toolCall?.content) ? toolCall.content : Array.isArray(stored?.content) ? stored.content : []
  return { toolKind, commandSubject, rawInput: rawInput ?? undefined, toolName, toolTitle, locations, content }
}

/** `_meta.toolName`, or `_meta.<vendor>.toolName` (e.g. `_meta.claudeCode.toolName`); only when exactly one is named. */
function metaToolName(meta: Record<string, unknown> | undefined): string | null {
  if (!meta) return null
  const names = new Set<string>()
  const direct = nonEmptyString(meta.toolName)
  if (direct) names.add(direct)
  for (const value of Object.values(meta).slice(0, 32)) {
    const nested = isRecord(value) ? nonEmptyString(value.toolName) : null
    if (nested) names.add(nested)
  }
  return names.size === 1 ? [...names][0]! : names.size > 1 ? [...names].sort().join(' / ') : null
}
