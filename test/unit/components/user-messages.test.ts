import { describe, expect, it } from 'vitest'
import type { Entry } from '../../../common/session/types'
import { lastPrompts, noUserMessages, userMessagePositions } from '../../../renderer/components/transcript/user-messages'

const user = (id: string, notSent = false): Entry => ({ kind: 'user_message', id, content: [], ...(notSent ? { notSent: { message: 'Busy' } } : {}) })
const agent = (id: string): Entry => ({ kind: 'agent_message', id, content: [] })

/** A proxy that counts which entries are read. */
function counted(entries: Entry[]) {
  const read = new Set<number>()
  const list = new Proxy(entries, {
    get(target, prop, receiver) {
      if (typeof prop === 'string' && /^\d+$/.test(prop)) read.add(Number(prop))
      return Reflect.get(target, prop, receiver)
    },
  })
  return { list, read }
}

describe('the last prompts of a transcript', () => {
  it('finds the last user message and the last one sent', () => {
    const entries = [user('u0'), agent('a1'), user('u2'), agent('a3'), user('u4', true), agent('a5')]
    expect(lastPrompts(entries, noUserMessages())).toEqual({ lastPrompt: 4, lastSent: 2 })
    expect(lastPrompts([agent('a0')], noUserMessages())).toEqual({ lastPrompt: -1, lastSent: -1 })
    expect(lastPrompts([], noUserMessages())).toEqual({ lastPrompt: -1, lastSent: -1 })
  })

  it('reads only the entries appended since the last call (a long turn after one prompt was scanned whole at every render)', () => {
    const known = noUserMessages()
    const entries: Entry[] = [user('u0')]
    for (let i = 1; i < 5_000; i++) entries.push(agent(`a${i}`))
    expect(lastPrompts(entries, known).lastPrompt).toBe(0)
    const grown = [...entries, agent('a5000'), agent('a5001')]
    const { list, read } = counted(grown)
    expect(lastPrompts(list, known)).toEqual({ lastPrompt: 0, lastSent: 0 })
    // The two new entries, the ends the scan checks, and the prompt itself: not the 5,000 before.
    expect(read.size).toBeLessThan(10)
  })

  it('sees a prompt refused after it was scanned, and a new one appended', () => {
    const known = noUserMessages()
    const entries = [user('u0'), agent('a1'), user('u2')]
    expect(lastPrompts(entries, known)).toEqual({ lastPrompt: 2, lastSent: 2 })
    const refused = [entries[0]!, entries[1]!, user('u2', true)]
    expect(lastPrompts(refused, known)).toEqual({ lastPrompt: 2, lastSent: 0 })
    expect(lastPrompts([...refused, agent('a3'), user('u4')], known)).toEqual({ lastPrompt: 4, lastSent: 4 })
  })

  it('scans again a list that does not continue the one scanned (shorter, or other entries)', () => {
    const known = noUserMessages()
    userMessagePositions([user('u0'), agent('a1'), agent('a2')], known)
    expect(userMessagePositions([agent('b0'), user('b1'), agent('b2'), agent('b3')], known).at).toEqual([1])
    expect(userMessagePositions([agent('b0'), user('b1'), agent('b2'), agent('b3')], known).at).toEqual([1])
    expect(userMessagePositions([user('c0')], known).at).toEqual([0])
  })
})
