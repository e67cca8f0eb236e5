/**
 * Records keyed by names an agent chooses (a form's fields, their answers and errors), read and written as own
 * properties only. On a plain object, `record[key]` finds `Object.prototype`'s members (`constructor`, `toString`,
 * `__proto__`) for a key it does not hold, and assigning `record.__proto__` replaces its prototype instead of storing
 * a value.
 */

/** `record[key]` when the record holds that key itself, else undefined. */
export function ownValue<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined
}

/**
 * Stores `value` under `key` as an own, enumerable field, whatever the key (`__proto__` too). A key `Object.prototype`
 * does not know is assigned (what the history thread does for every key of every entry it encodes: a fraction of the
 * cost of defining it); one it knows (`__proto__`, `constructor`, `toString`…) is defined, so it is neither a
 * prototype change nor an assignment to a frozen prototype's member.
 */
export function setOwn<T>(record: Record<string, T>, key: string, value: NoInfer<T>): void {
  if (key in Object.prototype) Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true })
  else record[key] = value
}

/**
 * How many own enumerable string keys `value` has, counting no further than `atMost + 1`: what `Object.keys(value).length`
 * tells a check of an object's shape, without the array of its keys made (hot paths ask it of every update).
 */
export function ownKeyCount(value: object, atMost: number): number {
  let count = 0
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue
    if (++count > atMost) break
  }
  return count
}
