/**
 * The restricted JSON Schema subset of form-mode elicitation (checklist G14–G17), parsed into a small
 * field model both main and the renderer understand, and a validator for the person's answers.
 *
 * Pure: no Node or DOM APIs, so the renderer imports this module as-is. Agent-supplied `pattern`s run on
 * a linear-time engine ({@link linearPatternTester}, re2js) in main and in the renderer alike, so no
 * pattern can backtrack catastrophically anywhere; one re2js cannot run is shown as not checked, never run.
 */
import { RE2JS } from 're2js'
import { ownValue, setOwn } from '../own-keys'

export type KnownFormat = 'email' | 'uri' | 'date' | 'date-time'
const knownFormats: readonly string[] = ['email', 'uri', 'date', 'date-time']

export interface EnumChoice {
  value: string
  title: string
  description?: string
}

interface FieldBase {
  key: string
  /** The schema's title, or the property name. */
  title: string
  description?: string
  required: boolean
}

export type FieldSpec =
  | (FieldBase & {
      kind: 'text'
      minLength?: number
      maxLength?: number
      /** Checked on both sides, on re2js. */
      pattern?: string
      /**
       * A valid ECMA-262 pattern re2js cannot run (lookaround, backreferences): the field is kept, shown with a
       * note, and its answers are not checked against it, here or in main (never on a backtracking engine).
       */
      uncheckedPattern?: string
      format?: KnownFormat
      /** An unknown format (v2: an annotation, never a reason to refuse): shown as a hint, validated as plain text. */
      formatHint?: string
      default?: string
    })
  | (FieldBase & { kind: 'number'; integer: boolean; minimum?: number; maximum?: number; default?: number })
  | (FieldBase & { kind: 'boolean'; default?: boolean })
  | (FieldBase & { kind: 'select'; options: EnumChoice[]; omittedChoices?: number; default?: string })
  | (FieldBase & { kind: 'multi-select'; options: EnumChoice[]; omittedChoices?: number; minItems?: number; maxItems?: number; default?: string[] })
  /**
   * A property of a type outside the subset (e.g. `_color`, a nested `object`, a list of objects): shown as
   * "not supported", read-only, never rendered as a known control, never sent. A *required* one makes the form unanswerable: it is still shown, explained, and the
   * person may decline or cancel; `accept` is refused (see {@link unanswerableFields}).
   */
  | (FieldBase & { kind: 'unsupported'; type: string })

export interface FormSchema {
  title?: string
  description?: string
  fields: FieldSpec[]
}

export type SchemaParse = { ok: true; schema: FormSchema } | { ok: false; message: string }

/** Caps that keep a hostile schema from making a huge form. */
export const schemaLimits = { maxFields: 100, maxOptions: 500, maxPatternLength: 1000, maxTextLength: 100_000 } as const

type Json = Record<string, unknown>
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)
const isNonNegInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0

class Refusal extends Error {}

/**
 * Reads an optional constraint: omitted and `null` are equivalent; a value of the wrong type refuses the
 * schema (Bosun could not tell which answers the agent takes).
 */
function optional<T>(obj: Json, name: string, check: (v: unknown) => v is T, what: string, where: string): T | undefined {
  const v = obj[name]
  if (v === undefined || v === null) return undefined
  if (!check(v)) throw new Refusal(`${where}: "${name}" must be ${what}.`)
  return v
}

/**
 * Reads an annotation (`title`, `description`, `default`, `format`): a value of the wrong type is dropped, as
 * if omitted. It changes how the field is shown, never which answers are valid, so it refuses nothing.
 */
function annotation<T>(obj: Json, name: string, check: (v: unknown) => v is T): T | undefined {
  const v = obj[name]
  return check(v) ? v : undefined
}
const isString = (v: unknown): v is string => typeof v === 'string'
const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v)
const isBoolean = (v: unknown): v is boolean => typeof v === 'boolean'

/**
 * The choices of a select: `enum` strings, or `oneOf`/`anyOf` items with a string `const`. Choices of another
 * kind (`enum: ["a", 1]`) are left out and counted; only a list with no usable choice refuses the schema.
 */
