import { describe, expect, it } from 'vitest'
import {
  draftToContent,
  initialDraft,
  linearPatternTester,
  parseRequestedSchema,
  unanswerableFields,
  validateContent,
  type FieldSpec,
  type FormSchema,
} from '../../../common/elicitation/schema'

function parseOk(raw: unknown, protocolVersion: 1 | 2 = 2): FormSchema {
  const parsed = parseRequestedSchema(raw, { protocolVersion })
  if (!parsed.ok) throw new Error(`expected ok, got refusal: ${parsed.message}`)
  return parsed.schema
}
function refusal(raw: unknown, protocolVersion: 1 | 2 = 2): string {
  const parsed = parseRequestedSchema(raw, { protocolVersion })
  if (parsed.ok) throw new Error('expected a refusal')
  return parsed.message
}
const field = (schema: FormSchema, key: string): FieldSpec => {
  const f = schema.fields.find((x) => x.key === key)
  if (!f) throw new Error(`no field ${key}`)
  return f
}
const never = () => {
  throw new Error('pattern tester must not be called')
}

describe('parseRequestedSchema: the subset', () => {
  it('parses a string field with every constraint', () => {
    const s = parseOk({
      type: 'object',
      title: 'Your details',
      description: 'Tell us',
      properties: {
        name: { type: 'string', title: 'Name', description: 'Full name', minLength: 2, maxLength: 20, pattern: '^[A-Z]', default: 'Ada' },
      },
      required: ['name'],
    })
    expect(s.title).toBe('Your details')
    expect(s.description).toBe('Tell us')
    expect(field(s, 'name')).toEqual({
      key: 'name', title: 'Name', description: 'Full name', required: true, kind: 'text', minLength: 2, maxLength: 20, pattern: '^[A-Z]', default: 'Ada',
    })
  })

  it('keeps the four known formats and treats unknown formats as plain text (K8)', () => {
    const s = parseOk({
      properties: {
        e: { type: 'string', format: 'email' },
        u: { type: 'string', format: 'uri' },
        d: { type: 'string', format: 'date' },
        t: { type: 'string', format: 'date-time' },
        c: { type: 'string', format: 'color-hex' },
      },
    })
    expect(field(s, 'e')).toMatchObject({ kind: 'text', format: 'email' })
    expect(field(s, 'u')).toMatchObject({ kind: 'text', format: 'uri' })
    expect(field(s, 'd')).toMatchObject({ kind: 'text', format: 'date' })
    expect(field(s, 't')).toMatchObject({ kind: 'text', format: 'date-time' })
    const c = field(s, 'c')
    expect(c).toMatchObject({ kind: 'text', formatHint: 'color-hex' })
    expect('format' in c).toBe(false)
  })

  it('parses number and integer bounds and defaults', () => {
    const s = parseOk({ properties: { n: { type: 'number', minimum: 0.5, maximum: 9.5, default: 1.5 }, i: { type: 'integer', minimum: -3, maximum: 3, default: 2 } } })
    expect(field(s, 'n')).toMatchObject({ kind: 'number', integer: false, minimum: 0.5, maximum: 9.5, default: 1.5 })
    expect(field(s, 'i')).toMatchObject({ kind: 'number', integer: true, minimum: -3, maximum: 3, default: 2 })
  })

  it('drops a non-integer default of an integer field', () => {
    const s = parseOk({ properties: { i: { type: 'integer', default: 2.5 } } })
    expect(field(s, 'i')).not.toHaveProperty('default')
  })

  it('parses booleans with defaults', () => {
    expect(field(parseOk({ properties: { b: { type: 'boolean', default: true } } }), 'b')).toMatchObject({ kind: 'boolean', default: true })
  })

  it('parses untitled (enum) and titled (oneOf) single-select', () => {
    const s = parseOk({
      properties: {
        plain: { type: 'string', enum: ['a', 'b'], default: 'b' },
        titled: { type: 'string', oneOf: [{ const: 'x', title: 'Ex', description: 'the x' }, { const: 'y', title: 'Why' }] },
      },
    })
    expect(field(s, 'plain')).toMatchObject({ kind: 'select', options: [{ value: 'a', title: 'a' }, { value: 'b', title: 'b' }], default: 'b' })
    expect(field(s, 'titled')).toMatchObject({ kind: 'select', options: [{ value: 'x', title: 'Ex', description: 'the x' }, { value: 'y', title: 'Why' }] })
  })

  it('ignores a select default that is not one of the options', () => {
    expect(field(parseOk({ properties: { p: { type: 'string', enum: ['a'], default: 'zz' } } }), 'p')).not.toHaveProperty('default')
  })

  it('parses both multi-select shapes with item counts and defaults', () => {
    const s = parseOk({
      properties: {
        m1: { type: 'array', items: { type: 'string', enum: ['r', 'g', 'b'] }, minItems: 1, maxItems: 2, default: ['g', 'nope'] },
        m2: { type: 'array', items: { anyOf: [{ const: 'x', title: 'Ex' }] } },
      },
    })
    expect(field(s, 'm1')).toMatchObject({ kind: 'multi-select', minItems: 1, maxItems: 2, default: ['g'] })
    expect(field(s, 'm2')).toMatchObject({ kind: 'multi-select', options: [{ value: 'x', title: 'Ex' }] })
  })

  it('tolerates omitted/null type and properties', () => {
    expect(parseOk({}).fields).toEqual([])
    expect(parseOk({ type: null, properties: null, required: null }).fields).toEqual([])
  })

  it('uses the property name when there is no title', () => {
    expect(field(parseOk({ properties: { city: { type: 'string' } } }), 'city').title).toBe('city')
  })

  it('refuses a non-object top-level type in v2 but tolerates it in v1', () => {
    expect(refusal({ type: 'array', properties: {} }, 2)).toMatch(/object/)
    expect(parseOk({ type: 'array', properties: {} }, 1).fields).toEqual([])
  })
})

