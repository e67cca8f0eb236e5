import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { boundJson, isWithinBounds, TRUNCATION_MARKER } from '../../../common/bounded'
import { encodedForms, REDACTED, SecretSet } from '../../../main/agents-tools/redaction'
import { AgentLogFile } from '../../../main/agents/agent-log-file'

describe('boundJson', () => {
  it('returns the input itself when it is within bounds', () => {
    const value = { a: [1, 'two', { three: true }], b: null }
    expect(boundJson(value)).toBe(value)
    expect(isWithinBounds(value)).toBe(true)
  })

  it('cuts depth, long strings, wide containers and the total size, with a visible marker', () => {
    let deep: unknown = 'bottom'
    for (let i = 0; i < 100_000; i++) deep = { d: deep }
    const cut = boundJson({ deep, long: 'x'.repeat(100), wide: Array.from({ length: 50 }, (_, i) => i) }, { maxDepth: 5, maxStringChars: 10, maxEntries: 20 })
    const text = JSON.stringify(cut)
    expect(text).toContain(`${TRUNCATION_MARKER} (nested deeper than 5 levels)`)
    expect(cut.long).toBe(`${'x'.repeat(10)}${TRUNCATION_MARKER} (90 more characters)`)
    expect(cut.wide).toHaveLength(21)
    expect(cut.wide.at(-1)).toBe(`${TRUNCATION_MARKER} (30 more items)`)
    const big = boundJson(Array.from({ length: 100 }, () => 'y'.repeat(100)), { maxTotalChars: 1000 })
    expect(JSON.stringify(big).length).toBeLessThan(2000)
  })

  it('cuts a field met after others fit as if it were the first looked at: what fit is kept, the budget counted once', () => {
    const value = { a: 'x'.repeat(40), b: 'y'.repeat(40), c: 'z'.repeat(40), d: { e: 1 } }
    const cut = boundJson(value, { maxTotalChars: 100 })
    expect(cut).not.toBe(value)
    // 100 - (1 + 40) - (1 + 40) - 1: 17 characters of `c` are left, and `d` comes after the budget is spent.
    expect(cut).toEqual({ a: value.a, b: value.b, c: `${'z'.repeat(17)}${TRUNCATION_MARKER} (23 more characters)`, [TRUNCATION_MARKER]: '(1 more fields)' })
    expect(value.c).toBe('z'.repeat(40))
  })

  it('looks only at own fields: an inherited enumerable one neither counts nor is copied', () => {
    const value = Object.assign(Object.create({ inherited: 'i'.repeat(50) }) as Record<string, unknown>, { own: 'o' })
    expect(boundJson(value, { maxTotalChars: 10, maxEntries: 1 })).toBe(value)
    const wide = Object.assign(Object.create({ inherited: 1 }) as Record<string, unknown>, { a: 1, b: 2 })
    expect(boundJson(wide, { maxEntries: 1 })).toEqual({ a: 1, [TRUNCATION_MARKER]: '(1 more fields)' })
  })

  it('cuts a value nested thousands of levels at the default bounds, each level looked at a bounded number of times', () => {
    // Checking each object whole before walking it, and again at every level below when it did not fit, doubled the
    // work per level: a 6,000-level permission request's rawInput never finished (main's thread lost for good).
    let deep: unknown = 'bottom'
    for (let i = 0; i < 6_000; i++) deep = { d: deep, list: [{ d: i }] }
    let cut = boundJson(deep) as Record<string, unknown>
    let levels = 0
    while (typeof cut.d === 'object' && cut.d !== null) {
      if (levels < 46) expect(cut.list).toEqual([{ d: 5_999 - levels }])
      cut = cut.d as Record<string, unknown>
      levels++
    }
    expect(levels).toBe(47)
    expect(cut.d).toMatch(/nested deeper than 48 levels/)
  })

  it('keeps a `__proto__` key as an own field and never touches the prototype', () => {
    const parsed = JSON.parse('{"__proto__": {"polluted": true}, "s": "' + 'z'.repeat(20) + '"}') as Record<string, unknown>
    const cut = boundJson(parsed, { maxStringChars: 5 })
    expect(Object.getPrototypeOf(cut)).toBe(Object.prototype)
    expect(Object.hasOwn(cut, '__proto__')).toBe(true)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })
})

describe('SecretSet against an agent that hides its key', () => {
  const secret = 'sk-live-1234567890abcdef'
  const secrets = new SecretSet()
  secrets.set('agent', [secret])

  it('finds base64 (any alignment, URL-safe too), hex and URL-encoded forms', () => {
    for (const prefix of ['', 'k', 'ke', 'key=']) {
      for (const encoding of ['base64', 'base64url'] as const) {
        const text = `look: ${Buffer.from(prefix + secret + ' tail').toString(encoding)}`
        expect(secrets.redactText(text)).toContain(REDACTED)
      }
    }
    expect(secrets.redactText(Buffer.from(secret).toString('hex'))).toBe(REDACTED)
    expect(secrets.redactText(Buffer.from(secret).toString('hex').toUpperCase())).toBe(REDACTED)
    const spaced = new SecretSet()
    spaced.set('a', ['my key/with spaces+'])
    expect(spaced.redactText(`q=${encodeURIComponent('my key/with spaces+')}`)).toBe(`q=${REDACTED}`)
    expect(encodedForms(secret).length).toBeGreaterThan(4)
  })

  it('redacts at any depth and in keys, including `__proto__` and `constructor`', () => {
    let deep: unknown = { leaf: secret }
    for (let i = 0; i < 5000; i++) deep = { d: deep }
    expect(JSON.stringify(secrets.redactDeep({ deep }))).not.toContain(secret)
    const parsed = JSON.parse(`{"__proto__": "${secret}", "constructor": "${secret}", "${secret}": 1}`) as Record<string, unknown>
    const out = secrets.redactDeep(parsed)
    expect(JSON.stringify(out)).not.toContain(secret)
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype)
  })
})

describe('AgentLogFile', () => {
  it('redacts a secret the agent wrote in two pieces (one line, two chunks)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bosun-log-'))
    try {
      const secrets = new SecretSet()
      secrets.set('a', ['split-secret-value'])
      const log = new AgentLogFile(join(dir, 'a.log'), { redact: (t) => secrets.redactText(t) })
      log.append('stderr says split-sec')
      log.append('ret-value done\nnext line split-')
      log.appendLine('[bosun] exited')
      await log.flush()
      const text = readFileSync(join(dir, 'a.log'), 'utf8')
      expect(text).toContain(`stderr says ${REDACTED} done\n`)
      expect(text).not.toContain('split-secret-value')
      expect(text).toContain('next line split-\n')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
