/**
 * Session metadata: commands, modes, config options, session info, usage, notices, the configuration Bosun applied.
 */
import type { CommandView, ConfigOptionView, ModeView, ModelView, SessionAction, SessionState } from '../types'
import { boundJson } from '../../bounded'
import { MAX_NOTICES, MAX_NOTICE_REPEATS, cutText, isObject, isString, patchedMeta } from './draft'
import type { Draft, Update } from './draft'

/**
 * The session's facts (commands, modes, config options) are replaced whole by each update, applied even to a full
 * session, and sent to the window each time: each is bounded like the models below, so an agent that lists 60,000
 * commands or a mode id of 1 MB does not keep or send megabytes with every change.
 */
export const MAX_COMMANDS = 1_000
/** A command's name is typed after `/` and sent back in the prompt: a longer one is not listed (cutting would change it). */
export const MAX_COMMAND_NAME_CHARS = 256
/** Descriptions and hints are one line of a menu or a tooltip; config option values and mode ids are sent back (as model ids are). */
const MAX_FACT_TEXT_CHARS = 500
export const MAX_CONFIG_OPTIONS = 50
/**
 * Values of one config option, and of all of them together (the model lists of real agents have a few hundred:
 * Kilo Code's has 385). Past the bound the current value is still kept, so the select never reads "not listed".
 */
export const MAX_CONFIG_VALUES = 500
export const MAX_CONFIG_VALUES_TOTAL = 1_000
export const MAX_MODES = 200
/** What a command or config option keeps of the agent's object as it was sent (fields Bosun does not read). */
const RAW_FACT_BOUNDS = { maxDepth: 8, maxStringChars: 256, maxEntries: 32, maxTotalChars: 1024 }

export function parseCommands(value: unknown): CommandView[] | null {
  if (!Array.isArray(value)) return null
  const out: CommandView[] = []
  // A command is run by its name ("/name"), so a second command of a name already listed could only run the first: it
  // is left out (it showed twice in the menu, under one React key).
  const names = new Set<string>()
  for (const item of value) {
    if (out.length >= MAX_COMMANDS) break
    if (!isObject(item) || !isString(item.name) || item.name.length > MAX_COMMAND_NAME_CHARS || names.has(item.name)) continue
    names.add(item.name)
    const view: CommandView = { name: item.name, description: isString(item.description) ? cutText(item.description, MAX_FACT_TEXT_CHARS) : '', raw: boundJson(item, RAW_FACT_BOUNDS) }
    // v1 `{hint}`, v2 `{type:'text', hint}`; an unknown input type shows the command without structured input.
    const input = item.input
    if (isObject(input) && isString(input.hint) && (input.type === undefined || input.type === 'text')) view.hint = cutText(input.hint, MAX_FACT_TEXT_CHARS)
    out.push(view)
  }
  return out
}

export function parseModes(value: unknown): SessionState['modes'] | undefined {
  if (value === null) return null
  if (!isObject(value) || !Array.isArray(value.availableModes)) return undefined
  const availableModes: ModeView[] = []
  // A mode is chosen by its id: a second one of an id already listed could only choose the first (and showed twice
  // in the select, under one React key). So with config options' ids and values below.
  const seen = new Set<string>()
  for (const mode of value.availableModes) {
    if (availableModes.length >= MAX_MODES) break
    if (!isObject(mode) || !isString(mode.id) || mode.id.length > MAX_MODEL_ID_CHARS || seen.has(mode.id)) continue
    seen.add(mode.id)
    availableModes.push({
      id: mode.id,
      name: cutText(isString(mode.name) ? mode.name : mode.id, MAX_MODEL_NAME_CHARS),
      description: isString(mode.description) ? cutText(mode.description, MAX_FACT_TEXT_CHARS) : null,
    })
  }
  return { currentModeId: modeIdOf(value.currentModeId), availableModes }
}