describe('parseRequestedSchema: refusals and unknown types (G15)', () => {
  it('keeps an optional nested object or list of objects as unsupported; the rest of the form works and the answer leaves them out', () => {
    const s = parseOk({
      properties: {
        address: { type: 'object', title: 'Address', properties: { street: { type: 'string' } } },
        people: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } },
        rows: { type: 'array', items: { properties: { x: { type: 'number' } } } },
        grid: { type: 'array', items: { type: 'array', items: { type: 'string' } } },
        loose: { type: 'array' },
        name: { type: 'string' },
      },
      required: ['name'],
    })
    expect(s.fields.map((f) => [f.key, f.kind, f.kind === 'unsupported' ? f.type : null])).toEqual([
      ['address', 'unsupported', 'object'],
      ['people', 'unsupported', 'array of object'],
      ['rows', 'unsupported', 'array of object'],
      ['grid', 'unsupported', 'array of array'],
      ['loose', 'unsupported', 'array'],
      ['name', 'text', null],
    ])
    expect(field(s, 'address').title).toBe('Address')
    expect(unanswerableFields(s)).toEqual([])
    const content = draftToContent(s, initialDraft(s))
    expect(content).toEqual({ name: '' })
    expect(validateContent(s, { name: 'Ada' }, never)).toEqual({ errors: {}, unchecked: [] })
    // A value for one of them is not what the form asked for.
    expect(validateContent(s, { name: 'Ada', address: { street: 'x' } }, never).errors).toHaveProperty('')
  })
  it('keeps a required nested object or list of objects as unanswerable: shown, declinable, never accepted', () => {
    const s = parseOk({
      properties: { address: { type: 'object', properties: {} }, people: { type: 'array', items: { type: 'object' } }, name: { type: 'string' } },
      required: ['address', 'people'],
    })
    expect(unanswerableFields(s).map((f) => f.key)).toEqual(['address', 'people'])
    expect(Object.keys(validateContent(s, { name: 'Ada' }, never).errors)).toEqual(['address', 'people'])
  })
  it('keeps a required field of an unknown type, as unsupported and unanswerable (shown, declinable, never accepted)', () => {
    const s = parseOk({ properties: { c: { type: '_color' }, n: { type: 'string' } }, required: ['c'] })
    expect(field(s, 'c')).toMatchObject({ kind: 'unsupported', type: '_color', required: true })
    expect(unanswerableFields(s).map((f) => f.key)).toEqual(['c'])
    expect(validateContent(s, { n: 'x' }, () => true).errors).toEqual({ c: expect.stringMatching(/cannot show this kind of field \(_color\)/) })
    expect(unanswerableFields(parseOk({ properties: { c: { type: '_color' } } }))).toEqual([])
  })
  it('keeps an optional unknown-type field as unsupported (never a known control)', () => {
    const s = parseOk({ properties: { c: { type: '_color' }, n: { type: 'string' } } })
    expect(field(s, 'c')).toMatchObject({ kind: 'unsupported', type: '_color', required: false })
  })
  it('keeps an optional multi-select of unknown item type as unsupported', () => {
    expect(field(parseOk({ properties: { m: { type: 'array', items: { type: '_thing' } } } }), 'm')).toMatchObject({ kind: 'unsupported' })
  })
  it('keeps a required field with no type as unanswerable', () => {
    expect(field(parseOk({ properties: { x: {} }, required: ['x'] }), 'x')).toMatchObject({ kind: 'unsupported', type: 'no type', required: true })
  })
  it('refuses constraints of the wrong type (which answers are valid is unknown)', () => {
    expect(refusal({ properties: { s: { type: 'string', minLength: '3' } } })).toMatch(/minLength/)
    expect(refusal({ properties: { n: { type: 'number', maximum: 'big' } } })).toMatch(/maximum/)
    expect(refusal({ properties: { m: { type: 'array', items: { type: 'string', enum: ['a'] }, maxItems: -1 } } })).toMatch(/maxItems/)
    expect(refusal({ properties: { s: { type: 'string', pattern: 5 } } })).toMatch(/pattern/)
  })
  it('drops malformed annotations (title, description, default, format) instead of refusing the form', () => {
    const s = parseOk({
      properties: {
        t: { type: 'string', title: 5, description: { text: 'x' }, default: 7, format: ['email'] },
        n: { type: 'number', title: null, default: '5' },
        i: { type: 'integer', default: true },
        b: { type: 'boolean', title: ['Yes?'], default: 'yes' },
        sel: { type: 'string', enum: ['a', 'b'], default: 1 },
        m: { type: 'array', items: { type: 'string', enum: ['x', 'y'] }, default: 'x' },
      },
    })
    expect(s.fields).toEqual([
      { key: 't', title: 't', required: false, kind: 'text' },
      { key: 'n', title: 'n', required: false, kind: 'number', integer: false },
      { key: 'i', title: 'i', required: false, kind: 'number', integer: true },
      { key: 'b', title: 'b', required: false, kind: 'boolean' },
      { key: 'sel', title: 'sel', required: false, kind: 'select', options: [{ value: 'a', title: 'a' }, { value: 'b', title: 'b' }] },
      { key: 'm', title: 'm', required: false, kind: 'multi-select', options: [{ value: 'x', title: 'x' }, { value: 'y', title: 'y' }] },
    ])
    // Nothing pre-filled from a dropped default; the answer is checked against the constraints as before.
    expect(initialDraft(s)).toEqual({ t: '', n: '', i: '', b: false, sel: '', m: [] })
    expect(validateContent(s, { n: '5' }, never).errors).toEqual({ n: 'Must be a number.' })
  })
  it('keeps the string choices of a mixed enum (and the usable oneOf/anyOf items), counting the others', () => {
    const s = parseOk({
      properties: {
        e: { type: 'string', enum: ['a', 1, null, 'b'], default: 'b' },
        o: { type: 'string', oneOf: [{ const: 'x', title: 'X' }, { const: 2, title: 'Two' }, 'y'] },
        m: { type: 'array', items: { type: 'string', enum: [true, 'p', 'q'] }, default: ['q', true] },
        ok: { type: 'string', enum: ['only'] },
      },
    })
    expect(field(s, 'e')).toEqual({ key: 'e', title: 'e', required: false, kind: 'select', options: [{ value: 'a', title: 'a' }, { value: 'b', title: 'b' }], omittedChoices: 2, default: 'b' })
    expect(field(s, 'o')).toMatchObject({ kind: 'select', options: [{ value: 'x', title: 'X' }], omittedChoices: 2 })
    expect(field(s, 'm')).toMatchObject({ kind: 'multi-select', options: [{ value: 'p' }, { value: 'q' }], omittedChoices: 1, default: ['q'] })
    expect(field(s, 'ok')).not.toHaveProperty('omittedChoices')
    // Only what the form shows is a valid answer.
    expect(validateContent(s, { e: 'a', o: 'x', m: ['p'] }, never).errors).toEqual({})
    expect(Object.keys(validateContent(s, { e: 1, o: 2, m: [true] } as Record<string, unknown>, never).errors).sort()).toEqual(['e', 'm', 'o'])
  })
  it('refuses impossible ranges', () => {
    expect(refusal({ properties: { s: { type: 'string', minLength: 5, maxLength: 2 } } })).toMatch(/minLength/)
    expect(refusal({ properties: { n: { type: 'integer', minimum: 5, maximum: 2 } } })).toMatch(/minimum/)
    expect(refusal({ properties: { m: { type: 'array', items: { type: 'string', enum: ['a'] }, minItems: 3, maxItems: 1 } } })).toMatch(/minItems/)
  })
  it('refuses an invalid pattern', () => {
    expect(refusal({ properties: { s: { type: 'string', pattern: '([' } } })).toMatch(/pattern/)
  })
  it('refuses empty, duplicate and malformed choices', () => {
    expect(refusal({ properties: { s: { type: 'string', enum: [] } } })).toMatch(/non-empty/)
    expect(refusal({ properties: { s: { type: 'string', enum: ['a', 'a'] } } })).toMatch(/twice/)
    // Nothing usable left: refused.
    expect(refusal({ properties: { s: { type: 'string', oneOf: [{ title: 'no const' }] } } })).toMatch(/const/)
    expect(refusal({ properties: { s: { type: 'string', enum: [1, 2] } } })).toMatch(/string/)
    expect(refusal({ properties: { m: { type: 'array', items: { anyOf: [{ const: 1 }] } } } })).toMatch(/const/)
  })
  it('refuses required names that are not described, and malformed containers', () => {
    expect(refusal({ properties: {}, required: ['ghost'] })).toMatch(/ghost/)
    expect(refusal({ properties: [] })).toMatch(/properties/)
    expect(refusal({ properties: {}, required: 'a' })).toMatch(/required/)
    expect(refusal('a string')).toMatch(/not an object/)
    expect(refusal(null)).toMatch(/not an object/)
  })
  it('refuses more than 100 fields', () => {
    const properties = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`f${i}`, { type: 'string' }]))
    expect(refusal({ properties })).toMatch(/100/)
  })
})

