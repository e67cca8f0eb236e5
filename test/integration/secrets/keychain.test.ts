/**
 * The keychain for real: keytar against gnome-keyring on a private D-Bus session
 * (`scripts/with-keyring.sh npx vitest run test/integration/secrets`). Uses its own service name so a run
 * outside the script never touches a person's real "Bosun" entries.
 */
import { createRequire } from 'node:module'
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RecordingConfirmation } from '../../support/confirmations'
import { createAgentConfigService, type AgentConfigService } from '../../../main/config/agent-config-service'
import { createKeytarSecretStore, type KeytarLike } from '../../../main/secrets/secret-store'
import type { AgentDraft } from '../../../common/contract/agents'

const service = `Bosun-test-${process.pid}-${Date.now()}`
const store = createKeytarSecretStore({ service })
const status = await store.status()
const allowMissing = process.env.BOSUN_ALLOW_NO_KEYCHAIN === '1'
const keytar = createRequire(import.meta.url)('keytar') as KeytarLike

it('has a Secret Service to test against', () => {
  if (!status.available && !allowMissing) {
    throw new Error(
      `No usable keychain: ${status.message}\nRun these tests under scripts/with-keyring.sh (gnome-keyring on a private D-Bus), ` +
        'or set BOSUN_ALLOW_NO_KEYCHAIN=1 to skip them explicitly.',
    )
  }
  expect(status.available || allowMissing).toBe(true)
})

describe.skipIf(!status.available)('keytar secret store (real keychain)', () => {
  afterAll(async () => {
    for (const { account } of await keytar.findCredentials(service)) await keytar.deletePassword(service, account)
  })

  it('stores, reads, deletes', async () => {
    expect(await store.set('agent-a', 'API_KEY', 'value-1')).toEqual({ ok: true, value: undefined })
    expect(await keytar.getPassword(service, 'agent-a:API_KEY')).toBe('value-1')
    expect(await store.has('agent-a', 'API_KEY')).toEqual({ ok: true, value: true })
    expect(await store.resolveEnv('agent-a', ['API_KEY', 'UNSET'])).toEqual({ ok: true, value: { API_KEY: 'value-1' } })
    expect(await store.set('agent-a', 'API_KEY', 'value-2')).toEqual({ ok: true, value: undefined })
    expect(await store.resolveEnv('agent-a', ['API_KEY'])).toEqual({ ok: true, value: { API_KEY: 'value-2' } })
    expect(await store.delete('agent-a', 'API_KEY')).toEqual({ ok: true, value: undefined })
    expect(await store.has('agent-a', 'API_KEY')).toEqual({ ok: true, value: false })
    expect(await store.delete('agent-a', 'API_KEY')).toEqual({ ok: true, value: undefined })
  })

  it('deleteAll removes one agent’s secrets and no other’s', async () => {
    await store.set('agent-b', 'K1', 'b1')
    await store.set('agent-b', 'K2', 'b2')
    await store.set('agent-bb', 'K1', 'bb1')
    expect(await store.deleteAll('agent-b')).toEqual({ ok: true, value: 2 })
    expect(await store.resolveEnv('agent-b', ['K1', 'K2'])).toEqual({ ok: true, value: {} })
    expect(await store.resolveEnv('agent-bb', ['K1'])).toEqual({ ok: true, value: { K1: 'bb1' } })
  })
})

describe.skipIf(!status.available)('agent config service with the real keychain', () => {
  let home: string
  let config: AgentConfigService
  const canaryA = `canary-A-${Math.random().toString(36).slice(2)}`
  const canaryB = `canary-B-${Math.random().toString(36).slice(2)}`
  const returned: unknown[] = []
  const emitted: unknown[] = []

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'bosun-keychain-'))
    await mkdir(join(home, 'bin'))
    await writeFile(join(home, 'bin', 'fake-agent'), '#!/bin/sh\n', { mode: 0o755 })
    config = await createAgentConfigService({
      home,
      secretStore: store,
      baseEnv: { PATH: join(home, 'bin'), HOME: home, SHARED_TOKEN: canaryA },
      events: { emit: (_name, payload) => emitted.push(payload) },
      confirmation: new RecordingConfirmation(),
    })
  })
  afterAll(async () => {
    config.dispose()
    await rm(home, { recursive: true, force: true })
  })

  const draft = (name: string): AgentDraft => ({ name, command: 'fake-agent', argsText: '', env: [], secretEnv: ['API_KEY'], defaultCwd: '' })
  const record = <T>(value: T): T => (returned.push(value), value)

  it('gives a canary secret to its own agent only, and never back through the handlers', async () => {
    const h = config.handlers
    const a = record(await h.saveAgentDefinition({ draft: draft('A'), secrets: { API_KEY: canaryA } }))
    const b = record(await h.saveAgentDefinition({ draft: draft('B'), secrets: { API_KEY: canaryB } }))
    expect(a.ok && b.ok).toBe(true)
    if (!a.ok || !b.ok) return
    expect(a.value.agent.secretsSet).toEqual({ API_KEY: true })
    record(await h.listAgentDefinitions(undefined))
    record(await h.validateAgentDefinition({ draft: { ...draft('C'), id: a.value.agent.id } }))
    record(await h.getKeychainStatus(undefined))
    record(await h.listPresets(undefined))

    const specA = await config.launchSpec(a.value.agent.id)
    const specB = await config.launchSpec(b.value.agent.id)
    if (!specA.ok || !specB.ok) throw new Error('launchSpec failed')
    expect(specA.value.env.API_KEY).toBe(canaryA)
    expect(specB.value.env.API_KEY).toBe(canaryB)
    expect(JSON.stringify(specB.value)).not.toContain(canaryA)
    expect(JSON.stringify(specA.value)).not.toContain(canaryB)
    // SHARED_TOKEN (Bosun's own environment) carries canaryA too: scrubbed, so it only reaches A as A's secret.
    expect(specB.value.env.SHARED_TOKEN).toBeUndefined()

    record(await h.deleteAgentSecret({ agentId: b.value.agent.id, name: 'API_KEY' }))
    record(await h.removeAgentDefinition({ agentId: a.value.agent.id }))
    await config.flush()
    expect(emitted.length).toBeGreaterThan(0)
    for (const text of [JSON.stringify(returned), JSON.stringify(emitted)]) {
      expect(text).not.toContain(canaryA)
      expect(text).not.toContain(canaryB)
    }
    // Removing A removed its keychain entry; B's was deleted by deleteAgentSecret.
    expect(await keytar.getPassword(service, `${a.value.agent.id}:API_KEY`)).toBeNull()
    expect(await keytar.getPassword(service, `${b.value.agent.id}:API_KEY`)).toBeNull()
    // And nothing under the home folder holds a value.
    for (const name of await readdir(home)) {
      const path = join(home, name)
      if ((await stat(path)).isFile()) {
        const text = await readFile(path, 'utf8')
        expect(text).not.toContain(canaryA)
        expect(text).not.toContain(canaryB)
      }
    }
  })
})
