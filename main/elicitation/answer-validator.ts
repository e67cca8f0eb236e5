/**
 * Main's re-validation of a form answer before it goes to the agent: the pure field checks (person-facing
 * messages) plus Ajv over a JSON Schema rebuilt from the parsed form, both with patterns on re2js (linear
 * time, so a whole form validates in milliseconds). A pattern that cannot be checked refuses the answer
 * rather than sending it unchecked.
 */
import type AjvClass from 'ajv'
import type { RegExpEngine } from 'ajv/dist/types'
import type addFormatsFunction from 'ajv-formats'
import { lazyRequire } from '../base/lazy-require'
import { createBoundedPatternTester } from './bounded-pattern'
import { ownValue, setOwn } from '../../common/own-keys'
import { validateContent, type Content, type FieldSpec, type FormSchema, type PatternTester } from '../../common/elicitation/schema'

/** Ajv and its formats (some MiB and tens of ms), loaded with the first form answered. Both are CommonJS with a `default`. */
const loadAjv = lazyRequire<{ default: typeof AjvClass }>('ajv')
const loadFormats = lazyRequire<{ default: typeof addFormatsFunction }>('ajv-formats')

export type AnswerCheck = { ok: true; content: Content } | { ok: false; errors: Record<string, string> }

export interface AnswerValidator {
  validate(schema: FormSchema, content: unknown): AnswerCheck
}

/** The JSON Schema Ajv checks: only the keywords of the subset, unknown formats and unsupported fields dropped. */
export function toJsonSchema(schema: FormSchema): Record<string, unknown> {
  const properties: Record<string, unknown> = {}
  const required: string[] = []
  for (const f of schema.fields) {
    const prop = fieldToJson(f)
    if (!prop) continue
    setOwn(properties, f.key, prop)
    if (f.required) required.push(f.key)
  }
  return { type: 'object', properties, required, additionalProperties: false }
}

function fieldToJson(f: FieldSpec): Record<string, unknown> | null {
  const defined = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined))
  switch (f.kind) {
    case 'text':
      return defined({ type: 'string', minLength: f.minLength, maxLength: f.maxLength, pattern: f.pattern, format: f.format })
    case 'number':
      return defined({ type: f.integer ? 'integer' : 'number', minimum: f.minimum, maximum: f.maximum })
    case 'boolean':
      return { type: 'boolean' }
    case 'select':
      return { type: 'string', enum: f.options.map((o) => o.value) }
    case 'multi-select':
      return defined({ type: 'array', items: { type: 'string', enum: f.options.map((o) => o.value) }, uniqueItems: true, minItems: f.minItems, maxItems: f.maxItems })
    case 'unsupported':
      return null
  }
}

export function createAnswerValidator(options: { /** Ignored (linear-time matching needs none). */ patternTimeoutMs?: number } = {}): AnswerValidator {
  const tester = createBoundedPatternTester(options.patternTimeoutMs !== undefined ? { timeoutMs: options.patternTimeoutMs } : {})
  let timedOut = false
  // Ajv's pattern keyword goes through this engine, so its matches are bounded too.
  const engine: RegExpEngine = Object.assign(
    (pattern: string) => ({
      // Ajv caches compiled patterns by this string: without it every pattern would share the first one.
      toString: () => `/${pattern}/u`,
      test: (value: string) => {
        const matched = tester(pattern, value)
        if (matched === 'unknown') timedOut = true
        return matched === true
      },
    }),
    { code: 'linearRegExp' },
  )
  let made: AjvClass | undefined
  const ajv = (): AjvClass => {
    if (made) return made
    const Ajv = loadAjv().default
    made = new Ajv({ allErrors: true, strict: true, code: { regExp: engine } })
    loadFormats().default(made, ['email', 'uri', 'date', 'date-time'])
    return made
  }

  const strictTester: PatternTester = (pattern, value) => tester(pattern, value)

  return {
    validate(schema, content) {
      if (typeof content !== 'object' || content === null || Array.isArray(content)) {
        return { ok: false, errors: { '': 'The answer is not an object.' } }
      }
      const record = content as Record<string, unknown>
      const pure = validateContent(schema, record, strictTester)
      const errors = { ...pure.errors }
      for (const key of pure.unchecked) {
        if (ownValue(errors, key) === undefined) setOwn(errors, key, 'Bosun could not check this answer against the agent\'s pattern; change it or decline.')
      }
      if (Object.keys(errors).length > 0) return { ok: false, errors }

      // Defense in depth: the same answer through Ajv.
      const jsonSchema = toJsonSchema(schema)
      timedOut = false
      const check = ajv().compile(jsonSchema)
      const valid = check(record)
      ajv().removeSchema(jsonSchema)
      if (!valid || timedOut) {
        for (const e of check.errors ?? []) {
          const key = e.instancePath.split('/')[1] ?? ''
          if (ownValue(errors, key) === undefined) setOwn(errors, key, e.message ?? 'Invalid.')
        }
        if (Object.keys(errors).length === 0) errors[''] = 'The answer does not match the form.'
        return { ok: false, errors }
      }
      return { ok: true, content: record as Content }
    },
  }
}
