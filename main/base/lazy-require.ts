/**
 * Node modules main needs only for some features (terminals, form checks), loaded the first time that feature
 * runs instead of at start: each costs 10–40 ms and some MiB before the first window could show. `require`
 * from here, not `import()`, where the caller is synchronous (spawning a terminal throws at once when it cannot
 * start). Only for CommonJS packages; a package loaded this way is still a `dependency` the app ships.
 */
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)

/** `id` required on the first call of the returned function, then the same module every time. */
export function lazyRequire<T>(id: string): () => T {
  let loaded: { module: T } | undefined
  return () => (loaded ??= { module: require(id) as T }).module
}
