import { describe, expect, it } from 'vitest'
import { whyCannotContinue } from '../../../renderer/screens/SessionScreen'

describe('where the composer was, when a session cannot go on', () => {
  it('says why: the agent said so, or the agent was removed from Bosun (and then offers no new session with it)', () => {
    expect(whyCannotContinue({ cannotContinue: null }, false)).toBeNull()
    expect(whyCannotContinue({ cannotContinue: { reason: 'The agent no longer has this session.' } }, false)).toEqual({ reason: 'The agent no longer has this session.', agentRemoved: false })
    expect(whyCannotContinue({ cannotContinue: { reason: 'The agent no longer has this session.' } }, true)).toEqual({
      reason: 'The agent of this session was removed from Bosun, so it cannot go on.',
      agentRemoved: true,
    })
  })
})
