/**
 * A terminal's retained output (the finished lines of what `terminal/output` answers, checklist G29; the raw
 * stream's tail for the card): at most `limit` UTF-8 bytes, dropped from the *start* (the tail is what matters),
 * cut only at a character boundary so the text stays valid (it may end up a few bytes under the limit).
 * `truncated` is set once anything was dropped.
 */
import { dropUtf8Head, utf8Length } from './utf8'

export class OutputBuffer {
  private chunks: string[] = []
  private chunkBytes: number[] = []
  private bytes = 0
  private dropped = false

  constructor(readonly limit: number) {}

  get truncated(): boolean {
    return this.dropped
  }

  get byteLength(): number {
    return this.bytes
  }

  append(text: string): void {
    if (text.length === 0) return
    const size = utf8Length(text)
    this.chunks.push(text)
    this.chunkBytes.push(size)
    this.bytes += size
    if (this.bytes > this.limit) this.trim(this.limit)
  }

  /** Drops the oldest output until at most `max` bytes are left (room for what is kept elsewhere). */
  fitWithin(max: number): void {
    if (this.bytes > max) this.trim(Math.max(0, max))
  }

  text(): string {
    if (this.chunks.length > 1) {
      // Join once; reads are rarer than writes.
      const joined = this.chunks.join('')
      this.chunks = [joined]
      this.chunkBytes = [this.bytes]
    }
    return this.chunks[0] ?? ''
  }

  private trim(max: number): void {
    let excess = this.bytes - max
    this.dropped = true
    // Whole chunks first.
    while (this.chunks.length > 0 && this.chunkBytes[0]! <= excess) {
      excess -= this.chunkBytes[0]!
      this.bytes -= this.chunkBytes[0]!
      this.chunks.shift()
      this.chunkBytes.shift()
    }
    if (excess === 0 || this.chunks.length === 0) return
    // Then part of the first one, at a character boundary at or after `excess` bytes.
    const { rest, dropped } = dropUtf8Head(this.chunks[0]!, excess)
    this.bytes -= dropped
    this.chunkBytes[0] = this.chunkBytes[0]! - dropped
    this.chunks[0] = rest
  }
}
