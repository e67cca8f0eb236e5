/**
 * unrunnableReason is asked why a launch failed: it must answer, whatever was put at the program's path between its
 * check and its open (a FIFO there held the open, and the launch's report, until something wrote to it).
 */
import { execFileSync } from 'node:child_process'
import { chmodSync, constants, mkdirSync, mkdtempSync, openSync, closeSync, promises, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it, vi } from 'vitest'
import { unrunnableReason } from '../../../main/config/unrunnable'

let dir = ''
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'bosun-unrunnable-'))
})
afterEach(() => {
  vi.restoreAllMocks()
  rmSync(dir, { recursive: true, force: true })
})

it('a program replaced by a FIFO between its check and its open: answered at once, the FIFO named', async () => {
  const program = join(dir, 'agent')
  writeFileSync(program, '#!/nonexistent/node\n', { mode: 0o755 })
  const open = promises.open.bind(promises)
  vi.spyOn(promises, 'open').mockImplementation(async (path, ...rest) => {
    if (path === program) {
      rmSync(program)
      execFileSync('mkfifo', [program])
    }
    return open(path, ...rest)
  })
  try {
    expect(await unrunnableReason(program)).toBe(`${program} is not a program file (a FIFO)`)
  } finally {
    // Without the fix the open waits for a writer: give it one (and none is there after the fix: ENXIO).
    try {
      closeSync(openSync(program, constants.O_WRONLY | constants.O_NONBLOCK))
    } catch {
      // no reader waiting
    }
  }
})

it('a FIFO, a folder, a folder as the #! interpreter: each named', async () => {
  const fifo = join(dir, 'fifo')
  execFileSync('mkfifo', [fifo])
  const folder = join(dir, 'folder')
  mkdirSync(folder)
  const script = join(dir, 'script')
  writeFileSync(script, `#!${folder} --acp\n`)
  chmodSync(script, 0o755)
  expect(await unrunnableReason(fifo)).toBe(`${fifo} is not a program file (a FIFO)`)
  expect(await unrunnableReason(folder)).toBe(`${folder} is a folder, not a program`)
  expect(await unrunnableReason(script)).toBe(`its interpreter ${JSON.stringify(folder)} (the #! line of ${script}) is not there or cannot run`)
})
