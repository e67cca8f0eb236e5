import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createAgentConfigService } from '../../../main/config/agent-config-service'
import { createKeytarSecretStore, type KeytarLike } from '../../../main/secrets/secret-store'

let home: string
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'bosun-nokeychain-'))
})
afterEach(() => rm(home, { recursive: true, force: true }))

const failingLoader = async (): Promise<KeytarLike> => {
  throw new Error("Cannot find module 'keytar.node'")
}

/** Every file under `dir`, recursively, with its bytes. */
async function allFiles(dir: string): Promise<Array<{ path: string; text: string }>> {
  const out: Array<{ path: string; text: string }> = []
  for (const name of await readdir(dir)) {
    const path = join(dir, name)
    if ((await stat(path)).isDirectory()) out.push(...(await allFiles(path)))
    else out.push({ path, text: await readFile(path, 'latin1') })
  }
  return out
}

/** An in-memory keytar whose backend can be switched off (like a Secret Service that went away). */
function fakeKeytar() {
  const data = new Map<string, string>()
  let up = true
  const guard = () => {
    if (!up) throw new Error('The name org.freedesktop.secrets was not provided by any .service files')
  }
  const keytar: KeytarLike = {
    getPassword: async (s, a) => (guard(), data.get(`${s}/${a}`) ?? null),
    setPassword: async (s, a, p) => void (guard(), data.set(`${s}/${a}`, p)),
    deletePassword: async (s, a) => (guard(), data.delete(`${s}/${a}`)),
    findCredentials: async (s) => {
      guard()
      return [...data].filter(([k]) => k.startsWith(`${s}/`)).map(([k, password]) => ({ account: k.slice(s.length + 1), password }))
    },
  }
  return { keytar, data, setUp: (v: boolean) => (up = v) }
}