/** A current mode id as kept: one longer than any listed mode's can be is cut (it then matches none). */
export function modeIdOf(value: unknown): string | null {
  return isString(value) ? cutText(value, MAX_MODEL_ID_CHARS) : null
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
  const current = isString(value.currentModelId) && value.currentModelId !== '' ? cutText(value.currentModelId, MAX_MODEL_ID_CHARS) : null
  const isModel = (model: unknown): model is { modelId: string; name?: unknown; description?: unknown } =>
    isObject(model) && isString(model.modelId) && model.modelId !== '' && model.modelId.length <= MAX_MODEL_ID_CHARS
  const viewOf = (model: { modelId: string; name?: unknown; description?: unknown }): ModelView => ({
    id: model.modelId,
    name: cutText(isString(model.name) && model.name.trim() !== '' ? model.name : model.modelId, MAX_MODEL_NAME_CHARS),
    description: isString(model.description) ? cutText(model.description, MAX_MODEL_DESCRIPTION_CHARS) : null,
  })
  let cut = false
  for (const model of value.availableModels) {
    if (availableModels.length >= MAX_MODELS) {
      cut = true
      break
    }
    if (!isModel(model) || seen.has(model.modelId)) continue
    seen.add(model.modelId)
    availableModels.push(viewOf(model))
  }
  // Past the bound the current model is still kept (at the end), so the select never reads "not listed".
  if (cut && current !== null && !seen.has(current)) {
    const found = (value.availableModels as unknown[]).find((model) => isModel(model) && model.modelId === current)
    if (isModel(found)) availableModels.push(viewOf(found))
  }
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
  const ids = new Set<string>()
  let values = 0
  for (const item of value) {
    if (!isObject(item)) continue
    const id = isString(item.configId) ? item.configId : isString(item.id) ? item.id : null
    if (out.length >= MAX_CONFIG_OPTIONS) break
    if (id === null || id.length > MAX_MODEL_ID_CHARS || !isString(item.name) || ids.has(id)) continue
    ids.add(id)
    const options: ConfigOptionView['options'] = []
    const listed = new Set<string>()
    let cut = false
    const pushOption = (o: unknown, group?: string, current = false) => {
      if (!isObject(o) || !isString(o.value) || o.value.length > MAX_MODEL_ID_CHARS || listed.has(o.value)) return
      if (!current && (options.length >= MAX_CONFIG_VALUES || values >= MAX_CONFIG_VALUES_TOTAL)) {
        cut = true
        return
      }
      const option: ConfigOptionView['options'][number] = {
        value: o.value,
        name: cutText(isString(o.name) ? o.name : o.value, MAX_MODEL_NAME_CHARS),
        description: isString(o.description) ? cutText(o.description, MAX_FACT_TEXT_CHARS) : null,
      }
      if (group !== undefined) option.group = cutText(group, MAX_MODEL_NAME_CHARS)
      values++
      listed.add(o.value)
      options.push(option)
    }
    const groupOf = (o: Record<string, unknown>) => (isString(o.name) ? o.name : isString(o.groupId) ? o.groupId : isString(o.group) ? o.group : '')
    if (Array.isArray(item.options)) {
      for (const o of item.options) {
        if (isObject(o) && Array.isArray(o.options)) {
          const group = groupOf(o)
          for (const inner of o.options) pushOption(inner, group)
        } else pushOption(o)
      }
    }
    // A value past the bound that is current is looked for and kept (one more per option, at the end).
    const currentValue = item.currentValue
    if (cut && isString(currentValue) && Array.isArray(item.options) && !options.some((o) => o.value === currentValue)) {
      const isCurrent = (o: unknown) => isObject(o) && o.value === currentValue
      for (const o of item.options) {
        if (isObject(o) && Array.isArray(o.options)) {
          const inner = (o.options as unknown[]).find(isCurrent)
          if (inner !== undefined) {
            pushOption(inner, groupOf(o), true)
            break
          }
        } else if (isCurrent(o)) {
          pushOption(o, undefined, true)
          break
        }
      }
    }
    out.push({
      id,
      name: cutText(item.name, MAX_MODEL_NAME_CHARS),
      description: isString(item.description) ? cutText(item.description, MAX_FACT_TEXT_CHARS) : null,
      category: isString(item.category) ? cutText(item.category, MAX_MODEL_NAME_CHARS) : null,
      type: isString(item.type) ? cutText(item.type, MAX_MODEL_NAME_CHARS) : 'unknown',
      currentValue: boundJson(item.currentValue, RAW_FACT_BOUNDS),
      options,
      raw: boundJson(item, RAW_FACT_BOUNDS),
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
  // The same words again (codex-acp warns "Falling back from WebSockets…" on every turn): one notice, moved to the
  // newest place under a new id (an informational one shows its full time again), counting how often it came.
  const same = d.s.notices.find((n) => n.severity === notice.severity && n.title === notice.title && (n.description ?? undefined) === notice.description && n.fromBosun === notice.fromBosun)
  if (same) notice.repeats = Math.min((same.repeats ?? 1) + 1, MAX_NOTICE_REPEATS)
  const notices = [...d.s.notices.filter((n) => n !== same), notice]
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

/**
 * v1: Gemini CLI (0.61) tells a change of its mode as agent text, `[MODE_UPDATE] <modeId>`, never as a
 * `current_mode_update`: approving a plan in its plan mode puts it back in `default` while Bosun still showed "Plan",
 * and the marker showed as a message. A text chunk that is only that, naming one of the session's modes, is the mode
 * update it means (applied, not shown). Returns whether it was one.
 */
export function applyModeMarker(d: Draft, u: Update): boolean {
  const content = u.content
  if (!isObject(content) || content.type !== 'text' || !isString(content.text)) return false
  const modeId = /^\[MODE_UPDATE\] (\S+)$/.exec(content.text)?.[1]
  const modes = d.s.modes
  if (modeId === undefined || !modes || !modes.availableModes.some((mode) => mode.id === modeId)) return false
  if (d.s.configOptions.some((option) => option.category === 'mode')) return false
  d.s.modes = { currentModeId: modeId, availableModes: modes.availableModes }
  return true
}