describe('validateContent', () => {
  const schema = parseOk({
    properties: {
      name: { type: 'string', minLength: 2, maxLength: 5 },
      email: { type: 'string', format: 'email' },
      site: { type: 'string', format: 'uri' },
      day: { type: 'string', format: 'date' },
      at: { type: 'string', format: 'date-time' },
      hex: { type: 'string', format: 'color' },
      age: { type: 'integer', minimum: 0, maximum: 150 },
      ratio: { type: 'number', minimum: 0, maximum: 1 },
      ok: { type: 'boolean' },
      pick: { type: 'string', enum: ['a', 'b'] },
      many: { type: 'array', items: { type: 'string', enum: ['x', 'y', 'z'] }, minItems: 1, maxItems: 2 },
      _c: { type: '_color' },
    },
    required: ['name'],
  })
  const check = (content: Record<string, unknown>) => validateContent(schema, content, never).errors

  it('accepts a valid answer', () => {
    expect(
      check({ name: 'Ada', email: 'a@b.co', site: 'https://x.org/p', day: '2024-02-29', at: '2026-01-31T09:30:00Z', hex: 'not validated', age: 36, ratio: 0.5, ok: true, pick: 'b', many: ['x', 'z'] }),
    ).toEqual({})
  })
  it('requires required fields', () => {
    expect(check({})).toEqual({ name: 'Required.' })
    expect(check({ name: '' })).toHaveProperty('name')
  })
  it('checks lengths in code points', () => {
    expect(check({ name: 'A' })).toHaveProperty('name')
    expect(check({ name: 'Abcdef' })).toHaveProperty('name')
    expect(check({ name: '😀😀' })).toEqual({})
  })
  it('checks the known formats', () => {
    expect(check({ name: 'Ada', email: 'nope' })).toHaveProperty('email')
    expect(check({ name: 'Ada', site: 'not a uri' })).toHaveProperty('site')
    expect(check({ name: 'Ada', day: '2023-02-29' })).toHaveProperty('day')
    expect(check({ name: 'Ada', day: '2023-13-01' })).toHaveProperty('day')
    expect(check({ name: 'Ada', at: '2026-01-31 9:30' })).toHaveProperty('at')
    expect(check({ name: 'Ada', at: '2026-01-31T09:30:00+02:00' })).toEqual({})
  })
  it('checks numbers: type, integer, bounds', () => {
    expect(check({ name: 'Ada', age: 1.5 })).toHaveProperty('age')
    expect(check({ name: 'Ada', age: -1 })).toHaveProperty('age')
    expect(check({ name: 'Ada', age: 151 })).toHaveProperty('age')
    expect(check({ name: 'Ada', age: '3' })).toHaveProperty('age')
    expect(check({ name: 'Ada', ratio: 1.01 })).toHaveProperty('ratio')
    expect(check({ name: 'Ada', ratio: 1 })).toEqual({})
  })
  it('checks booleans, enum membership and item counts', () => {
    expect(check({ name: 'Ada', ok: 'true' })).toHaveProperty('ok')
    expect(check({ name: 'Ada', pick: 'c' })).toHaveProperty('pick')
    expect(check({ name: 'Ada', many: [] })).toHaveProperty('many')
    expect(check({ name: 'Ada', many: ['x', 'y', 'z'] })).toHaveProperty('many')
    expect(check({ name: 'Ada', many: ['x', 'q'] })).toHaveProperty('many')
    expect(check({ name: 'Ada', many: ['x', 'x'] })).toHaveProperty('many')
  })
  it('rejects fields the form did not ask for, including unsupported ones', () => {
    expect(check({ name: 'Ada', extra: 1 })).toHaveProperty('')
    expect(check({ name: 'Ada', _c: '#fff' })).toHaveProperty('')
  })
  it('reports patterns the tester could not check as unchecked', () => {
    const s = parseOk({ properties: { code: { type: 'string', pattern: '^(a+)+$' } } })
    const out = validateContent(s, { code: 'aaa' }, () => 'unknown')
    expect(out.errors).toEqual({})
    expect(out.unchecked).toEqual(['code'])
    expect(validateContent(s, { code: 'b' }, () => false).errors).toHaveProperty('code')
  })
})