function parseChoices(raw: unknown, where: string, titled: boolean): { options: EnumChoice[]; omittedChoices?: number } {
  if (!Array.isArray(raw) || raw.length === 0) throw new Refusal(`${where}: the list of choices must be a non-empty array.`)
  if (raw.length > schemaLimits.maxOptions) throw new Refusal(`${where}: more than ${schemaLimits.maxOptions} choices.`)
  const seen = new Set<string>()
  const options = raw.flatMap((item): EnumChoice[] => {
    if (!titled) return typeof item === 'string' ? [{ value: item, title: item }] : []
    if (!isObject(item) || typeof item.const !== 'string') return []
    const title = typeof item.title === 'string' && item.title !== '' ? item.title : item.const
    const description = typeof item.description === 'string' ? item.description : undefined
    return [{ value: item.const, title, ...(description ? { description } : {}) }]
  })
  if (options.length === 0) {
    throw new Refusal(titled ? `${where}: no choice has a string "const".` : `${where}: no choice is a string.`)
  }
  for (const c of options) {
    if (seen.has(c.value)) throw new Refusal(`${where}: the choice "${c.value}" appears twice.`)
    seen.add(c.value)
  }
  const omitted = raw.length - options.length
  return omitted > 0 ? { options, omittedChoices: omitted } : { options }
}

/**
 * Whether the agent's `pattern` is ECMA-262, with or without the `u` flag (JSON Schema names no flag:
 * `^\d{3}\-\d{4}$` is valid only without it). Constructing a RegExp parses it and never runs it, so no
 * pattern can backtrack here.
 */
function isEcmaPattern(pattern: string): boolean {
  for (const flags of ['u', '']) {
    try {
      new RegExp(pattern, flags)
      return true
    } catch {
      // The other reading may accept it.
    }
  }
  return false
}

function describeType(t: unknown): string {
  if (t === undefined || t === null) return 'no type'
  return typeof t === 'string' ? t : JSON.stringify(t)
}

function parseField(key: string, prop: unknown, required: boolean): FieldSpec {
  const where = `Field "${key}"`
  if (!isObject(prop)) throw new Refusal(`${where} is not a schema object.`)
  const base: FieldBase = { key, title: annotation(prop, 'title', isString) || key, required }
  const description = annotation(prop, 'description', isString)
  if (description) base.description = description
  // No answer can be kept under this name: JSON tools drop the key (the contract's records among them), and a plain
  // object's `__proto__` is its prototype. Kept as unsupported (G15): optional, the rest of the form still works.
  if (key === '__proto__') return unknownField(base, 'a field named "__proto__"')
  const type = prop.type

  switch (type) {
    case 'string': {
      if (prop.oneOf != null || prop.enum != null) {
        const choices = prop.oneOf != null ? parseChoices(prop.oneOf, where, true) : parseChoices(prop.enum, where, false)
        const def = annotation(prop, 'default', isString)
        return { ...base, kind: 'select', ...choices, ...(def !== undefined && choices.options.some((o) => o.value === def) ? { default: def } : {}) }
      }
      const minLength = optional(prop, 'minLength', isNonNegInt, 'a non-negative integer', where)
      const maxLength = optional(prop, 'maxLength', isNonNegInt, 'a non-negative integer', where)
      const pattern = optional(prop, 'pattern', isString, 'a string', where)
      const format = annotation(prop, 'format', isString)
      const def = annotation(prop, 'default', isString)
      if (minLength !== undefined && maxLength !== undefined && minLength > maxLength) {
        throw new Refusal(`${where}: minLength is larger than maxLength, so no answer could be valid.`)
      }
      if (pattern !== undefined) {
        if (pattern.length > schemaLimits.maxPatternLength) throw new Refusal(`${where}: the pattern is too long.`)
        if (!isEcmaPattern(pattern)) throw new Refusal(`${where}: the pattern is not a valid regular expression.`)
      }
      const field: FieldSpec = { ...base, kind: 'text' }
      if (minLength !== undefined) field.minLength = minLength
      if (maxLength !== undefined) field.maxLength = maxLength
      // Patterns run on a linear-time engine only; what it cannot run is shown as not checked, never run otherwise.
      if (pattern !== undefined) {
        if (compileAgentPattern(pattern)) field.pattern = pattern
        else field.uncheckedPattern = pattern
      }
      if (format !== undefined) {
        if (knownFormats.includes(format)) field.format = format as KnownFormat
        else field.formatHint = format
      }
      if (def !== undefined) field.default = def
      return field
    }
    case 'number':
    case 'integer': {
      const minimum = optional(prop, 'minimum', isFiniteNumber, 'a number', where)
      const maximum = optional(prop, 'maximum', isFiniteNumber, 'a number', where)
      const def = annotation(prop, 'default', isFiniteNumber)
      if (minimum !== undefined && maximum !== undefined && minimum > maximum) {
        throw new Refusal(`${where}: minimum is larger than maximum, so no answer could be valid.`)
      }
      const field: FieldSpec = { ...base, kind: 'number', integer: type === 'integer' }
      if (minimum !== undefined) field.minimum = minimum
      if (maximum !== undefined) field.maximum = maximum
      if (def !== undefined && (type === 'number' || Number.isInteger(def))) field.default = def
      return field
    }
    case 'boolean': {
      const def = annotation(prop, 'default', isBoolean)
      return { ...base, kind: 'boolean', ...(def !== undefined ? { default: def } : {}) }
    }
    case 'array': {
      const items = prop.items
      // Only lists of choices are in the subset: any other list (of objects, of lists, of no stated kind) is
      // kept as unsupported (G15), so an optional one leaves the rest of the form usable.
      if (!isObject(items)) return unknownField(base, 'array')
      let choices: ReturnType<typeof parseChoices>
      if (items.anyOf != null) choices = parseChoices(items.anyOf, where, true)
      else if (items.type === 'string' && items.enum != null) choices = parseChoices(items.enum, where, false)
      else if (isObject(items.properties) && (items.type === undefined || items.type === null)) return unknownField(base, 'array of object')
      else return unknownField(base, `array of ${describeType(items.type)}`)
      const minItems = optional(prop, 'minItems', isNonNegInt, 'a non-negative integer', where)
      const maxItems = optional(prop, 'maxItems', isNonNegInt, 'a non-negative integer', where)
      if (minItems !== undefined && maxItems !== undefined && minItems > maxItems) {
        throw new Refusal(`${where}: minItems is larger than maxItems, so no answer could be valid.`)
      }
      const def = annotation(prop, 'default', (v): v is unknown[] => Array.isArray(v))
      const { options } = choices
      const field: FieldSpec = { ...base, kind: 'multi-select', ...choices }
      if (minItems !== undefined) field.minItems = minItems
      if (maxItems !== undefined) field.maxItems = maxItems
      if (def) field.default = def.filter((v): v is string => typeof v === 'string' && options.some((o) => o.value === v))
      return field
    }
    // A nested object is outside the flat subset: kept as unsupported (G15), never flattened into controls.
    default:
      return unknownField(base, describeType(type))
  }
}

