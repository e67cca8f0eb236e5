/** The desktop app turns Node's compile cache on in its home, except when it runs as an AppImage. */
import { describe, expect, it, vi } from 'vitest'

vi.mock('electron', async () => (await import('../../electron/fake-electron')).electronModule)
vi.mock('../../../main/base/compile-cache', () => ({ cacheCompiledCode: vi.fn() }))

import { cacheCompiledCode } from '../../../main/base/compile-cache'
import { cacheCompiledCodeForApp } from '../../../main/shell/compile-cache'
import { fake } from '../../electron/fake-electron'

describe('cacheCompiledCodeForApp', () => {
  it('uses BOSUN_HOME, else Electron’s userData', () => {
    cacheCompiledCodeForApp({ BOSUN_HOME: '/tmp/bosun-home' })
    cacheCompiledCodeForApp({})
    expect(vi.mocked(cacheCompiledCode).mock.calls).toEqual([['/tmp/bosun-home', '0.1.0-test'], ['/fake/userData', '0.1.0-test']])
  })

  it('does nothing in an AppImage (a new mount point at every launch: the cache would only grow)', () => {
    vi.mocked(cacheCompiledCode).mockClear()
    cacheCompiledCodeForApp({ APPIMAGE: '/home/me/Bosun.AppImage', BOSUN_HOME: '/tmp/bosun-home' })
    expect(cacheCompiledCode).not.toHaveBeenCalled()
  })

  it('never stops the start: an app that cannot say its version starts without the cache', () => {
    vi.mocked(cacheCompiledCode).mockClear()
    const spy = vi.spyOn(fake.app, 'getVersion').mockImplementation(() => {
      throw new Error('not ready')
    })
    expect(() => cacheCompiledCodeForApp({})).not.toThrow()
    expect(cacheCompiledCode).not.toHaveBeenCalled()
    spy.mockRestore()
  })
})
