/**
 * A machine without a keychain (no Secret Service): an agent whose definition lists keys (the Claude, Codex and
 * Gemini presets do, for a key that is often left unset in favour of a login) still starts, without them, and
 * each of its new sessions says so. An agent without keys gets no such notice.
 */
import { describe, expect, it } from 'vitest'
import { createMemorySecretStore } from '../../unit/secrets/memory-secret-store'
import { must, servicesPerTest } from '../../support/services'

const startServices = servicesPerTest()

describe('no keychain', () => {
  it('an agent with keys starts without them, and its sessions say which and why', async () => {
    const { handlers, workspace } = await startServices(
      [
        { id: 'keyed', name: 'Keyed', scenario: 'basic', secretEnv: ['ACME_API_KEY'] },
        { id: 'plain', name: 'Plain', scenario: 'basic' },
      ],
      undefined,
      { secretStore: createMemorySecretStore({ available: false }) },
    )
    const keyed = must(await handlers.newSession({ agentId: 'keyed', cwd: workspace }))
    const plain = must(await handlers.newSession({ agentId: 'plain', cwd: workspace }))
    // A second session on the running agent says it too.
    const again = must(await handlers.newSession({ agentId: 'keyed', cwd: workspace }))

    const sessions = must(await handlers.getSnapshot(undefined)).sessions
    const noticesOf = (sessionId: string) => sessions.find((s) => s.sessionId === sessionId)!.notices
    for (const { sessionId } of [keyed, again]) {
      expect(noticesOf(sessionId)).toEqual([
        expect.objectContaining({ severity: 'warning', title: expect.stringContaining('runs without ACME_API_KEY'), description: expect.stringContaining('no keychain (test)') }),
      ])
    }
    expect(noticesOf(plain.sessionId)).toEqual([])
    // The session works.
    expect(must(await handlers.prompt({ sessionId: keyed.sessionId, prompt: [{ type: 'text', text: 'hi' }] })).stopReason).toBe('end_turn')
  })
})
