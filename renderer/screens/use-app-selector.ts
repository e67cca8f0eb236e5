import { useRef, useSyncExternalStore } from 'react'
import type { AppState, AppStore } from '../state/app-store'

/**
 * Subscribes to a narrow slice: the component re-renders only when `equal(previous, next)` is false,
 * so a streaming session does not re-render the sidebar.
 */
export function useAppSelector<T>(store: AppStore, selector: (state: AppState) => T, equal: (a: T, b: T) => boolean = Object.is): T {
  const cache = useRef<{ view: AppState; value: T } | null>(null)
  const getSelected = () => {
    const view = store.getSnapshot()
    const last = cache.current
    if (last && last.view === view) return last.value
    const value = selector(view)
    if (last && equal(last.value, value)) {
      cache.current = { view, value: last.value }
      return last.value
    }
    cache.current = { view, value }
    return value
  }
  return useSyncExternalStore(store.subscribe, getSelected, getSelected)
}

/** Equal arrays of shallow-equal plain objects. */
export function shallowArrayEqual<T extends object>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as Record<string, unknown>
    const y = b[i] as Record<string, unknown>
    if (x === y) continue
    const keys = Object.keys(x)
    if (keys.length !== Object.keys(y).length) return false
    for (const key of keys) if (!Object.is(x[key], y[key])) return false
  }
  return true
}
