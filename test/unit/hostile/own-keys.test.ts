import { describe, expect, it } from 'vitest'
import { ownKeyCount, ownValue, setOwn } from '../../../common/own-keys'

describe('setOwn', () => {
  it('stores every key as an own, enumerable, writable field, whatever the key', () => {
    const record: Record<string, unknown> = {}
    for (const key of ['plain', '__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__']) setOwn(record, key, key.length)
    expect(Object.getPrototypeOf(record)).toBe(Object.prototype)
    expect(Object.keys(record)).toEqual(['plain', '__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__'])
    for (const key of Object.keys(record)) {
      expect(Object.getOwnPropertyDescriptor(record, key)).toEqual({ value: key.length, enumerable: true, writable: true, configurable: true })
      expect(ownValue(record, key)).toBe(key.length)
    }
    expect(JSON.stringify(record)).toContain('"__proto__":9')
    // The prototype itself was never written.
    expect(Object.prototype.toString).toBe(Object.getPrototypeOf({}).toString)
    expect(({} as Record<string, unknown>).plain).toBeUndefined()
  })

  it("replaces a key's value when set again", () => {
    const record: Record<string, unknown> = {}
    setOwn(record, '__proto__', 1)
    setOwn(record, '__proto__', 2)
    setOwn(record, 'a', 1)
    setOwn(record, 'a', 2)
    expect(record).toEqual(JSON.parse('{"__proto__":2,"a":2}'))
  })
})

describe('ownKeyCount', () => {
  it('counts own enumerable keys as Object.keys does, and no further than one past the most asked about', () => {
    const parsed = JSON.parse('{"__proto__": 1, "a": 2, "0": 3}') as object
    expect(ownKeyCount(parsed, 10)).toBe(Object.keys(parsed).length)
    expect(ownKeyCount(parsed, 1)).toBe(2)
    const inherits = Object.assign(Object.create({ inherited: true }) as object, { own: 1 })
    Object.defineProperty(inherits, 'hidden', { value: 1, enumerable: false })
    expect(ownKeyCount(inherits, 10)).toBe(1)
    expect(ownKeyCount({}, 0)).toBe(0)
  })
})
