import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { execFileSync } from 'node:child_process'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { readStaticFile, resolveStaticPath } from '../../../main/web/static-files'

const root = mkdtempSync(join(tmpdir(), 'bosun-static-'))
const site = join(root, 'renderer')
mkdirSync(join(site, 'assets'), { recursive: true })
writeFileSync(join(site, 'index.html'), '<!doctype html>')
writeFileSync(join(site, 'assets', 'app.js'), 'ok')
writeFileSync(join(root, 'secret.txt'), 'do not serve')
symlinkSync(join(root, 'secret.txt'), join(site, 'assets', 'out.js'))
symlinkSync(root, join(site, 'up'))
symlinkSync(join(site, 'assets', 'app.js'), join(site, 'assets', 'alias.js'))
execFileSync('mkfifo', [join(site, 'assets', 'pipe.js')])
afterAll(() => rmSync(root, { recursive: true, force: true }))

describe('static files of the browser host', () => {
  it('never leaves the root: dot segments (encoded too), backslashes, NULs and bad escapes are refused', () => {
    for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/assets/%2E%2E/%2e%2e/secret.txt', '/..%2fsecret.txt', '/..\\secret.txt', '/..%5csecret.txt', '/index.html%00.js', '/%E0%A4%A']) {
      expect(resolveStaticPath(site, path), path).toBeNull()
    }
    // Doubly encoded dots are a file name, under the root.
    expect(resolveStaticPath(site, '/%252e%252e/secret.txt')).toBe(join(site, '%2e%2e', 'secret.txt'))
    expect(resolveStaticPath(site, '/')).toBe(join(site, 'index.html'))
  })

  it('refuses a symlink that leads out of the root, follows one that stays in it, and reads only regular files', async () => {
    expect(await readStaticFile(site, '/assets/out.js')).toEqual({ ok: false, status: 403 })
    expect(await readStaticFile(site, '/up/secret.txt')).toEqual({ ok: false, status: 403 })
    const alias = await readStaticFile(site, '/assets/alias.js')
    expect(alias.ok && alias.body.toString()).toBe('ok')
    expect(await readStaticFile(site, '/assets')).toEqual({ ok: false, status: 404 })
    // A FIFO would block a read for ever: it is not a regular file.
    expect(await readStaticFile(site, '/assets/pipe.js')).toEqual({ ok: false, status: 404 })
  })
})
