/**
 * An object that stands for what `get` returns at the time it is used (its methods are called on that), so a
 * value a `beforeAll` makes can be named at a test file's top level.
 */
export function lateBound<T extends object>(get: () => T): T {
  return new Proxy({} as T, {
    get(_, key) {
      const target = get()
      const value: unknown = Reflect.get(target, key, target)
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value
    },
  })
}
