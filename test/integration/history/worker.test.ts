import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterEach, describe, expect, it } from 'vitest'

const here = dirname(fileURLToPath(import.meta.url))
const repo = resolve(here, '..', '..', '..')
const homes: string[] = []
afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true })
})

describe('the history thread under the browser host’s runtime', () => {
  it('starts from the TypeScript sources with `node --import tsx` (as `npm run start:web`), writes and reads back', async () => {
    const home = mkdtempSync(join(tmpdir(), 'bosun-history-child-'))
    homes.push(home)
    // Exactly the browser host's flags: tsx resolved from the repository, nothing else.
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', join(here, 'worker-child.ts'), home], { cwd: repo })
    expect(JSON.parse(stdout.trim())).toEqual({ onThread: true, problem: null, sessions: ['From the child'] })
  })
})
