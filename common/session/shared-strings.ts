/**
 * Equal strings kept once. A session keeps the same texts again and again in its tool calls: a diff's path is also its
 * location's, and a file edited or read several times brings the same texts each time. Each arrives as a string of its
 * own (every `JSON.parse` makes new ones), and JavaScript cannot tell two equal strings apart, so keeping the one seen
 * first instead changes nothing but the memory: in the 100k-update flood of the bench, the diffs' texts and paths were
 * 15,000 strings (about 0.9 MiB in the page, and as much in main) that are 5,002 different ones.
 *
 * The table is bounded: strings up to {@link MAX_SHARED_CHARS} characters, in two generations of at most
 * {@link MAX_GENERATION_STRINGS} strings and {@link MAX_GENERATION_CHARS} characters each. A lookup that hits the older
 * generation moves the string to the newer one; when the newer one is full, the older is dropped and the newer takes
 * its place. So what the table keeps alive that no session holds is at most two generations of recent texts.
 */

export const MAX_SHARED_CHARS = 64 * 1024
export const MAX_GENERATION_STRINGS = 4096
export const MAX_GENERATION_CHARS = 1024 * 1024

export class SharedStrings {
  private young = new Map<string, string>()
  private old = new Map<string, string>()
  private youngChars = 0

  constructor(
    private readonly maxStrings = MAX_GENERATION_STRINGS,
    private readonly maxChars = MAX_GENERATION_CHARS,
    private readonly maxLength = MAX_SHARED_CHARS,
  ) {}

  /** The string equal to `text` seen first (while the table still holds it), else `text`, now kept. */
  share(text: string): string {
    if (text.length > this.maxLength || text.length === 0) return text
    const young = this.young.get(text)
    if (young !== undefined) return young
    const kept = this.old.get(text) ?? text
    if (this.young.size >= this.maxStrings || this.youngChars + kept.length > this.maxChars) {
      this.old = this.young
      this.young = new Map()
      this.youngChars = 0
    }
    this.young.set(kept, kept)
    this.youngChars += kept.length
    return kept
  }

  /** Strings and characters the table holds (tests, figures). */
  get size(): { strings: number; chars: number } {
    let chars = this.youngChars
    for (const text of this.old.keys()) if (!this.young.has(text)) chars += text.length
    let strings = this.young.size
    for (const text of this.old.keys()) if (!this.young.has(text)) strings++
    return { strings, chars }
  }
}

/** The table the session reducer shares tool calls' texts through (one per process: main, or a page). */
export const sharedStrings = new SharedStrings()
