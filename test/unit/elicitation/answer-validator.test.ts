import { describe, expect, it } from 'vitest'
import { createAnswerValidator, toJsonSchema } from '../../../main/elicitation/answer-validator'
import { createBoundedPatternTester } from '../../../main/elicitation/bounded-pattern'
import { parseRequestedSchema, type FormSchema } from '../../../common/elicitation/schema'

function parse(raw: unknown): FormSchema {
  const parsed = parseRequestedSchema(raw)
  if (!parsed.ok) throw new Error(parsed.message)
  return parsed.schema
}

describe('bounded pattern tester (G16)', () => {
  it('matches ordinary patterns', () => {
    const test = createBoundedPatternTester()
    expect(test('^[a-z]+$', 'abc')).toBe(true)
    expect(test('^[a-z]+$', 'ab1')).toBe(false)
    expect(test('^\\p{Lu}', 'Émile')).toBe(true)
  })

  it('answers a catastrophic pattern at once (linear time) and keeps working', () => {
    const test = createBoundedPatternTester()
    expect(test('^(a+)+$', 'a'.repeat(10_000) + '!')).toBe(false)
    expect(test('^(a+)+$', 'a'.repeat(10_000))).toBe(true)
    expect(test('^a+$', 'aaa')).toBe(true)
  })

  it('never evaluates the pattern or the value as code', () => {
    const test = createBoundedPatternTester()
    expect(test('"; globalThis.pwned = 1; "', 'x')).toBe(false)
    expect(test('^x$', '"); globalThis.pwned = 1; ("')).toBe(false)
    expect((globalThis as Record<string, unknown>).pwned).toBeUndefined()
  })
})

