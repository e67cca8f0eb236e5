import { execFileSync } from 'node:child_process'
import { lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { createMemoryLogger } from '../../../main/base/log'
import { launchIdentityHash, LaunchTrustStore, type LaunchIdentity } from '../../../main/trust/launch-trust'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

const echo: LaunchIdentity = { command: '/bin/echo', args: ['hi'], env: {}, secretEnv: [] }
const cat: LaunchIdentity = { command: '/bin/cat', args: [], env: {}, secretEnv: [] }

it('one confirmation this Bosun cannot read (a newer format) does not make every agent ask again', async () => {
  const home = mkdtempSync(join(tmpdir(), 'bosun-trust-file-'))
  dirs.push(home)
  writeFileSync(join(home, 'trusted-agents.json'), JSON.stringify({ version: 1, agents: { echo: launchIdentityHash(echo), cat: launchIdentityHash(cat), newer: 'sha3:abc' } }))
  const store = new LaunchTrustStore(home, createMemoryLogger())
  await store.load()
  expect([store.isTrusted('echo', echo), store.isTrusted('cat', cat), store.isTrusted('cat', echo)]).toEqual([true, true, false])
})

const corruptCopies = (home: string) => readdirSync(home).filter((name) => name.startsWith('trusted-agents.json.corrupt-'))

it('a file read only in part is copied aside before the first confirmation replaces it', async () => {
  const home = mkdtempSync(join(tmpdir(), 'bosun-trust-file-'))
  dirs.push(home)
  const original = JSON.stringify({ version: 1, agents: { echo: launchIdentityHash(echo), newer: 'sha3:abc' }, newerField: true })
  writeFileSync(join(home, 'trusted-agents.json'), original)
  const store = new LaunchTrustStore(home, createMemoryLogger())
  await store.load()
  await store.trust('cat', cat)
  const [copy] = corruptCopies(home)
  expect(readFileSync(join(home, copy!), 'utf8')).toBe(original)
  expect(JSON.parse(readFileSync(join(home, 'trusted-agents.json'), 'utf8'))).toEqual({ version: 1, agents: { echo: launchIdentityHash(echo), cat: launchIdentityHash(cat) } })
  // Once: the file now holds what Bosun reads.
  await store.trust('echo', echo)
  expect(corruptCopies(home)).toHaveLength(1)
})

it('a file that cannot be read (a FIFO in its place) is never replaced; the confirmation holds until Bosun quits', async () => {
  const home = mkdtempSync(join(tmpdir(), 'bosun-trust-file-'))
  dirs.push(home)
  execFileSync('mkfifo', [join(home, 'trusted-agents.json')])
  const log = createMemoryLogger()
  const store = new LaunchTrustStore(home, log)
  await store.load()
  await store.trust('cat', cat)
  expect(store.isTrusted('cat', cat)).toBe(true)
  expect(lstatSync(join(home, 'trusted-agents.json')).isFIFO()).toBe(true)
  expect(log.lines.join('\n')).toContain('is not a regular file')
})
