/**
 * The window between confining a path and using it (a symlink race): an agent runs as the person and can swap
 * a folder of a path it asked for for a symlink to somewhere else after Bosun checked the path. The state after
 * that swap is set up here directly, and the read or write given the confined path and its root must not reach
 * outside. Without the root (the unpinned call) the same state does reach outside: that is the race.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { confinePath } from '../../../main/fs/confine'
import { readTextFile, writeTextFileAtomic } from '../../../main/fs/text-files'

let root: string
let outside: string
beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'bosun-pinned-root-')))
  outside = realpathSync(mkdtempSync(join(tmpdir(), 'bosun-pinned-outside-')))
  mkdirSync(join(root, 'sub'))
  writeFileSync(join(root, 'sub', 'notes.txt'), 'inside\n')
  writeFileSync(join(outside, 'notes.txt'), 'SECRET outside\n')
})
afterEach(() => {
  rmSync(root, { recursive: true, force: true })
  rmSync(outside, { recursive: true, force: true })
})

/** Confines `path`, then swaps `root/sub` for a symlink to the outside folder (what a racing agent does). */
async function confineThenSwap(path: string): Promise<{ realPath: string; root: string }> {
  const confined = await confinePath(path, [root])
  if (!confined.ok) throw new Error(confined.message)
  rmSync(join(root, 'sub'), { recursive: true })
  symlinkSync(outside, join(root, 'sub'))
  return { realPath: confined.realPath, root: confined.root }
}

describe('a folder swapped for a symlink after the check', () => {
  it('a read of the confined path is refused, and the file outside is not read', async () => {
    const { realPath, root: confinedRoot } = await confineThenSwap(join(root, 'sub', 'notes.txt'))
    // Unpinned, the race reads the outside file.
    expect(await readTextFile(realPath)).toMatchObject({ ok: true, value: { text: 'SECRET outside\n' } })
    const pinned = await readTextFile(realPath, undefined, confinedRoot)
    expect(pinned).toMatchObject({ ok: false, problem: { kind: 'not-a-file', message: expect.stringContaining('changed while Bosun was using it') } })
    expect(JSON.stringify(pinned)).not.toContain('SECRET')
  })

  it('a write of the confined path is refused, and nothing is written outside', async () => {
    const { realPath, root: confinedRoot } = await confineThenSwap(join(root, 'sub', 'new.txt'))
    const pinned = await writeTextFileAtomic(realPath, 'planted\n', undefined, confinedRoot)
    expect(pinned).toMatchObject({ ok: false, problem: { kind: 'not-a-file' } })
    expect(existsSync(join(outside, 'new.txt'))).toBe(false)
    // Unpinned, the same write lands outside.
    expect(await writeTextFileAtomic(realPath, 'planted\n', undefined)).toMatchObject({ ok: true })
    expect(readFileSync(join(outside, 'new.txt'), 'utf8')).toBe('planted\n')
  })

  it('a file swapped for a symlink is not followed', async () => {
    const confined = await confinePath(join(root, 'sub', 'notes.txt'), [root])
    if (!confined.ok) throw new Error(confined.message)
    rmSync(join(root, 'sub', 'notes.txt'))
    symlinkSync(join(outside, 'notes.txt'), join(root, 'sub', 'notes.txt'))
    const pinned = await readTextFile(confined.realPath, undefined, confined.root)
    expect(pinned).toMatchObject({ ok: false, problem: { kind: 'not-a-file', message: expect.stringContaining('changed while Bosun was using it') } })
  })
})

describe('pinned reads and writes inside the folder work as before', () => {
  it('reads, replaces and creates files (and their missing folders)', async () => {
    const file = join(root, 'sub', 'notes.txt')
    expect(await readTextFile(file, undefined, root)).toMatchObject({ ok: true, value: { text: 'inside\n' } })
    const previous = await readTextFile(file, undefined, root)
    if (!previous.ok) throw new Error('read failed')
    expect(await writeTextFileAtomic(file, 'replaced\n', previous.value, root)).toMatchObject({ ok: true })
    expect(readFileSync(file, 'utf8')).toBe('replaced\n')
    const created = join(root, 'deep', 'er', 'made.txt')
    expect(await writeTextFileAtomic(created, 'new\n', undefined, root)).toMatchObject({ ok: true })
    expect(readFileSync(created, 'utf8')).toBe('new\n')
  })

  it('a FIFO is refused at once (opening it does not wait for a writer)', async () => {
    const fifo = join(root, 'pipe')
    execFileSync('mkfifo', [fifo])
    expect(await readTextFile(fifo, undefined, root)).toMatchObject({ ok: false, problem: { kind: 'not-a-file' } })
  })
})
