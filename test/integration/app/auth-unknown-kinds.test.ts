/**
 * B10 through the composition root: a -32000 is a sign-in to offer only when the agent listed a method Bosun can run
 * (agent, terminal, env var) or its definition names keys. Methods of kinds Bosun does not know (a v1 `type` it has no
 * use for, a v2 method without one) are no way to sign in: the refusal is an rpc-error with the agent's words.
 */
import { describe, expect, it } from 'vitest'
import { servicesPerTest } from '../../support/services'

const startServices = servicesPerTest()

describe('-32000 from an agent whose auth methods are all of kinds Bosun cannot run', () => {
  it.each([
    ['v1', false],
    ['v2', true],
  ])('%s: no sign-in is offered, unless its definition names keys', async (_label, v2) => {
    const { handlers, workspace } = await startServices([
      { id: 'unknown', name: 'Unknown kinds', scenario: 'auth-unknown-kinds', v2 },
      { id: 'keys', name: 'With keys', scenario: 'auth-unknown-kinds', v2, secretEnv: ['ACME_API_KEY'] },
    ])
    expect(await handlers.newSession({ agentId: 'unknown', cwd: workspace })).toMatchObject({ ok: false, error: { kind: 'rpc-error', code: -32000 } })
    expect(await handlers.newSession({ agentId: 'keys', cwd: workspace })).toMatchObject({ ok: false, error: { kind: 'auth-required', code: -32000 } })
  })
})