describe('answer validator (main)', () => {
  const schema = parse({
    properties: {
      name: { type: 'string', minLength: 1, pattern: '^[A-Z]' },
      code: { type: 'string', pattern: '^(a+)+$' },
      email: { type: 'string', format: 'email' },
      n: { type: 'integer', minimum: 1 },
      tags: { type: 'array', items: { anyOf: [{ const: 'x', title: 'X' }, { const: 'y', title: 'Y' }] }, maxItems: 1 },
      color: { type: '_color' },
    },
    required: ['name'],
  })

  it('accepts a valid answer and returns it', () => {
    const v = createAnswerValidator()
    expect(v.validate(schema, { name: 'Ada', email: 'ada@example.org', n: 2, tags: ['y'] })).toEqual({
      ok: true,
      content: { name: 'Ada', email: 'ada@example.org', n: 2, tags: ['y'] },
    })
  })

  it('reports field errors with person-facing messages', () => {
    const v = createAnswerValidator()
    const out = v.validate(schema, { name: 'ada', n: 0, tags: ['x', 'y'] })
    expect(out.ok).toBe(false)
    if (out.ok) return
    expect(Object.keys(out.errors).sort()).toEqual(['n', 'name', 'tags'])
  })

  it('checks a catastrophic pattern like any other (no time limit needed)', () => {
    const v = createAnswerValidator()
    const out = v.validate(schema, { name: 'Ada', code: 'a'.repeat(40) + '!' })
    expect(out.ok).toBe(false)
    if (out.ok) return
    expect(Object.keys(out.errors)).toEqual(['code'])
    expect(v.validate(schema, { name: 'Ada', code: 'a'.repeat(40) })).toMatchObject({ ok: true })
  })

  it('validates a form of 100 catastrophic patterns against long answers', () => {
    const properties: Record<string, unknown> = {}
    const answer: Record<string, string> = {}
    for (let i = 0; i < 100; i++) {
      properties[`f${i}`] = { type: 'string', pattern: '^(a+)+$' }
      answer[`f${i}`] = 'a'.repeat(5000) + '!'
    }
    const v = createAnswerValidator()
    const out = v.validate(parse({ properties }), answer)
    expect(out.ok).toBe(false)
    if (out.ok) return
    expect(Object.keys(out.errors)).toHaveLength(100)
  })

  it('refuses values for unsupported or unknown fields and non-objects', () => {
    const v = createAnswerValidator()
    expect(v.validate(schema, { name: 'Ada', color: '#fff' }).ok).toBe(false)
    expect(v.validate(schema, { name: 'Ada', other: 1 }).ok).toBe(false)
    expect(v.validate(schema, null).ok).toBe(false)
    expect(v.validate(schema, ['Ada']).ok).toBe(false)
  })

  it('builds a JSON Schema with only the subset keywords', () => {
    expect(toJsonSchema(schema)).toEqual({
      type: 'object',
      additionalProperties: false,
      required: ['name'],
      properties: {
        name: { type: 'string', minLength: 1, pattern: '^[A-Z]' },
        code: { type: 'string', pattern: '^(a+)+$' },
        email: { type: 'string', format: 'email' },
        n: { type: 'integer', minimum: 1 },
        tags: { type: 'array', items: { type: 'string', enum: ['x', 'y'] }, uniqueItems: true, maxItems: 1 },
      },
    })
  })

  it('agrees with the form on patterns: a non-u pattern is checked on re2js, one re2js cannot run is not checked', () => {
    const v = createAnswerValidator()
    const s = parse({
      properties: { phone: { type: 'string', pattern: '^\\d{3}\\-\\d{4}$' }, password: { type: 'string', pattern: '^(?=.*\\d).{8,}$', maxLength: 64 } },
      required: ['password'],
    })
    expect(v.validate(s, { phone: '555-1234', password: 'no digits at all' })).toEqual({ ok: true, content: { phone: '555-1234', password: 'no digits at all' } })
    const out = v.validate(s, { phone: '5551234', password: 'x'.repeat(65) })
    expect(out.ok).toBe(false)
    if (!out.ok) expect(Object.keys(out.errors).sort()).toEqual(['password', 'phone'])
    // The unchecked pattern never reaches Ajv (it would run it, or report it unchecked and refuse every answer).
    expect(toJsonSchema(s).properties).toEqual({ phone: { type: 'string', pattern: '^\\d{3}\\-\\d{4}$' }, password: { type: 'string', maxLength: 64 } })
  })

  it('agrees with the form on a mixed enum: only the string choices it shows are valid', () => {
    const v = createAnswerValidator()
    const s = parse({ properties: { size: { type: 'string', enum: ['small', 1, 'large'] }, n: { type: 'integer', default: 'x', title: 5 } } })
    expect(v.validate(s, { size: 'large', n: 2 })).toEqual({ ok: true, content: { size: 'large', n: 2 } })
    expect(v.validate(s, { size: 1 }).ok).toBe(false)
    expect(toJsonSchema(s).properties).toEqual({ size: { type: 'string', enum: ['small', 'large'] }, n: { type: 'integer' } })
  })

  it('never takes a field named like a member of Object.prototype as answered', () => {
    const v = createAnswerValidator()
    // As parsed from the agent's JSON: `__proto__` is an own key of the form and of an answer.
    const s = parse(JSON.parse('{"properties":{"__proto__":{"type":"string"},"constructor":{"type":"string","minLength":2}},"required":["__proto__","constructor"]}'))
    const missing = v.validate(s, {})
    expect(missing.ok).toBe(false)
    if (!missing.ok) expect(Object.keys(missing.errors).sort()).toEqual(['__proto__', 'constructor'])
    const proto = v.validate(s, JSON.parse('{"__proto__":"x","constructor":"made"}'))
    expect(proto.ok).toBe(false)
    const constructor = v.validate(parse({ properties: { constructor: { type: 'string', minLength: 2 } }, required: ['constructor'] }), { constructor: 'made' })
    expect(constructor).toEqual({ ok: true, content: { constructor: 'made' } })
  })

  it('Ajv agrees with the pure checks on formats it owns', () => {
    const v = createAnswerValidator()
    const s = parse({ properties: { when: { type: 'string', format: 'date-time' }, site: { type: 'string', format: 'uri' } } })
    expect(v.validate(s, { when: '2026-01-31T09:30:00Z', site: 'https://example.org/a?b=c' }).ok).toBe(true)
    expect(v.validate(s, { when: '2026-01-31' }).ok).toBe(false)
  })
})
