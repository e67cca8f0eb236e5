import type { FileRead } from './types'

/** Which lines of a file Bosun read for the agent: "lines 10–29", "the whole file, 120 lines", "read 3 times". */
export function readRangeText(read: FileRead): string {
  const lines = (n: number) => `${n} ${n === 1 ? 'line' : 'lines'}`
  const first = Math.max(1, read.line ?? 1)
  const range =
    read.line === null && read.limit === null ? (read.lines === 0 ? 'the whole file, empty' : `the whole file, ${lines(read.lines)}`)
    : read.lines === 0 ? `from line ${first}: nothing (past the end)`
    : read.lines === 1 ? `line ${first}`
    : `lines ${first}–${first + read.lines - 1}`
  return read.times > 1 ? `${range}, read ${read.times} times` : range
}
