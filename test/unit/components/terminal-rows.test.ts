/**
 * How many rows a tool card's terminal gives its output: a line longer than the terminal is wide wraps, and each
 * row it wraps onto counts, so a short output shows from its start (the view follows the output's end).
 */
import { describe, expect, it } from 'vitest'
import { countLines } from '../../../renderer/components/transcript/TerminalOutput'

describe('terminal rows of an output', () => {
  it('counts a row per line, and one more after a final newline', () => {
    expect(countLines('')).toBe(1)
    expect(countLines('made\nnotes.md')).toBe(2)
    expect(countLines('made\nnotes.md\n')).toBe(3)
  })

  it('counts the rows a long line wraps onto (claude-agent-acp’s one-line note after a Stop)', () => {
    const note = 'The command was stopped. '.repeat(10).trim() // 249 characters: three rows of 120
    expect(countLines(note)).toBe(3)
    expect(countLines(`tick 1\n${note}\n`)).toBe(5)
  })

  it('stops counting past what a card shows', () => {
    expect(countLines('x'.repeat(120 * 100))).toBe(17)
    expect(countLines('\n'.repeat(1000))).toBe(17)
  })

  it('counts what a line shows: a progress bar redrawn with carriage returns, colours and CRLF take no room', () => {
    const frames = Array.from({ length: 11 }, (_, i) => `\rDownloading [${'#'.repeat(2 * i).padEnd(20)}] ${String(10 * i).padStart(3)}%`).join('')
    expect(frames.length).toBeGreaterThan(3 * 120)
    expect(countLines(`${frames}\r\n\x1b[32m✔\x1b[0m done\r\n`)).toBe(3)
    const coloured = `\x1b[38;2;100;200;255m${'word '.repeat(20)}\x1b[0m`.repeat(2) // 200 characters shown, 262 sent
    expect(countLines(coloured)).toBe(2)
  })
})
