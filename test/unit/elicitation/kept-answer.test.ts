/** What an accepted form keeps of its answer, to show after a reload: no secret-like field, bounded text. */
import { describe, expect, it } from 'vitest'
import { KEPT_TEXT, KEPT_TOTAL, keptAnswer, looksSecret, sentDraft } from '../../../common/elicitation/answer'
import { parseRequestedSchema, type FormSchema } from '../../../common/elicitation/schema'

const schemaOf = (properties: Record<string, unknown>): FormSchema => {
  const parsed = parseRequestedSchema({ type: 'object', properties })
  if (!parsed.ok) throw new Error(parsed.message)
  return parsed.schema
}

const schema = schemaOf({
  name: { type: 'string', title: 'Project name', default: 'demo' },
  token: { type: 'string', title: 'Access' },
  pin: { type: 'string', title: 'Your API key' },
  workers: { type: 'integer', title: 'Workers', default: 2 },
  tests: { type: 'boolean', title: 'Run the tests', default: true },
  db: { type: 'string', title: 'Database', enum: ['postgres', 'sqlite'] },
  langs: { type: 'array', title: 'Languages', items: { type: 'string', enum: ['ts', 'go'] } },
  notes: { type: 'string', title: 'Notes' },
})

describe('keptAnswer', () => {
  it('keeps the values sent and withholds, by name only, every field that looks like a secret', () => {
    const kept = keptAnswer(schema, { name: 'acme', token: 'tok-123', pin: 'sk-live-999', workers: 5, tests: false, db: 'sqlite', langs: ['go'] })
    expect(kept).toEqual({ content: { name: 'acme', workers: 5, tests: false, db: 'sqlite', langs: ['go'] }, withheld: ['token', 'pin'] })
    expect(JSON.stringify(kept)).not.toMatch(/tok-123|sk-live-999/)
  })

  it('keeps only the schema\'s fields, and bounded text', () => {
    const long = 'x'.repeat(KEPT_TEXT * 3)
    const kept = keptAnswer(schema, { name: long, stray: 'kept nowhere' } as never)
    expect(kept.content).toEqual({ name: 'x'.repeat(KEPT_TEXT) })
    const many = schemaOf(Object.fromEntries(Array.from({ length: 100 }, (_, n) => [`f${n}`, { type: 'string' }])))
    const all = keptAnswer(many, Object.fromEntries(Array.from({ length: 100 }, (_, n) => [`f${n}`, long])))
    expect(Object.values(all.content).join('').length).toBe(KEPT_TOTAL)
  })

  it('the G21 rule: names and titles that say password, token, secret, key', () => {
    expect(looksSecret({ key: 'password', title: 'password' })).toBe(true)
    expect(looksSecret({ key: 'x', title: 'GitHub token' })).toBe(true)
    expect(looksSecret({ key: 'name', title: 'Project name' })).toBe(false)
  })
})

describe('sentDraft', () => {
  it('shows what was sent, not the defaults: a field left out of the answer (or withheld) is empty', () => {
    const draft = sentDraft(schema, { content: { workers: 5, tests: false, langs: ['go'] }, withheld: ['token'] })
    expect(draft).toEqual({ name: '', token: '', pin: '', workers: '5', tests: false, db: '', langs: ['go'], notes: '' })
  })
})