describe('drafts', () => {
  const schema = parseOk({
    properties: {
      t: { type: 'string', default: 'hi' },
      o: { type: 'string' },
      n: { type: 'number', default: 3 },
      e: { type: 'integer' },
      b: { type: 'boolean' },
      s: { type: 'string', enum: ['a'] },
      m: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, default: ['b'] },
      u: { type: '_x' },
    },
  })
  it('pre-fills defaults', () => {
    expect(initialDraft(schema)).toEqual({ t: 'hi', o: '', n: '3', e: '', b: false, s: '', m: ['b'] })
  })
  it('turns a draft into content, omitting empty optional fields and unsupported ones', () => {
    expect(draftToContent(schema, { ...initialDraft(schema), e: '7', u: 'x' } as never)).toEqual({ t: 'hi', n: 3, e: 7, b: false, m: ['b'] })
    expect(draftToContent(schema, { ...initialDraft(schema), n: 'abc' })).toMatchObject({ n: 'abc' })
  })
})

describe('linearPatternTester (re2js)', () => {
  // Each of these backtracks for minutes in a backtracking engine; here they answer at once, correctly.
  it.each([
    ['^(a+)+$', 'a'.repeat(5000) + '!', false],
    ['(a*)*b', 'a'.repeat(5000), false],
    ['(a|a)*c', 'a'.repeat(5000), false],
    ['(\\w+\\s?)*$', 'word '.repeat(2000) + '!', true],
    ['(x+x+)+y', 'x'.repeat(5000), false],
    ['^(a|b|ab)*c$', 'ab'.repeat(3000), false],
    ['(.*a){20}', 'a'.repeat(19) + 'b'.repeat(5000), false],
    ['\\d*\\d*\\d*\\d*x', '1'.repeat(5000), false],
  ])('runs %s in linear time', (pattern, value, expected) => {
    expect(linearPatternTester(pattern, value)).toBe(expected)
  })
  it('has JSON Schema semantics: a match anywhere, unicode classes', () => {
    expect(linearPatternTester('^[a-z]+$', 'abc')).toBe(true)
    expect(linearPatternTester('^[a-z]+$', 'ABC')).toBe(false)
    expect(linearPatternTester('b', 'abc')).toBe(true)
    expect(linearPatternTester('^\\p{Lu}', 'Émile')).toBe(true)
    expect(linearPatternTester('^\\d{3}-\\d{4}$', '555-1234')).toBe(true)
  })
})