describe('keytar secret store without a keychain', () => {
  it('reports keychain-unavailable as a value when keytar cannot load', async () => {
    const store = createKeytarSecretStore({ load: failingLoader })
    expect(await store.status()).toEqual({ available: false, message: expect.stringContaining('keytar could not be loaded'), reason: expect.stringMatching(/^Keytar could not be loaded/) })
    for (const result of [
      await store.set('a-1', 'API_KEY', 'canary'),
      await store.has('a-1', 'API_KEY'),
      await store.delete('a-1', 'API_KEY'),
      await store.deleteAll('a-1'),
      await store.resolveEnv('a-1', ['API_KEY']),
    ])
      expect(result).toMatchObject({ ok: false, error: { kind: 'keychain-unavailable' } })
    // Nothing asked for: nothing to fail.
    expect(await store.resolveEnv('a-1', [])).toEqual({ ok: true, value: {} })
  })

  it('refuses to store a secret and writes nothing in plain text under the home folder', async () => {
    const canary = 'sk-canary-9d2f6b1e-plaintext'
    const service = await createAgentConfigService({
      home,
      secretStore: createKeytarSecretStore({ load: failingLoader }),
      baseEnv: { PATH: '/usr/bin:/bin', HOME: home },
    })
    try {
      const draft = { name: 'A', command: 'sh', argsText: '', env: [], secretEnv: ['API_KEY'], defaultCwd: '' }
      const result = await service.handlers.saveAgentDefinition({ draft, secrets: { API_KEY: canary } })
      expect(result).toMatchObject({ ok: false, error: { kind: 'keychain-unavailable' } })
      expect(await service.secrets.set('a-1', 'API_KEY', canary)).toMatchObject({ ok: false, error: { kind: 'keychain-unavailable' } })
      expect(JSON.stringify(result)).not.toContain(canary)
      for (const file of await allFiles(home)) expect(file.text, file.path).not.toContain(canary)
      expect(await service.handlers.getKeychainStatus(undefined)).toMatchObject({ ok: true, value: { available: false } })
    } finally {
      service.dispose()
    }
  })

  it('the status the views show says only why: they say themselves that there is no keychain (it was said twice)', async () => {
    const service = await createAgentConfigService({ home, secretStore: createKeytarSecretStore({ load: failingLoader }), baseEnv: { PATH: '/usr/bin:/bin', HOME: home } })
    try {
      const status = await service.handlers.getKeychainStatus(undefined)
      expect(status).toEqual({ ok: true, value: { available: false, message: "Keytar could not be loaded: Cannot find module 'keytar.node'." } })
      // A failure is said on its own, so it keeps the whole sentence.
      const stored = await service.secrets.set('a-1', 'API_KEY', 'v')
      expect(stored).toMatchObject({ ok: false, error: { message: expect.stringMatching(/^The system keychain is not available \(keytar could not be loaded/) } })
    } finally {
      service.dispose()
    }
  })

  it('a backend that fails without saying why still gives the views a reason (not an empty one)', async () => {
    const silent: KeytarLike = {
      getPassword: async () => null,
      setPassword: async () => undefined,
      deletePassword: async () => false,
      findCredentials: async () => {
        throw new Error('')
      },
    }
    const service = await createAgentConfigService({ home, secretStore: createKeytarSecretStore({ load: async () => silent }), baseEnv: { PATH: '/usr/bin:/bin', HOME: home } })
    try {
      const status = await service.handlers.getKeychainStatus(undefined)
      expect(status).toMatchObject({ ok: true, value: { available: false, message: expect.stringMatching(/\w/) } })
      expect(await service.secrets.set('a-1', 'API_KEY', 'v')).toMatchObject({ ok: false, error: { message: expect.not.stringContaining('()') } })
    } finally {
      service.dispose()
    }
  })

  it('reports a backend that rejects (no Secret Service) and recovers when it returns', async () => {
    const fake = fakeKeytar()
    fake.setUp(false)
    const load = vi.fn(async () => fake.keytar)
    const store = createKeytarSecretStore({ load })
    expect(await store.set('a-1', 'K', 'v')).toMatchObject({ ok: false, error: { kind: 'keychain-unavailable', message: expect.stringContaining('org.freedesktop.secrets') } })
    expect(fake.data.size).toBe(0)
    fake.setUp(true)
    expect(await store.set('a-1', 'K', 'v')).toEqual({ ok: true, value: undefined })
    expect(fake.data.get('Bosun/a-1:K')).toBe('v')
    expect(load).toHaveBeenCalledTimes(1)
  })
})

describe('keytar secret store over a fake keytar', () => {
  it('uses service Bosun and account <agentId>:<NAME>, and deleteAll touches only that agent', async () => {
    const fake = fakeKeytar()
    const store = createKeytarSecretStore({ load: async () => fake.keytar })
    await store.set('a-1', 'K', 'one')
    await store.set('a-1', 'L', 'two')
    await store.set('a-10', 'K', 'other agent')
    expect(new Set(fake.data.keys())).toEqual(new Set(['Bosun/a-1:K', 'Bosun/a-1:L', 'Bosun/a-10:K']))
    expect(await store.resolveEnv('a-1', ['K', 'MISSING'])).toEqual({ ok: true, value: { K: 'one' } })
    expect(await store.deleteAll('a-1')).toEqual({ ok: true, value: 2 })
    expect([...fake.data.keys()]).toEqual(['Bosun/a-10:K'])
  })

  it('refuses bad names and empty values', async () => {
    const store = createKeytarSecretStore({ load: async () => fakeKeytar().keytar })
    expect(await store.set('a-1', 'BAD NAME', 'x')).toMatchObject({ ok: false, error: { kind: 'invalid-argument' } })
    expect(await store.set('a:1', 'K', 'x')).toMatchObject({ ok: false, error: { kind: 'invalid-argument' } })
    expect(await store.set('a-1', 'K', '')).toMatchObject({ ok: false, error: { kind: 'invalid-argument' } })
  })
})

describe('keytar secret store with a keychain that never answers', () => {
  it('counts it as unavailable after the probe timeout', async () => {
    vi.useFakeTimers()
    try {
      const hanging: KeytarLike = {
        getPassword: () => new Promise(() => undefined),
        setPassword: () => new Promise(() => undefined),
        deletePassword: () => new Promise(() => undefined),
        findCredentials: () => new Promise(() => undefined),
      }
      const store = createKeytarSecretStore({ load: async () => hanging, probeTimeoutMs: 5_000 })
      const pending = store.set('a-1', 'K', 'v')
      await vi.advanceTimersByTimeAsync(5_000)
      expect(await pending).toMatchObject({ ok: false, error: { kind: 'keychain-unavailable', message: expect.stringContaining('did not answer in time') } })
      expect(vi.getTimerCount()).toBe(0)
    } finally {
      vi.useRealTimers()
    }
  })
})
