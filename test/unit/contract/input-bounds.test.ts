import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { calls } from '../../../common/contract'
import { MAX_ELICITATION_ANSWERS } from '../../../common/contract/elicitation'
import { schemaLimits } from '../../../common/elicitation/schema'

/** `count` entries named as every record key here must be (`A0`, `A1`, …: an env name, a header name, a field key). */
const entries = (count: number, value: unknown) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`A${i}`, value]))

const draft = { name: 'A', command: 'a', argsText: '', env: [], secretEnv: [], defaultCwd: '' }
const server = { id: 'a', name: 'A', transport: 'stdio', enabled: true, agents: null, command: 'a' }

/** Every map the renderer can send main, with what one entry looks like and how many main takes. */
const records: { call: keyof typeof calls; max: number; arg: (map: Record<string, unknown>) => unknown; value: unknown }[] = [
  { call: 'saveAgentDefinition', max: 100, arg: (secrets) => ({ draft, secrets }), value: 'v' },
  { call: 'saveAgentDefinition', max: 200, arg: (options) => ({ draft: { ...draft, defaultConfigOptions: options } }), value: true },
  { call: 'validateAgentDefinition', max: 200, arg: (options) => ({ draft: { ...draft, defaultConfigOptions: options } }), value: 'x' },
  { call: 'saveMcpServer', max: 200, arg: (env) => ({ server: { ...server, env } }), value: 'v' },
  { call: 'saveMcpServer', max: 200, arg: (headers) => ({ server: { ...server, headers } }), value: 'v' },
  { call: 'saveMcpServer', max: 100, arg: (secrets) => ({ server, secrets }), value: 'v' },
  { call: 'respondElicitation', max: MAX_ELICITATION_ANSWERS, arg: (content) => ({ elicitationRequestId: 'e', action: 'accept', content }), value: 'v' },
]

/** A zod schema's definition, as far as this walk reads it (zod 4's `_zod.def`). */
interface Def {
  type: string
  checks?: { _zod: { def: { check: string } } }[]
  shape?: Record<string, unknown>
  element?: unknown
  keyType?: unknown
  valueType?: unknown
  options?: unknown[]
  innerType?: unknown
  in?: unknown
}

/** Where `schema` lets the renderer send something of any size: a string, array or map with no bound. */
function unboundedParts(schema: unknown, path: string, out: string[] = []): string[] {
  const def = (schema as { _zod: { def: Def } })._zod.def
  const has = (check: string) => (def.checks ?? []).some((c) => c._zod.def.check === check)
  switch (def.type) {
    case 'string':
      if (!has('max_length') && !has('string_format')) out.push(`${path}: string`)
      break
    case 'array':
      if (!has('max_length')) out.push(`${path}: array`)
      unboundedParts(def.element, `${path}[]`, out)
      break
    case 'record':
      // Bounded by boundedRecord's refinement (z.record has no bound of its own).
      if (!has('custom')) out.push(`${path}: record`)
      unboundedParts(def.keyType, `${path}{key}`, out)
      unboundedParts(def.valueType, `${path}{}`, out)
      break
    case 'object':
      for (const [key, value] of Object.entries(def.shape ?? {})) unboundedParts(value, `${path}.${key}`, out)
      break
    case 'union':
      def.options!.forEach((option, i) => unboundedParts(option, `${path}|${i}`, out))
      break
    case 'optional':
    case 'nullable':
    case 'default':
    case 'readonly':
      unboundedParts(def.innerType, path, out)
      break
    case 'pipe':
      unboundedParts(def.in, path, out)
      break
    case 'number':
    case 'boolean':
    case 'literal':
    case 'enum':
    case 'undefined':
    case 'null':
      break
    default:
      out.push(`${path}: ${def.type} (not known to this walk)`)
  }
  return out
}

describe('every call argument is bounded', () => {
  it('has a bound on every string, array and map the renderer can send', () => {
    const unbounded = Object.entries(calls).flatMap(([name, spec]) => unboundedParts(spec.input, name))
    expect(unbounded).toEqual([])
  })

  it('the walk finds what has no bound', () => {
    const loose = z.object({ a: z.string(), b: z.array(z.string().max(1)), c: z.record(z.string().max(1), z.string().max(1)), d: z.string().max(3).optional() })
    expect(unboundedParts(loose, 'x')).toEqual(['x.a: string', 'x.b: array', 'x.c: record'])
  })
})

describe('the maps a renderer sends are bounded', () => {
  it.each(records.map((r, i) => [i, r] as const))('record %i: at the bound it parses, one over it is refused', (_, record) => {
    const input = calls[record.call].input
    expect(input.safeParse(record.arg(entries(record.max, record.value))).success).toBe(true)
    const over = input.safeParse(record.arg(entries(record.max + 1, record.value)))
    expect(over.success).toBe(false)
    expect(JSON.stringify(over.error?.issues)).toContain(`At most ${record.max} entries`)
  })

  it('takes as many answers as a form may have fields', () => {
    expect(MAX_ELICITATION_ANSWERS).toBe(schemaLimits.maxFields)
  })
})

describe('a session’s folders are absolute (E1)', () => {
  it('newSession refuses a relative cwd or added folder before main does anything with it', () => {
    const input = calls.newSession.input
    expect(input.safeParse({ agentId: 'a', cwd: '/work' }).success).toBe(true)
    expect(input.safeParse({ agentId: 'a', cwd: 'C:\\work' }).success).toBe(true)
    for (const cwd of ['work', './work', '../work', '~/work', '']) expect(input.safeParse({ agentId: 'a', cwd }).success).toBe(false)
    expect(input.safeParse({ agentId: 'a', cwd: '/work', additionalDirectories: ['extra'] }).success).toBe(false)
  })
})
