/**
 * A failed agent-driven login as the person is told it (`loginFailure`): a new failure each time. The one it is given
 * may be shared: `toFailure` hands back a BosunError's own failure, and a closed connection rejects every later request
 * with one error, so changing it in place grew the message at each try and changed what every other caller shows.
 */
import { describe, expect, it } from 'vitest'
import type { AuthMethodSummary } from '../../../main/acp/types'
import { BosunError, toFailure } from '../../../main/base/errors'
import { loginFailure } from '../../../main/agents-tools/service'

const copilot: AuthMethodSummary = {
  id: 'copilot-login',
  name: 'Log in to Copilot',
  type: 'agent',
  raw: { id: 'copilot-login', name: 'Log in to Copilot', _meta: { 'terminal-auth': { command: '/opt/copilot/copilot', args: ['--login'] } } },
}
const plain: AuthMethodSummary = { id: 'm', name: 'Login', type: 'agent', raw: { id: 'm', name: 'Login' } }

describe('a failed login, as told', () => {
  it('says why and what to run, on a new failure: the shared error is unchanged and a second try reads the same', () => {
    const shared = new BosunError({ kind: 'auth-required', message: 'Internal error.', data: { details: 'Not signed in' } })
    const first = loginFailure(toFailure(shared), copilot, 'npx')
    expect(first.message).toBe(
      "Internal error: Not signed in. For “Log in to Copilot”, the agent names a command to run in a terminal: /opt/copilot/copilot --login. Bosun starts such a command itself only when it is the agent's own program (npx); if you trust this one, run it yourself in a terminal, then try again.",
    )
    expect(first).toMatchObject({ kind: 'auth-required', data: { details: 'Not signed in' } })
    expect(shared.failure.message).toBe('Internal error.')
    expect(loginFailure(toFailure(shared), copilot, 'npx')).toEqual(first)
  })

  it('is the failure itself when there is nothing to add', () => {
    const failure = { kind: 'rpc-error' as const, message: 'Refused' }
    expect(loginFailure(failure, plain, 'agent')).toBe(failure)
    expect(loginFailure({ ...failure, data: { details: 'Refused' } }, plain, undefined).message).toBe('Refused')
  })

  it('says the agent’s words without JSON-RPC’s "Internal error: " before them (kept when nothing follows it)', () => {
    expect(loginFailure({ kind: 'rpc-error', message: 'Internal error: OPENAI_API_KEY is not set' }, plain, undefined).message).toBe('OPENAI_API_KEY is not set')
    expect(loginFailure({ kind: 'rpc-error', message: 'Internal error', data: { details: 'Not signed in' } }, plain, undefined).message).toBe('Internal error: Not signed in')
  })
})
