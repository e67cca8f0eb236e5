import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { checkAddedFolders, listedFoldersHere, MAX_ADDED_FOLDERS } from '../../../main/fs/folders'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})
function temp(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'bosun-folders-')))
  dirs.push(dir)
  return dir
}

describe('checkAddedFolders', () => {
  it('keeps existing folders in order, once each, without a trailing slash or the working folder itself', async () => {
    const cwd = temp()
    const a = temp()
    const b = temp()
    expect(await checkAddedFolders([a, `${b}/`, `${a}/`, cwd, `${cwd}/`], cwd)).toEqual({ ok: true, value: [a, b] })
    expect(await checkAddedFolders([], cwd)).toEqual({ ok: true, value: [] })
  })

  it('takes a symlink to a folder (confinement resolves it later), and refuses a file, a missing path, a relative one, NUL', async () => {
    const cwd = temp()
    const real = temp()
    symlinkSync(real, join(cwd, 'alias'))
    writeFileSync(join(cwd, 'file.txt'), 'x')
    expect(await checkAddedFolders([join(cwd, 'alias')], cwd)).toEqual({ ok: true, value: [join(cwd, 'alias')] })
    for (const [folder, message] of [
      [join(cwd, 'file.txt'), 'is not a folder'],
      [join(cwd, 'missing'), 'does not exist'],
      ['relative/dir', 'is not an absolute path'],
      [`${cwd}/a\0b`, 'is not an absolute path'],
    ] as const) {
      const result = await checkAddedFolders([folder], cwd)
      expect(result, folder).toMatchObject({ ok: false, error: { kind: 'invalid-argument', data: { folder } } })
      expect(result.ok ? '' : result.error.message).toContain(message)
    }
  })

  it('refuses more than the bound', async () => {
    const cwd = temp()
    const many = Array.from({ length: MAX_ADDED_FOLDERS + 1 }, (_, i) => join(cwd, String(i)))
    for (const dir of many) mkdirSync(dir)
    expect(await checkAddedFolders(many, cwd)).toMatchObject({ ok: false, error: { kind: 'invalid-argument' } })
    expect(await checkAddedFolders(many.slice(1), cwd)).toMatchObject({ ok: true })
  })
})

describe('listedFoldersHere (an agent-listed session’s folders, E17)', () => {
  it('keeps the existing folders in the agent’s order, once each, and names the rest instead of failing', async () => {
    const cwd = temp()
    const a = temp()
    const b = temp()
    writeFileSync(join(cwd, 'file.txt'), 'x')
    const listed = [b, join(cwd, 'gone'), `${a}/`, b, join(cwd, 'file.txt'), 'relative', cwd]
    expect(await listedFoldersHere(listed, cwd)).toEqual({ folders: [b, a], missing: [join(cwd, 'gone'), join(cwd, 'file.txt'), 'relative'] })
    expect(await listedFoldersHere([], cwd)).toEqual({ folders: [], missing: [] })
  })
})
