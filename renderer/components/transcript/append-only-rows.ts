/**
 * The virtualizer (`@tanstack/virtual-core`) places every row again whenever the row count changes: for each row,
 * its key, its measured size (a map lookup by key) or its estimate. A transcript only grows at its end, so during
 * a flood that was O(rows) per batch, quadratic over the turn (about 2 s of the page's main thread over a
 * 400,000-update flood, in 50-500 ms long tasks). {@link placeAppendedRowsOnly} makes a count that grew place the
 * new rows (and the last old one, whose text may have grown) instead, and one that shrank (a deferred render of an
 * older state) drop the rows past it: the virtualizer's own partial recompute from its lowest changed index, which
 * it uses for a measured row.
 *
 * It reaches into the virtualizer's internals (`getMeasurementOptions`, `pendingMin`, `_singleLaneMeasurements`),
 * checked at run time: anything missing or of another shape leaves the virtualizer as it is (it places every
 * row, as before), and the unit test (append-only-rows.test.ts) fails on a version where this no longer helps.
 */

/** The options the virtualizer places rows by (its `getMeasurementOptions()`). */
interface MeasurementOptions {
  count: number
  getItemKey: (index: number) => unknown
  [option: string]: unknown
}

interface Internals {
  getMeasurementOptions?: unknown
  pendingMin?: number | null
  _singleLaneMeasurements?: { flat: Float64Array; items: unknown[] } | null
  options?: { lanes?: number }
}

/** A placed row's key: the key itself, or the row the virtualizer made of it once read (`{ key, start, size, … }`). */
const keyOf = (item: unknown): unknown => (typeof item === 'object' && item !== null ? (item as { key?: unknown }).key : item)

/** Whether `next` differs from `previous` only by its count. */
function onlyCountChanged(previous: MeasurementOptions, next: MeasurementOptions): boolean {
  if (next.count === previous.count) return false
  for (const key of Object.keys(next)) if (key !== 'count' && next[key] !== previous[key]) return false
  return Object.keys(previous).length === Object.keys(next).length
}

/**
 * Makes a virtualizer whose rows are only ever appended place only the new rows when its count grows. Returns
 * whether it could (false: this version of the virtualizer is not the one this was written for; nothing changed).
 * The rows already placed must keep their keys: a count that changed while the first or last kept row's key changed
 * (another list) places every row.
 */
export function placeAppendedRowsOnly(virtualizer: object): boolean {
  const internals = virtualizer as Internals
  const original = internals.getMeasurementOptions
  if (typeof original !== 'function' || !('pendingMin' in internals) || !('_singleLaneMeasurements' in internals)) return false
  let last: MeasurementOptions | undefined
  const wrapped = () => {
    // The lowest row a measurement changed since the last placing: the virtualizer's own (reset when the options change).
    const pending = internals.pendingMin ?? null
    const options = original.call(virtualizer) as MeasurementOptions
    if (options === last) return options
    const previous = last
    last = options
    const placed = internals._singleLaneMeasurements
    if (!previous || !placed || (internals.options?.lanes ?? 1) !== 1 || !onlyCountChanged(previous, options)) return options
    // The rows both counts have (a deferred render can show an older, shorter transcript for a moment).
    const kept = Math.min(previous.count, options.count)
    const { items } = placed
    if (items.length !== previous.count || kept === 0 || options.getItemKey(0) !== keyOf(items[0]) || options.getItemKey(kept - 1) !== keyOf(items[kept - 1])) return options
    if (kept < items.length) placed.items = items.slice(0, kept)
    // The last kept row again: a streamed message's text (and so its estimate) grows until the next row starts.
    internals.pendingMin = Math.min(pending ?? kept - 1, kept - 1)
    // Room to grow, so each count change does not copy every row's position into an array just large enough.
    const need = options.count * 2
    if (placed.flat.length < need) {
      const grown = new Float64Array(Math.max(need, Math.ceil(placed.flat.length * 1.5)))
      grown.set(placed.flat)
      placed.flat = grown
    }
    return options
  }
  internals.getMeasurementOptions = wrapped
  return true
}
