import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
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