function unknownField(base: FieldBase, type: string): FieldSpec {
  return { ...base, kind: 'unsupported', type: type.length > 64 ? `${type.slice(0, 64)}…` : type }
}

/** Required fields Bosun cannot show: while there is one, the form can be declined or cancelled, never accepted. */
export function unanswerableFields(schema: FormSchema): FieldSpec[] {
  return schema.fields.filter((f) => f.kind === 'unsupported' && f.required)
}

/**
 * Parses an agent's `requestedSchema`. Refusals carry a sentence for the person; the broker answers the
 * agent -32602 with the same text.
 */
export function parseRequestedSchema(raw: unknown, options: { protocolVersion: 1 | 2 } = { protocolVersion: 2 }): SchemaParse {
  try {
    if (!isObject(raw)) throw new Refusal('The form description is not an object.')
    // Omitted/null type means object (G14); v1 tolerated anything else, v2 rejects it.
    if (raw.type !== undefined && raw.type !== null && raw.type !== 'object' && options.protocolVersion === 2) {
      throw new Refusal(`The form must describe an object, not ${describeType(raw.type)}.`)
    }
    const props = raw.properties ?? {}
    if (!isObject(props)) throw new Refusal('The form\'s "properties" is not an object.')
    const requiredRaw = raw.required ?? []
    if (!Array.isArray(requiredRaw) || !requiredRaw.every(isString)) throw new Refusal('The form\'s "required" is not a list of names.')
    const required = new Set(requiredRaw)
    const keys = Object.keys(props)
    if (keys.length > schemaLimits.maxFields) throw new Refusal(`The form has more than ${schemaLimits.maxFields} fields.`)
    for (const name of required) {
      if (!Object.prototype.hasOwnProperty.call(props, name)) throw new Refusal(`The form requires "${name}" but does not describe it.`)
    }
    const fields = keys.map((key) => parseField(key, props[key], required.has(key)))
    const schema: FormSchema = { fields }
    if (typeof raw.title === 'string' && raw.title) schema.title = raw.title
    if (typeof raw.description === 'string' && raw.description) schema.description = raw.description
    return { ok: true, schema }
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, message: error.message }
    throw error
  }
}

// ---------------------------------------------------------------------------------------------------
// Answers

/** A value of the `content` object (G18). */
export type ContentValue = string | number | boolean | string[]
export type Content = Record<string, ContentValue>

