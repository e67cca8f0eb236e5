import { fail, ok } from '../../../main/base/errors'
import type { SecretStore } from '../../../main/secrets/secret-store'

/** A {@link SecretStore} in memory for tests; `available: false` behaves like a machine without a keychain. */
export function createMemorySecretStore(options: { available?: boolean } = {}): SecretStore & { entries: Map<string, string> } {
  const entries = new Map<string, string>()
  const available = options.available ?? true
  const off = () => fail({ kind: 'keychain-unavailable', message: 'no keychain (test)' })
  return {
    entries,
    status: async () => (available ? { available: true } : { available: false, message: 'no keychain (test)' }),
    set: async (agentId, name, value) => (available ? (entries.set(`${agentId}:${name}`, value), ok(undefined)) : off()),
    has: async (agentId, name) => (available ? ok(entries.has(`${agentId}:${name}`)) : off()),
    delete: async (agentId, name) => (available ? (entries.delete(`${agentId}:${name}`), ok(undefined)) : off()),
    deleteAll: async (agentId) => {
      if (!available) return off()
      let n = 0
      for (const key of [...entries.keys()]) if (key.startsWith(`${agentId}:`) && entries.delete(key)) n++
      return ok(n)
    },
    resolveEnv: async (agentId, names) => {
      if (!available) return names.length ? off() : ok({})
      const env: Record<string, string> = {}
      for (const name of names) {
        const value = entries.get(`${agentId}:${name}`)
        if (value !== undefined) env[name] = value
      }
      return ok(env)
    },
  }
}
