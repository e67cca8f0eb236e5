import { describe, expect, it } from 'vitest'
import { afterSignIn, lastMessageId, type SignInMark } from '../../../renderer/components/session/ReopenAfterSignIn'
import type { Entry, SessionState } from '../../../common/session/types'

const user = (id: string, notSent?: { message: string; code?: number }): Entry => ({ kind: 'user_message', id, content: [{ type: 'text', text: id }], ...(notSent ? { notSent } : {}) }) as Entry
const agent = (id: string): Entry => ({ kind: 'agent_message', id, content: [{ type: 'text', text: 'hi' }] }) as Entry
const refused = { message: 'Authentication required', code: -32000 }
const session = (entries: Entry[], error: { message: string; code?: number } | null = null): Pick<SessionState, 'entries' | 'turn'> =>
  ({ entries, turn: { state: 'idle', stopReason: null, error, background: null, completedTurns: 0 } }) as unknown as Pick<SessionState, 'entries' | 'turn'>

describe('afterSignIn: what the session says after a sign-in from it', () => {
  const mark: SignInMark = { signedInAt: 'u1' }
  it('nothing without a sign-in from the session, nor before a message went after it', () => {
    expect(afterSignIn(session([user('u1', refused)]), undefined)).toBeNull()
    expect(afterSignIn(session([user('u1', refused)]), mark)).toBeNull()
  })
  it('refused again for want of a sign-in (v2 refusal, or a v1 turn that ended with it): the session may need reopening', () => {
    expect(afterSignIn(session([user('u1', refused), user('u2', refused)]), mark)).toBe('refused-again')
    expect(afterSignIn(session([user('u1', refused), user('u2')], refused), mark)).toBe('refused-again')
  })
  it('a later message that went, or was refused for another reason: nothing', () => {
    expect(afterSignIn(session([user('u1', refused), user('u2'), agent('a1')]), mark)).toBeNull()
    expect(afterSignIn(session([user('u1', refused), user('u2', { message: 'Rate limited', code: 429 })]), mark)).toBeNull()
  })
  it('reopened: said until another message is sent', () => {
    const reopened: SignInMark = { signedInAt: 'u1', reopenedAt: 'u2' }
    expect(afterSignIn(session([user('u1', refused), user('u2', refused)]), reopened)).toBe('reopened')
    expect(afterSignIn(session([user('u1', refused), user('u2', refused), user('u3', refused)]), reopened)).toBeNull()
  })
  it('lastMessageId: the last user message, refused or not', () => {
    expect(lastMessageId(session([user('u1'), agent('a1')]))).toBe('u1')
    expect(lastMessageId(session([agent('a1')]))).toBeNull()
    expect(lastMessageId(undefined)).toBeNull()
  })
})