/**
 * Runs an agent pattern. `true`/`false` = matched or not; `'unknown'` = not checked here (unsafe pattern in
 * the renderer, or the time limit ran out in main).
 */
export type PatternTester = (pattern: string, value: string) => boolean | 'unknown'

export interface ValidationOutcome {
  /** Person-facing messages, by field key. */
  errors: Record<string, string>
  /** Fields whose pattern could not be checked here (main re-checks with a time limit). */
  unchecked: string[]
}

const emailRe = /^[^\s@<>()[\],;:"]+@[^\s@<>()[\],;:"]+\.[^\s@<>()[\],;:".]+$/u
const dateRe = /^(\d{4})-(\d{2})-(\d{2})$/
const dateTimeRe = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/

function validDate(y: string, m: string, d: string): boolean {
  const year = Number(y)
  const month = Number(m)
  const day = Number(d)
  if (month < 1 || month > 12 || day < 1) return false
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate()
  return day <= days
}

/** Checks a known format; these expressions are fixed and linear, so they are safe anywhere. */
export function checkFormat(format: KnownFormat, value: string): boolean {
  switch (format) {
    case 'email':
      return value.length <= 320 && emailRe.test(value)
    case 'uri': {
      if (!/^[A-Za-z][A-Za-z0-9+.-]*:/.test(value)) return false
      try {
        new URL(value)
        return true
      } catch {
        return false
      }
    }
    case 'date': {
      const m = dateRe.exec(value)
      return !!m && validDate(m[1]!, m[2]!, m[3]!)
    }
    case 'date-time': {
      const m = dateTimeRe.exec(value)
      return !!m && validDate(m[1]!, m[2]!, m[3]!) && Number(m[4]) < 24 && Number(m[5]) < 60 && Number(m[6]) < 61
    }
  }
}

const formatNames: Record<KnownFormat, string> = {
  email: 'an email address',
  uri: 'a full address such as https://example.com',
  date: 'a date such as 2026-01-31',
  'date-time': 'a date and time such as 2026-01-31T09:30:00Z',
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`
/** String length as the schema counts it: Unicode code points, not UTF-16 units. */
const codePoints = (s: string) => [...s].length

/**
 * Validates `content` against the parsed schema: required fields, lengths, bounds, integer vs number, enum
 * membership, item counts, formats and patterns (G17). Unknown keys are errors (under the key `""`).
 */
export function validateContent(schema: FormSchema, content: Record<string, unknown>, testPattern: PatternTester): ValidationOutcome {
  const errors: Record<string, string> = {}
  const unchecked: string[] = []
  const byKey = new Map(schema.fields.map((f) => [f.key, f]))
  for (const key of Object.keys(content)) {
    const field = byKey.get(key)
    if (!field || field.kind === 'unsupported') errors[''] = `The answer contains a field the form did not ask for ("${key}").`
  }
  for (const field of schema.fields) {
    if (field.kind === 'unsupported') {
      if (field.required) setOwn(errors, field.key, `Required, but Bosun cannot show this kind of field (${field.type}), so the form cannot be accepted. Decline or cancel.`)
      continue
    }
    const value = ownValue(content, field.key)
    if (value === undefined) {
      if (field.required) setOwn(errors, field.key, 'Required.')
      continue
    }
    const message = validateValue(field, value, testPattern, () => unchecked.push(field.key))
    if (message) setOwn(errors, field.key, message)
  }
  return { errors, unchecked }
}

function validateValue(field: FieldSpec, value: unknown, testPattern: PatternTester, markUnchecked: () => void): string | null {
  switch (field.kind) {
    case 'text': {
      if (typeof value !== 'string') return 'Must be text.'
      if (field.required && value === '') return 'Required.'
      const length = codePoints(value)
      if (length > schemaLimits.maxTextLength) return 'Too long.'
      if (field.minLength !== undefined && length < field.minLength) return `At least ${plural(field.minLength, 'character')}.`
      if (field.maxLength !== undefined && length > field.maxLength) return `At most ${plural(field.maxLength, 'character')}.`
      if (field.format && !checkFormat(field.format, value)) return `Must be ${formatNames[field.format]}.`
      if (field.pattern !== undefined) {
        const matched = testPattern(field.pattern, value)
        if (matched === 'unknown') markUnchecked()
        else if (!matched) return 'Does not have the expected form.'
      }
      return null
    }
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'Must be a number.'
      if (field.integer && !Number.isInteger(value)) return 'Must be a whole number.'
      if (field.minimum !== undefined && value < field.minimum) return `Must be at least ${field.minimum}.`
      if (field.maximum !== undefined && value > field.maximum) return `Must be at most ${field.maximum}.`
      return null
    }
    case 'boolean':
      return typeof value === 'boolean' ? null : 'Must be yes or no.'
    case 'select':
      if (typeof value !== 'string' || !field.options.some((o) => o.value === value)) return 'Choose one of the options.'
      return null
    case 'multi-select': {
      if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) return 'Must be a list of choices.'
      if (!value.every((v) => field.options.some((o) => o.value === v))) return 'Choose only from the options.'
      if (new Set(value).size !== value.length) return 'Each option at most once.'
      if (field.minItems !== undefined && value.length < field.minItems) return `Choose at least ${field.minItems}.`
      if (field.maxItems !== undefined && value.length > field.maxItems) return `Choose at most ${field.maxItems}.`
      return null
    }
    case 'unsupported':
      return null
  }
}

// ---------------------------------------------------------------------------------------------------
// Drafts: what a form holds while the person edits it

/** A form's editable state: text inputs keep strings (numbers too, until submitted). */
export type DraftValue = string | boolean | string[] | undefined
export type Draft = Record<string, DraftValue>

/** The initial draft: defaults pre-filled (G17). */
export function initialDraft(schema: FormSchema): Draft {
  const draft: Draft = {}
  for (const f of schema.fields) {
    switch (f.kind) {
      case 'text':
        setOwn(draft, f.key, f.default ?? '')
        break
      case 'number':
        setOwn(draft, f.key, f.default !== undefined ? String(f.default) : '')
        break
      case 'boolean':
        setOwn(draft, f.key, f.default ?? false)
        break
      case 'select':
        setOwn(draft, f.key, f.default ?? '')
        break
      case 'multi-select':
        setOwn(draft, f.key, f.default ?? [])
        break
      case 'unsupported':
        break
    }
  }
  return draft
}

/**
 * Turns a draft into the `content` to send. Empty optional text/number/select fields are omitted; a
 * number field that does not parse stays a string so validation reports it.
 */
export function draftToContent(schema: FormSchema, draft: Draft): Record<string, unknown> {
  const content: Record<string, unknown> = {}
  for (const f of schema.fields) {
    const v = ownValue(draft, f.key)
    switch (f.kind) {
      case 'text':
        if (typeof v === 'string' && (v !== '' || f.required)) setOwn(content, f.key, v)
        break
      case 'number': {
        if (typeof v !== 'string' || v.trim() === '') break
        const n = Number(v.trim())
        setOwn(content, f.key, Number.isFinite(n) ? n : v)
        break
      }
      case 'boolean':
        if (typeof v === 'boolean') setOwn(content, f.key, v)
        break
      case 'select':
        if (typeof v === 'string' && v !== '') setOwn(content, f.key, v)
        break
      case 'multi-select':
        if (Array.isArray(v) && (v.length > 0 || f.required || f.default !== undefined)) setOwn(content, f.key, v)
        break
      case 'unsupported':
        break
    }
  }
  return content
}

// ---------------------------------------------------------------------------------------------------
// Agent patterns run on a linear-time engine (RE2 semantics, re2js), in main and in the renderer alike

/** Compiled agent patterns, shared by every form (a small cache: forms repeat their patterns). */
const compiled = new Map<string, RE2JS | null>()
const MAX_COMPILED = 256

/**
 * The pattern compiled for RE2 (JavaScript syntax translated), or `null` when it uses what a linear-time
 * engine cannot run (backreferences, lookaround). Matching is then linear in the input: no pattern, however
 * crafted, can freeze the page or main.
 */
export function compileAgentPattern(pattern: string): RE2JS | null {
  if (compiled.has(pattern)) return compiled.get(pattern)!
  let re: RE2JS | null
  try {
    re = RE2JS.compile(RE2JS.translateRegExp(pattern))
  } catch {
    re = null
  }
  if (compiled.size >= MAX_COMPILED) compiled.delete(compiled.keys().next().value!)
  compiled.set(pattern, re)
  return re
}

/**
 * The pattern tester both sides use: JSON Schema `pattern` semantics (a match anywhere, like `RegExp.test`)
 * on RE2. `'unknown'` only for a pattern RE2 cannot compile, which parsing keeps as `uncheckedPattern`
 * instead, so a parsed form never asks.
 */
export const linearPatternTester: PatternTester = (pattern, value) => {
  const re = compileAgentPattern(pattern)
  if (!re) return 'unknown'
  return re.test(value)
}
