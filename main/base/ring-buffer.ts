/** A bounded FIFO: keeps the last `capacity` items (stderr lines, inspector messages). */
export class RingBuffer<T> {
  private items: (T | undefined)[]
  private start = 0
  private count = 0
  private droppedCount = 0

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity <= 0) throw new RangeError('capacity must be a positive integer')
    this.items = new Array(capacity)
  }

  get size(): number {
    return this.count
  }

  /** How many items were pushed out since creation. */
  get dropped(): number {
    return this.droppedCount
  }

  push(item: T): void {
    if (this.count < this.capacity) {
      this.items[(this.start + this.count) % this.capacity] = item
      this.count++
    } else {
      this.items[this.start] = item
      this.start = (this.start + 1) % this.capacity
      this.droppedCount++
    }
  }

  toArray(): T[] {
    const out: T[] = []
    for (let i = 0; i < this.count; i++) out.push(this.items[(this.start + i) % this.capacity] as T)
    return out
  }

  clear(): void {
    this.items = new Array(this.capacity)
    this.start = 0
    this.count = 0
  }
}

/**
 * Keeps the tail of a text stream within a byte budget, cut at line boundaries where possible
 * (the stderr tail shown in error messages).
 */
export class TextTail {
  private chunks: string[] = []
  private length = 0

  constructor(readonly maxChars: number) {}

  append(text: string): void {
    if (!text) return
    this.chunks.push(text)
    this.length += text.length
    if (this.length > this.maxChars * 2) this.compact()
  }

  private compact(): void {
    const joined = this.chunks.join('')
    const tail = joined.slice(-this.maxChars)
    this.chunks = [tail]
    this.length = tail.length
  }

  toString(): string {
    this.compact()
    const text = this.chunks[0] ?? ''
    if (this.length < this.maxChars) return text
    // Drop a partial first line when we cut in the middle of one.
    const nl = text.indexOf('\n')
    return nl >= 0 && nl < text.length - 1 ? text.slice(nl + 1) : text
  }

  /** The last `n` lines. */
  lastLines(n: number): string {
    const lines = this.toString().split('\n')
    if (lines.at(-1) === '') lines.pop()
    return lines.slice(-n).join('\n')
  }
}
