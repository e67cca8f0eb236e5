/**
 * A settings file Bosun cannot write says why in words a person can act on (a read-only or full disk, a folder it may
 * not write), naming the folder rather than the temporary file beside the target, and the target stays as it was.
 */
import { promises, readdirSync, readFileSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it, vi } from 'vitest'
import { writeFileAtomic, writeFileAtomicSync } from '../../../main/base/atomic-write'

let home: string
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'bosun-atomic-'))
})
afterEach(async () => {
  vi.restoreAllMocks()
  await rm(home, { recursive: true, force: true })
})

const systemError = (code: string, syscall: string, path: string) => Object.assign(new Error(`${code}: failed, ${syscall} '${path}'`), { code, syscall, path })

it.each([
  ['EROFS', 'open', (dir: string) => `${dir} is on a disk that is read-only (EROFS)`],
  ['ENOSPC', 'write', (dir: string) => `the disk of ${dir} is full (ENOSPC); free some space, then try again`],
  ['EACCES', 'open', (dir: string) => `Bosun may not write in ${dir} (EACCES); give it write access there`],
])('%s: says what is wrong with the folder, keeps the code, and leaves the file as it was', async (code, syscall, words) => {
  const path = join(home, 'agents.json')
  await writeFile(path, '{"version":1,"agents":[]}\n')
  if (syscall === 'open') vi.spyOn(promises, 'open').mockRejectedValueOnce(systemError(code, 'open', join(home, '.agents.json.1.abc.tmp')))
  else vi.spyOn(promises, 'rename').mockRejectedValueOnce(systemError(code, 'write', join(home, '.agents.json.1.abc.tmp')))
  const failed = writeFileAtomic(path, '{"version":1,"agents":[{"id":"new"}]}\n')
  await expect(failed).rejects.toThrow(words(home))
  await expect(failed).rejects.toMatchObject({ code })
  expect(readFileSync(path, 'utf8')).toBe('{"version":1,"agents":[]}\n')
  expect(readdirSync(home)).toEqual(['agents.json'])
})

it('any other failure is thrown as the system said it', async () => {
  vi.spyOn(promises, 'open').mockRejectedValueOnce(systemError('EIO', 'open', join(home, 'x')))
  await expect(writeFileAtomic(join(home, 'settings.json'), '{}')).rejects.toThrow(`EIO: failed, open '${join(home, 'x')}'`)
})

it('writeFileAtomicSync replaces the file whole, leaves nothing beside it, and throws the system error where it cannot write', async () => {
  const file = join(home, 'record.json')
  await writeFile(file, 'old')
  writeFileAtomicSync(file, 'new', { sync: true })
  expect(readFileSync(file, 'utf8')).toBe('new')
  expect(readdirSync(home)).toEqual(['record.json'])
  // A file where its folder should be: the system's error, and nothing left behind.
  expect(() => writeFileAtomicSync(join(file, 'inside.json'), 'x')).toThrow(/ENOTDIR/)
  expect(readdirSync(home)).toEqual(['record.json'])
  expect(readFileSync(file, 'utf8')).toBe('new')
})

