/**
 * Agent secrets (API keys) in the OS keychain through keytar: service `Bosun`, account
 * `<agentId>:<ENV_NAME>`. There is no fallback: without a keychain a secret is refused
 * (`keychain-unavailable`), never written anywhere in plain text.
 *
 * keytar is a native module loaded lazily, so a missing or broken build (or no Secret Service on Linux)
 * is a value the UI can show, not a crash at startup. Values leave this module only through
 * {@link SecretStore.resolveEnv}, which the launcher calls at spawn time.
 */
import { createRequire } from 'node:module'
import { fail, ok, type Result } from '../base/errors'
import { ENV_NAME_PATTERN } from '../config/agent-definitions'

export const KEYCHAIN_SERVICE = 'Bosun'

/** The part of keytar we use. */
export interface KeytarLike {
  getPassword(service: string, account: string): Promise<string | null>
  setPassword(service: string, account: string, password: string): Promise<void>
  deletePassword(service: string, account: string): Promise<boolean>
  findCredentials(service: string): Promise<Array<{ account: string; password: string }>>
}

/**
 * `message`: the whole sentence, as a failure says it; `reason`: only why, as a sentence of its own, for a view that
 * says in its own words that the keychain is not available (the sentence was said twice there).
 */
export type KeychainState = { available: true } | { available: false; message: string; reason?: string }

export interface SecretStore {
  /** Whether a keychain can be used now (loads keytar and probes the backend once; cached while it works). */
  status(): Promise<KeychainState>
  set(agentId: string, name: string, value: string): Promise<Result<void>>
  has(agentId: string, name: string): Promise<Result<boolean>>
  delete(agentId: string, name: string): Promise<Result<void>>
  /** Removes every secret of the agent; the number removed. */
  deleteAll(agentId: string): Promise<Result<number>>
  /** The values of `names` that are set (unset names are left out). For spawning that agent only. */
  resolveEnv(agentId: string, names: readonly string[]): Promise<Result<Record<string, string>>>
}

export interface KeytarSecretStoreOptions {
  /** How keytar is loaded; inject a failing loader to test the no-keychain path. */
  load?: () => Promise<KeytarLike>
  service?: string
  /**
   * How long the first keychain call may take before the keychain counts as unavailable. With a D-Bus
   * session but no Secret Service, libsecret can wait for activation up to D-Bus's 25 s timeout.
   */
  probeTimeoutMs?: number
}

export const accountFor = (agentId: string, name: string): string => `${agentId}:${name}`

const defaultLoad = async (): Promise<KeytarLike> => {
  // createRequire rather than a static import: a missing .node binary throws here, inside a try.
  const require = createRequire(import.meta.url)
  const mod = require('keytar') as KeytarLike & { default?: KeytarLike }
  return mod.default ?? mod
}

export function createKeytarSecretStore(options: KeytarSecretStoreOptions = {}): SecretStore {
  const service = options.service ?? KEYCHAIN_SERVICE
  const load = options.load ?? defaultLoad
  const probeTimeoutMs = options.probeTimeoutMs ?? 5_000
  let keytar: KeytarLike | null = null
  let probed = false

  const sentence = (why: string) => `The system keychain is not available (${why}); secrets cannot be stored.`
  const unavailable = (why: string) => fail({ kind: 'keychain-unavailable', message: sentence(why) })

  /** keytar, loaded and known to reach a working backend, or why not. Retried on each call until it works. */
  async function reach(): Promise<{ ok: true; value: KeytarLike } | { ok: false; why: string }> {
    try {
      keytar ??= await load()
    } catch (error) {
      return { ok: false, why: `keytar could not be loaded: ${messageOf(error)}` }
    }
    if (!probed) {
      try {
        // A read that touches the Secret Service / Keychain / Credential Vault: fails fast when there is none.
        await withTimeout(keytar.findCredentials(service), probeTimeoutMs, 'the keychain did not answer in time')
        probed = true
      } catch (error) {
        return { ok: false, why: messageOf(error) }
      }
    }
    return { ok: true, value: keytar }
  }

  async function backend(): Promise<Result<KeytarLike>> {
    const k = await reach()
    return k.ok ? ok(k.value) : unavailable(k.why)
  }

  /** Runs one keychain operation; any rejection from keytar is a backend problem, reported as a value. */
  async function use<T>(op: (k: KeytarLike) => Promise<T>): Promise<Result<T>> {
    const k = await backend()
    if (!k.ok) return k
    try {
      return ok(await op(k.value))
    } catch (error) {
      probed = false
      return unavailable(messageOf(error))
    }
  }

  const badName = (agentId: string, name: string) =>
    !agentId || agentId.includes(':') || !ENV_NAME_PATTERN.test(name)
      ? fail({ kind: 'invalid-argument', message: `Not a valid secret name: ${name}` })
      : null

  return {
    async status() {
      const k = await reach()
      return k.ok ? { available: true } : { available: false, message: sentence(k.why), reason: asSentence(k.why) }
    },
    async set(agentId, name, value) {
      const bad = badName(agentId, name)
      if (bad) return bad
      if (!value) return fail({ kind: 'invalid-argument', message: 'A secret cannot be empty' })
      return use((k) => k.setPassword(service, accountFor(agentId, name), value))
    },
    async has(agentId, name) {
      const bad = badName(agentId, name)
      if (bad) return bad
      return use(async (k) => (await k.getPassword(service, accountFor(agentId, name))) !== null)
    },
    async delete(agentId, name) {
      const bad = badName(agentId, name)
      if (bad) return bad
      return use(async (k) => {
        await k.deletePassword(service, accountFor(agentId, name))
      })
    },
    async deleteAll(agentId) {
      if (!agentId || agentId.includes(':')) return fail({ kind: 'invalid-argument', message: `Not a valid agent id: ${agentId}` })
      return use(async (k) => {
        const prefix = `${agentId}:`
        let removed = 0
        for (const { account } of await k.findCredentials(service)) {
          if (account.startsWith(prefix) && (await k.deletePassword(service, account))) removed++
        }
        return removed
      })
    },
    async resolveEnv(agentId, names) {
      if (names.length === 0) return ok({})
      return use(async (k) => {
        const env: Record<string, string> = {}
        for (const name of names) {
          if (!ENV_NAME_PATTERN.test(name)) continue
          const value = await k.getPassword(service, accountFor(agentId, name))
          // An own property whatever the name (`__proto__` is a valid variable name).
          if (value !== null) Object.defineProperty(env, name, { value: value, enumerable: true, writable: true, configurable: true })
        }
        return env
      })
    },
  }
}

/** Rejects with `message` after `ms`; the timer is cleared either way. */
function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

/** `why` as a sentence of its own: a capital first letter and a full stop. */
function asSentence(why: string): string {
  const text = why.trim()
  if (text === '') return text
  return `${text[0]!.toUpperCase()}${text.slice(1)}${/[.!?]$/.test(text) ? '' : '.'}`
}

/** Why an operation failed, as the error says it; an error that says nothing still gives a reason (no empty "()"). */
function messageOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error)
  return text.trim() === '' ? 'the keychain gave no reason' : text
}