describe('parseRequestedSchema: patterns', () => {
  it('accepts a pattern valid only without the u flag, and checks it on re2js', () => {
    // `\-` outside a class is an error under `u` and valid ECMA-262 without it (JSON Schema names no flag).
    const s = parseOk({ properties: { phone: { type: 'string', pattern: '^\\d{3}\\-\\d{4}$' } } })
    expect(field(s, 'phone')).toMatchObject({ kind: 'text', pattern: '^\\d{3}\\-\\d{4}$' })
    expect(field(s, 'phone')).not.toHaveProperty('uncheckedPattern')
    expect(validateContent(s, { phone: '555-1234' }, linearPatternTester)).toEqual({ errors: {}, unchecked: [] })
    expect(validateContent(s, { phone: '5551234' }, linearPatternTester).errors).toEqual({ phone: 'Does not have the expected form.' })
    for (const pattern of ['^a\\:b$', '[a-z]{,3}', ']']) expect(field(parseOk({ properties: { t: { type: 'string', pattern } } }), 't')).toHaveProperty('pattern', pattern)
  })
  it('keeps a field whose pattern re2js cannot run (lookaround, backreferences), the pattern shown and never run', () => {
    for (const pattern of ['^(?=.*\\d).{8,}$', '(a)\\1', '(?<!x)y', '^(?!admin$)']) {
      const s = parseOk({ properties: { t: { type: 'string', pattern, minLength: 2 }, n: { type: 'integer' } }, required: ['t'] })
      expect(field(s, 't')).toEqual({ key: 't', title: 't', required: true, kind: 'text', minLength: 2, uncheckedPattern: pattern })
      // Never handed to a pattern tester; the other checks still apply, and nothing is left "unchecked" for main to refuse.
      expect(validateContent(s, { t: 'no digits', n: 1 }, never)).toEqual({ errors: {}, unchecked: [] })
      expect(validateContent(s, { t: 'x', n: 1 }, never).errors).toEqual({ t: 'At least 2 characters.' })
    }
  })
  it('still refuses a pattern that is no regular expression with or without u, or too long', () => {
    for (const pattern of ['([', 'a{2,1}', '(?i)abc', '\\']) {
      expect(refusal({ properties: { t: { type: 'string', pattern } } })).toMatch(/not a valid regular expression/)
    }
    expect(refusal({ properties: { t: { type: 'string', pattern: 'a'.repeat(1001) } } })).toMatch(/too long/)
  })
})

