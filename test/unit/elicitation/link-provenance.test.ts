import { describe, expect, it } from 'vitest'
import { applyActions, createSessionState } from '../../../common/session/reducer'
import type { SessionAction } from '../../../common/session/types'
import { linkOccursIn, linkSpellings, occursAsWholeLink } from '../../../main/elicitation/link-provenance'

function session(actions: SessionAction[]) {
  return applyActions(createSessionState({ sessionId: 's', agentId: 'a', protocolVersion: 1, cwd: '/w' }), actions)
}
const says = (text: string): SessionAction => ({ type: 'updates', updates: [{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } }] })

describe('linkOccursIn', () => {
  it('finds links in messages, thoughts, tool call content and plans, in the spellings Markdown gives them', () => {
    const state = session([
      says('Docs: [here](https://example.com/a?b=1&c=2) and www.example.org and https://例え.jp/パス'),
      { type: 'updates', updates: [{ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'maybe https://thought.example/' } }] },
      {
        type: 'updates',
        updates: [
          {
            sessionUpdate: 'tool_call',
            toolCallId: 't1',
            title: 'Fetch',
            kind: 'fetch',
            status: 'pending',
            content: [{ type: 'content', content: { type: 'text', text: 'result at https://tool.example/out' } }],
          },
        ],
      },
      { type: 'updates', updates: [{ sessionUpdate: 'plan', entries: [{ content: 'Read https://plan.example/step', priority: 'high', status: 'pending' }] }] },
    ])
    for (const url of [
      'https://example.com/a?b=1&c=2',
      'http://www.example.org',
      // markdown-it percent-encodes a non-ASCII path; the agent wrote it decoded.
      'https://例え.jp/%E3%83%91%E3%82%B9',
      'https://thought.example/',
      'https://tool.example/out',
      'https://plan.example/step',
    ]) {
      expect(linkOccursIn(state, url), url).toBe(true)
    }
  })

  it('does not find what only the person typed, or what no one wrote', () => {
    const state = session([{ type: 'local_prompt', content: [{ type: 'text', text: 'go to https://typed.example/' }] }, says('Sure.')])
    expect(linkOccursIn(state, 'https://typed.example/')).toBe(false)
    expect(linkOccursIn(state, 'https://evil.example/')).toBe(false)
    expect(linkOccursIn(session([]), 'https://evil.example/')).toBe(false)
  })

  it('spellings: literal, decoded, and without the http:// linkify adds to www.', () => {
    expect(linkSpellings('http://www.a.example/%41')).toEqual(['http://www.a.example/%41', 'http://www.a.example/A', 'www.a.example/%41', 'www.a.example/A'])
    // Invalid percent-encoding: only the literal spelling.
    expect(linkSpellings('https://a.example/%E0%A4%A')).toEqual(['https://a.example/%E0%A4%A'])
  })
})

describe('occursAsWholeLink', () => {
  it('accepts a link ended by the text, a space, Markdown or sentence punctuation', () => {
    const url = 'https://docs.example.com/a'
    for (const text of [url, `see ${url} now`, `[x](${url})`, `<${url}>`, `read ${url}.`, `${url}, then`, `"${url}"`, `(${url})`, `\`${url}\``]) {
      expect(occursAsWholeLink(text, url), text).toBe(true)
    }
  })

  it('refuses a truncation of a longer link or a tail of a longer word', () => {
    expect(occursAsWholeLink('https://good.example.com/x', 'https://good.example.co')).toBe(false)
    expect(occursAsWholeLink('https://good.example.com/x', 'https://good.example')).toBe(false)
    expect(occursAsWholeLink('http://127.0.0.1:8080/admin', 'http://127.0.0.1')).toBe(false)
    expect(occursAsWholeLink('https://docs.example.com/setup-evil', 'https://docs.example.com/setup')).toBe(false)
    expect(occursAsWholeLink('https://docs.example.com/a?b=1', 'https://docs.example.com/a')).toBe(false)
    expect(occursAsWholeLink('evilwww.example.org', 'www.example.org')).toBe(false)
    expect(occursAsWholeLink('https://a.example/www.example.org', 'www.example.org')).toBe(false)
    // A later whole occurrence still counts.
    expect(occursAsWholeLink('https://good.example.com and https://good.example.co', 'https://good.example.co')).toBe(true)
  })
})
