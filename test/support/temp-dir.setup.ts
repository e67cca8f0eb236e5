/**
 * Setup of every test file: TMPDIR (os.tmpdir(), and every process the file starts) is a folder of the file's own,
 * inside the run's (temp-dir.global.ts). After the file's own hooks ran (this afterAll is registered first, so it
 * runs last), the folder must be empty and no process it started may still run: what is left fails the file, then
 * is removed or ended, so that it does not pile up on the machine.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir, userInfo } from 'node:os'
import { join } from 'node:path'
import { afterAll, inject } from 'vitest'
import { describeLeftovers, endProcesses, processesLeftIn } from './leftovers'

const fileTmpDir = mkdtempSync(join(inject('runTmpDir'), 'file-'))
// tsx (which runs the scripted agents) keeps its compile cache in `<tmp>/tsx-<uid>`: the machine's stays shared,
// or every file's first agent would compile from scratch.
const tsxCache = `tsx-${process.geteuid?.() ?? userInfo().username}`
mkdirSync(join(tmpdir(), tsxCache), { recursive: true })
symlinkSync(join(tmpdir(), tsxCache), join(fileTmpDir, tsxCache))
const previous = process.env.TMPDIR
process.env.TMPDIR = fileTmpDir

afterAll(async () => {
  const left = await processesLeftIn(fileTmpDir)
  endProcesses(left)
  const entries = readdirSync(fileTmpDir).filter((entry) => entry !== tsxCache)
  if (previous === undefined) delete process.env.TMPDIR
  else process.env.TMPDIR = previous
  rmSync(fileTmpDir, { recursive: true, force: true })
  if (entries.length > 0 || left.length > 0) {
    throw new Error(`This file's tests left behind what they made (each maker removes its own, in an afterEach/afterAll):\n${describeLeftovers(entries, left)}`)
  }
}, 20_000)
