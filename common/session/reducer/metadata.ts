/**
 * Session metadata: commands, modes, config options, session info, usage, notices, the configuration Bosun applied.
 */
import type { CommandView, ConfigOptionView, ModeView, ModelView, SessionAction, SessionState } from '../types'
import { MAX_NOTICES, cutText, isObject, isString, patchedMeta } from './draft'
import type { Draft, Update } from './draft'

export function parseCommands(value: unknown): CommandView[] | null {
  if (!Array.isArray(value)) return null
  const out: CommandView[] = []
  for (const item of value) {
    if (!isObject(item) || !isString(item.name)) continue
    const view: CommandView = { name: item.name, description: isString(item.description) ? item.description : '', raw: item }
    // v1 `{hint}`, v2 `{type:'text', hint}`; an unknown input type shows the command without structured input.
    const input = item.input
    if (isObject(input) && isString(input.hint) && (input.type === undefined || input.type === 'text')) view.hint = input.hint
    out.push(view)
  }
  return out
}

export function parseModes(value: unknown): SessionState['modes'] | undefined {
  if (value === null) return null
  if (!isObject(value) || !Array.isArray(value.availableModes)) return undefined
  const availableModes: ModeView[] = []
  for (const mode of value.availableModes) {
    if (!isObject(mode) || !isString(mode.id)) continue
    availableModes.push({
      id: mode.id,
      name: isString(mode.name) ? mode.name : mode.id,
      description: isString(mode.description) ? mode.description : null,
    })
  }
  return { currentModeId: isString(value.currentModeId) ? value.currentModeId : null, availableModes }
}

/** At most this many models are kept (the header's select lists them all); the rest are dropped. */
export const MAX_MODELS = 200
/** A model id longer than this could not be sent back (the IPC contract's bound): such a model is not listed. */
export const MAX_MODEL_ID_CHARS = 512
/** A model's name is one line of a select, its description a tooltip: longer ones are cut with `…`. */
export const MAX_MODEL_NAME_CHARS = 120
const MAX_MODEL_DESCRIPTION_CHARS = 1_000

/**
 * The unstable v1 `SessionModelState` (`{ availableModels: [{ modelId, name, description? }], currentModelId }`),
 * read liberally: bad items and repeated ids are skipped, the list and its texts bounded. `null` clears;
 * `undefined`: not a model state, nothing changes. The published SDK schema no longer has it (config options of
 * category `model` replaced it), but Gemini CLI and older claude-agent-acp still send it.
 */
export function parseModels(value: unknown): SessionState['models'] | undefined {
  if (value === null) return null
  if (!isObject(value) || !Array.isArray(value.availableModels)) return undefined
  const availableModels: ModelView[] = []
  const seen = new Set<string>()
  for (const model of value.availableModels) {
    if (availableModels.length >= MAX_MODELS) break
    if (!isObject(model) || !isString(model.modelId) || model.modelId === '' || model.modelId.length > MAX_MODEL_ID_CHARS || seen.has(model.modelId)) continue
    seen.add(model.modelId)
    availableModels.push({
      id: model.modelId,
      name: cutText(isString(model.name) && model.name.trim() !== '' ? model.name : model.modelId, MAX_MODEL_NAME_CHARS),
      description: isString(model.description) ? cutText(model.description, MAX_MODEL_DESCRIPTION_CHARS) : null,
    })
  }
  const current = isString(value.currentModelId) && value.currentModelId !== '' ? cutText(value.currentModelId, MAX_MODEL_ID_CHARS) : null
  return { currentModelId: current, availableModels }
}

/** Whether one of these config options is the session's model (it supersedes the legacy models). */
export function hasModelOption(options: readonly ConfigOptionView[]): boolean {
  return options.some((option) => option.category === 'model')
}

/** Config options (v1 `id`/`group`, v2 `configId`/`groupId`); grouped select options are flattened (H14). */
export function parseConfigOptions(value: unknown): ConfigOptionView[] | null {
  if (!Array.isArray(value)) return null
  const out: ConfigOptionView[] = []
  for (const item of value) {
    if (!isObject(item)) continue
    const id = isString(item.configId) ? item.configId : isString(item.id) ? item.id : null
    if (id === null || !isString(item.name)) continue
    const options: ConfigOptionView['options'] = []
    const pushOption = (o: unknown, group?: string) => {
      if (!isObject(o) || !isString(o.value)) return
      const option: ConfigOptionView['options'][number] = {
        value: o.value,
        name: isString(o.name) ? o.name : o.value,
        description: isString(o.description) ? o.description : null,
      }
      if (group !== undefined) option.group = group
      options.push(option)
    }
    if (Array.isArray(item.options)) {
      for (const o of item.options) {
        if (isObject(o) && Array.isArray(o.options)) {
          const group = isString(o.name) ? o.name : isString(o.groupId) ? o.groupId : isString(o.group) ? o.group : ''
          for (const inner of o.options) pushOption(inner, group)
        } else pushOption(o)
      }
    }
    out.push({
      id,
      name: item.name,
      description: isString(item.description) ? item.description : null,
      category: isString(item.category) ? item.category : null,
      type: isString(item.type) ? item.type : 'unknown',
      currentValue: item.currentValue,
      options,
      raw: item,
    })
  }
  return out
}

/** A session title is one line in the sidebar, the header and a notification: longer ones are cut with `…`. */
export const MAX_TITLE_CHARS = 1_000
/** An ISO 8601 time is about 30 characters; anything much longer is not one. */
const MAX_UPDATED_AT_CHARS = 64