describe('fields named like members of Object.prototype (a hostile form)', () => {
  // As parsed from the wire: `__proto__` is an own key of the parsed JSON.
  const raw = JSON.parse(
    '{"properties":{"__proto__":{"type":"string"},"constructor":{"type":"string"},"toString":{"type":"boolean"},"hasOwnProperty":{"type":"number","default":2}},"required":["constructor","toString"]}',
  ) as unknown

  it('keeps each answer under its own name, and misses none that is required', () => {
    const s = parseOk(raw)
    expect(s.fields.map((f) => f.key)).toEqual(['__proto__', 'constructor', 'toString', 'hasOwnProperty'])
    const draft = initialDraft(s)
    expect(Object.keys(draft)).toEqual(['constructor', 'toString', 'hasOwnProperty'])
    expect(draft).toEqual({ constructor: '', toString: false, hasOwnProperty: '2' })
    const content = draftToContent(s, { ...draft, constructor: 'made', toString: true })
    expect(content).toEqual({ constructor: 'made', toString: true, hasOwnProperty: 2 })
    expect(validateContent(s, content, never)).toEqual({ errors: {}, unchecked: [] })
    // Nothing answered: the required ones are named, not found on Object.prototype.
    const { errors } = validateContent(s, {}, never)
    expect(Object.keys(errors).sort()).toEqual(['constructor', 'toString'])
  })

  it('takes a field named "__proto__" as one Bosun cannot show: required, the form cannot be accepted', () => {
    const optional = parseOk(raw)
    expect(field(optional, '__proto__')).toMatchObject({ kind: 'unsupported', type: 'a field named "__proto__"' })
    expect(unanswerableFields(optional)).toEqual([])
    const required = parseOk(JSON.parse('{"properties":{"__proto__":{"type":"string"},"a":{"type":"string"}},"required":["__proto__"]}'))
    expect(unanswerableFields(required).map((f) => f.key)).toEqual(['__proto__'])
    const { errors } = validateContent(required, { a: 'x' }, never)
    expect(Object.hasOwn(errors, '__proto__')).toBe(true)
    expect(Object.getPrototypeOf(errors)).toBe(Object.prototype)
    // An answer that carries it anyway is refused, as any field the form cannot show.
    expect(Object.keys(validateContent(required, JSON.parse('{"__proto__":"x","a":"x"}') as Record<string, unknown>, never).errors)).toContain('')
  })
})
