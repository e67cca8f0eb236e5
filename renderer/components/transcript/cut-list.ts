import { DEFAULT_JSON_BOUNDS } from '../../../common/bounded'

/** What a list Bosun cut at its bound (main's `boundJson`) says in its place: how many were not kept. */
export function notKeptNote(more: number, what: string): string {
  return `${more.toLocaleString('en')} more ${what} were not kept: Bosun keeps ${DEFAULT_JSON_BOUNDS.maxEntries.toLocaleString('en')}.`
}