export function applySessionInfo(d: Draft, u: Update): void {
  if (isString(u.title)) d.s.title = cutText(u.title, MAX_TITLE_CHARS)
  else if (u.title === null) d.s.title = null
  if ((isString(u.updatedAt) && u.updatedAt.length <= MAX_UPDATED_AT_CHARS) || u.updatedAt === null) d.s.updatedAt = u.updatedAt
  if (u._meta !== undefined) {
    const meta = patchedMeta(d.s.infoMeta, u._meta, d.v2)
    if (meta === undefined) delete d.s.infoMeta
    else d.s.infoMeta = meta
  }
}

/** Token counts above this are not believed (no context window comes near it); costs likewise. */
export const MAX_USAGE_VALUE = 1e12
/** What `usage.extra` may hold: this many fields, this many characters of JSON (else it is dropped whole). */
const MAX_USAGE_EXTRA_KEYS = 16
const MAX_USAGE_EXTRA_CHARS = 4096
const MAX_CURRENCY_CHARS = 32
const KNOWN_USAGE_KEYS = new Set(['sessionUpdate', 'used', 'size', 'cost'])

/** A number, or a string holding one (`"48000"`): finite, within ±`MAX_USAGE_VALUE`; else `null`. */
function usageNumber(value: unknown): number | null {
  const n = typeof value === 'number' ? value : isString(value) && value.trim() !== '' ? Number(value) : NaN
  return Number.isFinite(n) && Math.abs(n) <= MAX_USAGE_VALUE ? n : null
}

/** A token count: a non-negative whole number (fractions rounded), or `null`. */
function tokenCount(value: unknown): number | null {
  const n = usageNumber(value)
  return n !== null && n >= 0 ? Math.round(n) : null
}

function parseCost(value: unknown): { amount: number; currency: string } | null {
  if (!isObject(value)) return null
  const amount = usageNumber(value.amount)
  const currency = isString(value.currency) ? value.currency.trim() : ''
  if (amount === null || currency === '' || currency.length > MAX_CURRENCY_CHARS) return null
  return { amount, currency }
}

function usageExtra(u: Update): Record<string, unknown> | undefined {
  const keys = Object.keys(u).filter((key) => !KNOWN_USAGE_KEYS.has(key))
  if (keys.length === 0 || keys.length > MAX_USAGE_EXTRA_KEYS) return undefined
  const extra: Record<string, unknown> = {}
  for (const key of keys) extra[key] = u[key]
  try {
    const json = JSON.stringify(extra)
    return json !== undefined && json.length <= MAX_USAGE_EXTRA_CHARS ? (JSON.parse(json) as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}

/**
 * `usage_update` (H16), liberal: `used`/`size` may come as numeric strings; a missing, negative or absurd one
 * keeps the last good value (`size` may stay unknown; an update with no usable `used` before any is ignored).
 * `cost` omitted keeps the last cost; `null` clears it in v2 (v1: `null` ≡ omitted); a malformed cost keeps it.
 * The other fields are kept as `extra` (copied, bounded), replaced by each update.
 */
export function applyUsage(d: Draft, u: Update): void {
  const previous = d.s.usage
  const used = tokenCount(u.used) ?? previous?.used ?? null
  if (used === null) return
  const size = tokenCount(u.size) ?? previous?.size ?? null
  let cost = previous?.cost ?? null
  if (u.cost === null) {
    if (d.v2) cost = null
  } else if (u.cost !== undefined) cost = parseCost(u.cost) ?? cost
  const usage: NonNullable<SessionState['usage']> = { used, size, cost }
  const extra = usageExtra(u)
  if (extra) usage.extra = extra
  d.s.usage = usage
}

/** A notice is a few lines on screen (and a warning stays there until dismissed): longer descriptions are cut with `…`. */
export const MAX_NOTICE_DESCRIPTION_CHARS = 4_096

export function applyNotice(d: Draft, u: Update): void {
  if (!isString(u.title) || u.title === '') return
  const severity = u.severity === 'warning' || u.severity === 'error' ? u.severity : 'info'
  const notice: SessionState['notices'][number] = { id: d.nextNoticeId(), severity, title: cutText(u.title, MAX_TITLE_CHARS) }
  if (isString(u.description)) notice.description = cutText(u.description, MAX_NOTICE_DESCRIPTION_CHARS)
  if (u.fromBosun === true) notice.fromBosun = true
  const notices = [...d.s.notices, notice]
  d.s.notices = notices.length > MAX_NOTICES ? notices.slice(notices.length - MAX_NOTICES) : notices
}

export function applySessionConfigured(d: Draft, action: Extract<SessionAction, { type: 'session_configured' }>): void {
  const options = parseConfigOptions(action.configOptions)
  if (options) {
    // Config options supersede the legacy modes (a mode is a config option with category "mode").
    d.s.configOptions = options
  } else if (action.modes !== undefined) {
    const modes = parseModes(action.modes)
    if (modes !== undefined) d.s.modes = modes
  }
  // v1 only (v2 has no session/set_model), and only while no config option is the model (as modes, E4).
  if (hasModelOption(d.s.configOptions)) {
    if (d.s.models) d.s.models = null
  } else if (action.models !== undefined && !d.v2) {
    const models = parseModels(action.models)
    if (models !== undefined) d.s.models = models
  }
  const commands = parseCommands(action.availableCommands)
  if (commands) d.s.availableCommands = commands
}
