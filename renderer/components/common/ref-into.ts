/** A callback ref that keeps `map[key]` pointing at the element while it is mounted (rows of inputs keyed by id). */
export function refInto<K, E>(map: Map<K, E>, key: K): (element: E | null) => void {
  return (element) => {
    if (element) map.set(key, element)
    else map.delete(key)
  }
}
