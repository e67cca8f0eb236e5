/** Node's compile cache in the home: one private folder for the running version, what other versions left removed. */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { cacheCompiledCode, COMPILE_CACHE_FOLDER } from '../../../main/base/compile-cache'

const homes: string[] = []
afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true })
})
const tempHome = () => {
  const home = mkdtempSync(join(tmpdir(), 'bosun-compile-cache-'))
  homes.push(home)
  return home
}

describe('cacheCompiledCode', () => {
  it('turns the cache on in a private folder of the version, and removes the folders of other versions', () => {
    const home = tempHome()
    const root = join(home, COMPILE_CACHE_FOLDER)
    mkdirSync(join(root, '0.9.0', 'v22.23.3-x64-abc-0'), { recursive: true })
    writeFileSync(join(root, '0.9.0', 'v22.23.3-x64-abc-0', 'entry'), 'compiled code of an older Bosun')
    const enable = vi.fn()
    cacheCompiledCode(home, '1.0.0', enable)
    expect(enable).toHaveBeenCalledWith(join(root, '1.0.0'))
    expect(readdirSync(root)).toEqual(['1.0.0'])
    expect(statSync(join(root, '1.0.0')).mode & 0o077).toBe(0)
  })

  it('names the folder safely whatever the version says', () => {
    const home = tempHome()
    const enable = vi.fn()
    cacheCompiledCode(home, '../../etc/1.0 beta', enable)
    expect(enable).toHaveBeenCalledWith(join(home, COMPILE_CACHE_FOLDER, '.._.._etc_1.0_beta'))
    cacheCompiledCode(home, '..', enable)
    expect(enable).toHaveBeenLastCalledWith(join(home, COMPILE_CACHE_FOLDER, 'unknown'))
  })

  it('starts without it when the home cannot hold it (a file where the folder goes)', () => {
    const home = tempHome()
    writeFileSync(join(home, 'cache'), 'not a folder')
    const enable = vi.fn()
    expect(() => cacheCompiledCode(home, '1.0.0', enable)).not.toThrow()
    expect(enable).not.toHaveBeenCalled()
  })
})
