import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { MAX_PATH_CHARS, confinePath, isInside } from '../../../main/fs/confine'
import { cpuMsSince } from '../../support/cpu-time'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})
function temp(): string {
  const dir = mkdtempSync(join(tmpdir(), 'bosun-confine-'))
  dirs.push(dir)
  return dir
}

describe('confinePath', () => {
  it('accepts paths inside a root, existing or not', async () => {
    const root = temp()
    expect(await confinePath(join(root, 'a', 'b.txt'), [root])).toMatchObject({ ok: true, realPath: join(root, 'a', 'b.txt'), exists: false })
    expect(await confinePath(root, [root])).toMatchObject({ ok: true, exists: true })
  })

  it('refuses relative paths, NUL, `..` out, and sibling folders sharing a prefix', async () => {
    const root = temp()
    expect(await confinePath('a.txt', [root])).toMatchObject({ ok: false, reason: 'not-absolute' })
    expect(await confinePath(`${root}/a\0b`, [root])).toMatchObject({ ok: false, reason: 'invalid-path' })
    expect(await confinePath(join(root, '..', 'x'), [root])).toMatchObject({ ok: false, reason: 'outside-roots' })
    expect(await confinePath(`${root}-other/x`, [root])).toMatchObject({ ok: false, reason: 'outside-roots' })
  })

  it('refuses a path longer than the system takes at once, however many segments it has (each would cost a realpath of it)', async () => {
    const root = temp()
    for (const path of [`${root}/${'x/'.repeat(200_000)}`, `/etc/${'x'.repeat(8 * 1024 * 1024)}`]) {
      const started = process.cpuUsage()
      const confined = await confinePath(path, [root])
      expect(confined).toMatchObject({ ok: false, reason: 'invalid-path' })
      // CPU time, not the wall clock: the machine's load does not count.
      expect(cpuMsSince(started)).toBeLessThan(1_000)
      if (!confined.ok) expect(confined.message.length).toBeLessThan(300)
    }
    // One at the limit is resolved as any other.
    const deep = `${root}/${'d/'.repeat((MAX_PATH_CHARS - root.length - 8) / 2)}f.txt`.slice(0, MAX_PATH_CHARS)
    expect(await confinePath(deep, [root])).toMatchObject({ ok: true, exists: false })
  }, 20_000)

  it('resolves symlinks (existing and as a prefix of a missing path) before the check', async () => {
    const root = temp()
    const outside = temp()
    symlinkSync(outside, join(root, 'out'))
    expect(await confinePath(join(root, 'out', 'new', 'file.txt'), [root])).toMatchObject({ ok: false, reason: 'outside-roots' })
    mkdirSync(join(root, 'in'))
    symlinkSync(join(root, 'in'), join(root, 'alias'))
    expect(await confinePath(join(root, 'alias', 'f'), [root])).toMatchObject({ ok: true, realPath: join(root, 'in', 'f') })
    // A dangling symlink could be made to point anywhere later: refused.
    symlinkSync('/nonexistent-bosun-target', join(root, 'dangling'))
    expect(await confinePath(join(root, 'dangling'), [root])).toEqual({
      ok: false,
      reason: 'invalid-path',
      message: `${join(root, 'dangling')} is a symbolic link that leads nowhere (to nothing, or round in a loop); Bosun does not follow it.`,
    })
    // A link to itself, and a path through it: the message names the link.
    symlinkSync(join(root, 'loop'), join(root, 'loop'))
    expect(await confinePath(join(root, 'loop', 'x.txt'), [root])).toMatchObject({
      ok: false,
      message: `${join(root, 'loop', 'x.txt')}: ${join(root, 'loop')} is a symbolic link that leads nowhere (to nothing, or round in a loop); Bosun does not follow it.`,
    })
    // A second root counts too.
    expect(await confinePath(join(outside, 'x'), [root, outside])).toMatchObject({ ok: true })
  })

  it('isInside compares whole segments', () => {
    expect(isInside('/a/b', '/a')).toBe(true)
    expect(isInside('/a', '/a')).toBe(true)
    expect(isInside('/ab', '/a')).toBe(false)
    expect(isInside('/a/..b', '/a')).toBe(true)
  })
})
