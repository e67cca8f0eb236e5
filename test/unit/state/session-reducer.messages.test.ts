import { describe, expect, it } from 'vitest'
import { apply, eachUpdate, messages, session, summary, text, updates } from './helpers'

describe('message chunks (H4, H19)', () => {
  it('appends consecutive v1 chunks without messageId to one message, merging text', () => {
    const s = updates(
      session(1),
      { sessionUpdate: 'agent_message_chunk', content: text('Hel') },
      { sessionUpdate: 'agent_message_chunk', content: text('lo') },
    )
    expect(summary(s.entries)).toEqual(['agent_message:Hello'])
    expect(messages(s)[0]!.content).toEqual([{ type: 'text', text: 'Hello' }])
  })

  it('merges text across batches too', () => {
    const s = eachUpdate(
      session(1),
      { sessionUpdate: 'agent_message_chunk', content: text('a') },
      { sessionUpdate: 'agent_message_chunk', content: text('b') },
      { sessionUpdate: 'agent_message_chunk', content: text('c') },
    )
    expect(summary(s.entries)).toEqual(['agent_message:abc'])
  })

  it('tolerates an empty first text chunk', () => {
    const s = updates(
      session(1),
      { sessionUpdate: 'agent_message_chunk', content: text('') },
      { sessionUpdate: 'agent_message_chunk', content: text('x') },
    )
    expect(summary(s.entries)).toEqual(['agent_message:x'])
  })

  it('starts a new v1 message after another kind of entry', () => {
    const s = updates(
      session(1),
      { sessionUpdate: 'agent_message_chunk', content: text('one') },
      { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Read' },
      { sessionUpdate: 'agent_message_chunk', content: text('two') },
      { sessionUpdate: 'agent_thought_chunk', content: text('hmm') },
      { sessionUpdate: 'agent_message_chunk', content: text('three') },
    )
    expect(summary(s.entries)).toEqual([
      'agent_message:one',
      'tool_call:t1',
      'agent_message:two',
      'agent_thought:hmm',
      'agent_message:three',
    ])
  })

  it('same messageId continues a message; a changed messageId starts a new one', () => {
    const s = updates(
      session(1),
      { sessionUpdate: 'agent_message_chunk', messageId: 'm1', content: text('a') },
      { sessionUpdate: 'agent_message_chunk', messageId: 'm1', content: text('b') },
      { sessionUpdate: 'agent_message_chunk', messageId: 'm2', content: text('c') },
    )
    expect(summary(s.entries)).toEqual(['agent_message:ab', 'agent_message:c'])
    expect(messages(s).map((m) => m.id)).toEqual(['agent:m1', 'agent:m2'])
  })

  it('v1: a chunk without messageId after a message with one starts a message of its own (codex-acp\'s error after a cut-off answer)', () => {
    const s = updates(
      session(1),
      { sessionUpdate: 'agent_message_chunk', messageId: 'msg_1', content: text('Starting a long answer that ') },
      { sessionUpdate: 'agent_message_chunk', content: text('stream disconnected before completion\n\n') },
      { sessionUpdate: 'agent_message_chunk', content: text('(more of the notice)') },
    )
    expect(summary(s.entries)).toEqual(['agent_message:Starting a long answer that ', 'agent_message:stream disconnected before completion\n\n(more of the notice)'])
  })

  it('v2: interleaved chunks of different messages go to their own messages; id spaces are per type', () => {
    const s = updates(
      session(2),
      { sessionUpdate: 'agent_message_chunk', messageId: 'm1', content: text('a') },
      { sessionUpdate: 'agent_thought_chunk', messageId: 'm1', content: text('t') },
      { sessionUpdate: 'agent_message_chunk', messageId: 'm2', content: text('x') },
      { sessionUpdate: 'agent_message_chunk', messageId: 'm1', content: text('b') },
    )
    expect(summary(s.entries)).toEqual(['agent_message:ab', 'agent_thought:t', 'agent_message:x'])
  })

  it('v2: a chunk without messageId is malformed and ignored', () => {
    const s = updates(session(2), { sessionUpdate: 'agent_message_chunk', content: text('a') })
    expect(s.entries).toEqual([])
  })

  it('keeps non-text blocks and does not merge text around them', () => {
    const link = { type: 'resource_link', uri: 'file:///a', name: 'a' }
    const s = updates(
      session(1),
      { sessionUpdate: 'agent_message_chunk', content: text('a') },
      { sessionUpdate: 'agent_message_chunk', content: link },
      { sessionUpdate: 'agent_message_chunk', content: text('b') },
      { sessionUpdate: 'agent_message_chunk', content: { type: '_future_block', x: 1 } },
    )
    expect(messages(s)[0]!.content).toEqual([text('a'), link, text('b'), { type: '_future_block', x: 1 }])
  })

  it.each([1, 2] as const)('v%s: keeps an audio block as it came, between text it does not merge across', (version) => {
    const audio = { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' }
    const messageId = version === 2 ? { messageId: 'm' } : {}
    const s = updates(
      session(version),
      { sessionUpdate: 'agent_message_chunk', ...messageId, content: text('listen: ') },
      { sessionUpdate: 'agent_message_chunk', ...messageId, content: audio },
      { sessionUpdate: 'agent_message_chunk', ...messageId, content: text('done') },
    )
    expect(summary(s.entries)).toEqual(['agent_message:listen: |[audio]|done'])
    expect(messages(s)[0]!.content).toEqual([text('listen: '), audio, text('done')])
  })

  it('ignores malformed chunks and keeps applying the rest', () => {
    const s = updates(
      session(1),
      { sessionUpdate: 'agent_message_chunk', content: 'not a block' },
      { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 42 } },
      { sessionUpdate: 'agent_message_chunk' },
      { sessionUpdate: 'agent_message_chunk', content: text('ok') },
    )
    expect(summary(s.entries)).toEqual(['agent_message:ok'])
  })
})

describe('v2 whole-message upserts (H20)', () => {
  it('[A] → chunk B → [A,B]; agent_message [C] → [C]; chunk D → [C,D]', () => {
    let s = updates(session(2), { sessionUpdate: 'agent_message', messageId: 'm', content: [text('A'), { type: 'image', data: 'x', mimeType: 'image/png' }] })
    s = updates(s, { sessionUpdate: 'agent_message_chunk', messageId: 'm', content: text('B') })
    expect(messages(s)[0]!.content).toHaveLength(3)
    s = updates(s, { sessionUpdate: 'agent_message', messageId: 'm', content: [text('C')] })
    expect(messages(s)[0]!.content).toEqual([text('C')])
    s = updates(s, { sessionUpdate: 'agent_message_chunk', messageId: 'm', content: text('D') })
    expect(summary(s.entries)).toEqual(['agent_message:CD'])
  })

  it.each([
    ['omitted keeps', {}, ['agent_thought:keep']],
    ['null clears', { content: null }, ['agent_thought:']],
    ['[] clears', { content: [] }, ['agent_thought:']],
    ['array replaces', { content: [text('new')] }, ['agent_thought:new']],
  ])('content %s', (_name, patch, expected) => {
    let s = updates(session(2), { sessionUpdate: 'agent_thought', messageId: 'm', content: [text('keep')] })
    s = updates(s, { sessionUpdate: 'agent_thought', messageId: 'm', ...patch })
    expect(summary(s.entries)).toEqual(expected)
  })

  it('first-seen id without content starts empty; _meta patches by key and null clears', () => {
    let s = updates(session(2), { sessionUpdate: 'user_message', messageId: 'u', _meta: { a: 1, b: 2 } })
    expect(messages(s)[0]).toMatchObject({ kind: 'user_message', content: [], _meta: { a: 1, b: 2 } })
    s = updates(s, { sessionUpdate: 'user_message', messageId: 'u', _meta: { a: null, c: 3 } })
    expect(messages(s)[0]!._meta).toEqual({ b: 2, c: 3 })
    s = updates(s, { sessionUpdate: 'user_message', messageId: 'u', _meta: null })
    expect(messages(s)[0]!._meta).toBeUndefined()
  })
})

describe('echo of our own prompt', () => {
  it('v1: skips user_message_chunks that repeat the local prompt, streamed in pieces', () => {
    let s = apply(session(1), { type: 'local_prompt', content: [text('fix the bug')] })
    s = updates(
      s,
      { sessionUpdate: 'user_message_chunk', content: text('fix ') },
      { sessionUpdate: 'user_message_chunk', content: text('the bug') },
      { sessionUpdate: 'agent_message_chunk', content: text('ok') },
    )
    expect(summary(s.entries)).toEqual(['user_message:fix the bug', 'agent_message:ok'])
    expect(messages(s)[0]!.local).toBe(true)
    expect(s.pendingEcho).toBeNull()
  })

  it('v1: a user chunk that is not the echo is added as a new message, not merged into ours', () => {
    let s = apply(session(1), { type: 'local_prompt', content: [text('hello')] })
    s = updates(s, { sessionUpdate: 'user_message_chunk', content: text('something else') })
    expect(summary(s.entries)).toEqual(['user_message:hello', 'user_message:something else'])
  })

  it('v1: after the echo is consumed, later user chunks are added (e.g. history)', () => {
    let s = apply(session(1), { type: 'local_prompt', content: [text('hi')] })
    s = updates(s, { sessionUpdate: 'user_message_chunk', content: text('hi') })
    s = apply(s, { type: 'turn_ended', stopReason: 'end_turn' })
    s = updates(s, { sessionUpdate: 'user_message_chunk', content: text('hi') })
    expect(summary(s.entries)).toEqual(['user_message:hi', 'user_message:hi'])
  })

  it('v1: a chunk without messageId after the turn ended starts a message of its own (Gemini CLI’s mode notes)', () => {
    let s = apply(session(1), { type: 'local_prompt', content: [text('edit it')] })
    s = updates(s, { sessionUpdate: 'agent_message_chunk', content: text('Done: I created ') }, { sessionUpdate: 'agent_message_chunk', content: text('new.txt.') })
    s = apply(s, { type: 'turn_ended', stopReason: 'end_turn' })
    // Gemini CLI says so when the mode changes, between turns, before it answers session/set_mode.
    s = updates(s, { sessionUpdate: 'agent_message_chunk', content: text('[MODE_UPDATE] ') }, { sessionUpdate: 'agent_message_chunk', content: text('yolo') })
    expect(summary(s.entries)).toEqual(['user_message:edit it', 'agent_message:Done: I created new.txt.', 'agent_message:[MODE_UPDATE] yolo'])
    // The next turn's answer is its own message too.
    s = apply(s, { type: 'local_prompt', content: [text('next')] })
    s = updates(s, { sessionUpdate: 'agent_message_chunk', content: text('ok') })
    expect(summary(s.entries).slice(-2)).toEqual(['user_message:next', 'agent_message:ok'])
  })

  it('v1: a chunk without messageId after a plan or news of an earlier tool call starts a message: the model took another step', () => {
    // A v1 agent without message ids (Gemini CLI): the text of the step before the work and the step after it read
    // as one paragraph ("I will update the plan.Now the file."), the plan or the card's news between them unseen.
    let s = apply(session(1), { type: 'local_prompt', content: [text('go')] })
    s = updates(
      s,
      { sessionUpdate: 'agent_message_chunk', content: text('I will read it.') },
      { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Read', status: 'in_progress' },
      { sessionUpdate: 'agent_message_chunk', content: text('Reading; ') },
      { sessionUpdate: 'agent_message_chunk', content: text('meanwhile the plan.') },
      { sessionUpdate: 'plan', entries: [{ content: 'Read', priority: 'medium', status: 'in_progress' }] },
      { sessionUpdate: 'agent_message_chunk', content: text('Planned.') },
      { sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed' },
      { sessionUpdate: 'agent_message_chunk', content: text('It was read') },
      // Updates that report no work leave a message streaming on.
      { sessionUpdate: 'usage_update', used: 10, size: 100 },
      { sessionUpdate: 'session_info_update', title: 'Reading' },
      { sessionUpdate: 'agent_message_chunk', content: text(', all of it.') },
    )
    expect(summary(s.entries)).toEqual([
      'user_message:go',
      'agent_message:I will read it.',
      'tool_call:t1',
      'agent_message:Reading; meanwhile the plan.',
      'agent_message:Planned.',
      'agent_message:It was read, all of it.',
    ])
    // The same, an update per batch.
    let e = apply(session(1), { type: 'local_prompt', content: [text('go')] })
    e = eachUpdate(
      e,
      { sessionUpdate: 'agent_message_chunk', content: text('A.') },
      { sessionUpdate: 'plan', entries: [] },
      { sessionUpdate: 'agent_message_chunk', content: text('B') },
      { sessionUpdate: 'agent_message_chunk', content: text('.') },
    )
    expect(summary(e.entries)).toEqual(['user_message:go', 'agent_message:A.', 'agent_message:B.'])
  })

  it('v1: chunks with a messageId stay one message across a plan or a tool call\'s news', () => {
    const s = updates(
      session(1),
      { sessionUpdate: 'agent_message_chunk', messageId: 'm1', content: text('One ') },
      { sessionUpdate: 'plan', entries: [] },
      { sessionUpdate: 'agent_message_chunk', messageId: 'm1', content: text('message.') },
    )
    expect(summary(s.entries)).toEqual(['agent_message:One message.'])
  })

  it('v2: user_message inserted with the prompt text reconciles with the local echo (one bubble)', () => {
    let s = apply(session(2), { type: 'local_prompt', content: [text('prompt 1')] })
    s = updates(s, { sessionUpdate: 'user_message', messageId: 'u1', content: [text('prompt 1')] })
    expect(summary(s.entries)).toEqual(['user_message:prompt 1'])
    expect(messages(s)[0]).toMatchObject({ local: true, messageId: 'u1' })
    // Later updates for that id land on the same bubble.
    s = updates(s, { sessionUpdate: 'user_message', messageId: 'u1', content: [text('prompt 1 (edited)')] })
    expect(summary(s.entries)).toEqual(['user_message:prompt 1 (edited)'])
  })

  it('v2: echo chunks with a messageId are skipped and the id is adopted', () => {
    let s = apply(session(2), { type: 'local_prompt', content: [text('abc')] })
    s = updates(
      s,
      { sessionUpdate: 'user_message_chunk', messageId: 'u1', content: text('ab') },
      { sessionUpdate: 'user_message_chunk', messageId: 'u1', content: text('c') },
    )
    expect(summary(s.entries)).toEqual(['user_message:abc'])
    expect(messages(s)[0]!.messageId).toBe('u1')
  })

  it('v2: the insertion arriving before local_prompt with the same messageId gives one bubble', () => {
    let s = updates(session(2), { sessionUpdate: 'user_message', messageId: 'u1', content: [text('x')] })
    s = apply(s, { type: 'local_prompt', content: [text('x')], messageId: 'u1' })
    expect(summary(s.entries)).toEqual(['user_message:x'])
    expect(messages(s)[0]!.local).toBe(true)
  })
})

describe('v2: the prompt\'s insertion is reconciled by messageId, whatever the agent echoes (F6)', () => {
  const inserted = (messageId: string) => ({ type: 'prompt_inserted' as const, messageId })
  const userChunk = (messageId: string, t: string) => ({ sessionUpdate: 'user_message_chunk', messageId, content: text(t) })

  it('echo chunks with another text before the answer: one bubble, with the agent\'s text', () => {
    let s = apply(session(2), { type: 'local_prompt', content: [text('fix it')] }, { type: 'turn_started' })
    s = updates(s, userChunk('u1', 'Fix '), userChunk('u1', 'the bug please'))
    s = apply(s, inserted('u1'))
    s = updates(s, { sessionUpdate: 'agent_message_chunk', messageId: 'a1', content: text('ok') })
    expect(summary(s.entries)).toEqual(['user_message:Fix the bug please', 'agent_message:ok'])
    expect(messages(s)[0]).toMatchObject({ local: true, messageId: 'u1' })
    expect(s.pendingEcho).toBeNull()
  })

  it.each([
    ['chunks', [userChunk('u1', 'Fix '), userChunk('u1', 'the bug please')]],
    ['a whole user_message', [{ sessionUpdate: 'user_message', messageId: 'u1', content: [text('Fix the bug please')] }]],
  ])('the answer first, then the echo as %s with another text: one bubble, with the agent\'s text', (_, echo) => {
    let s = apply(session(2), { type: 'local_prompt', content: [text('fix it')] }, { type: 'turn_started' }, inserted('u1'))
    expect(messages(s)[0]).toMatchObject({ local: true, messageId: 'u1' })
    s = eachUpdate(s, ...echo)
    expect(summary(s.entries)).toEqual(['user_message:Fix the bug please'])
    expect(messages(s)[0]).toMatchObject({ local: true, messageId: 'u1' })
    expect(s.pendingEcho).toBeNull()
  })

  it('an echo that starts like the prompt and then differs is the agent\'s text, not the prompt with the rest appended', () => {
    let s = apply(session(2), { type: 'local_prompt', content: [text('fix the bug')] }, inserted('u1'))
    s = updates(s, userChunk('u1', 'fix '), userChunk('u1', 'it, then test'))
    expect(summary(s.entries)).toEqual(['user_message:fix it, then test'])
    // Later chunks of that message append to the agent's version.
    s = updates(s, userChunk('u1', '!'))
    expect(summary(s.entries)).toEqual(['user_message:fix it, then test!'])
  })

  it('an echo that repeats the prompt exactly, with the answer after it: one bubble, nothing changes on screen', () => {
    let s = apply(session(2), { type: 'local_prompt', content: [text('abc'), { type: 'image', data: 'AA==', mimeType: 'image/png' }] })
    s = updates(s, userChunk('u1', 'ab'))
    expect(summary(s.entries)).toEqual(['user_message:abc|[image]'])
    s = updates(s, userChunk('u1', 'c'), { sessionUpdate: 'user_message_chunk', messageId: 'u1', content: { type: 'image', data: 'AA==', mimeType: 'image/png' } })
    s = apply(s, inserted('u1'))
    expect(summary(s.entries)).toEqual(['user_message:abc|[image]'])
    expect(messages(s)[0]).toMatchObject({ local: true, messageId: 'u1' })
  })

  it('once the answer named the insertion, another user message is a bubble of its own, and the echo still lands on ours', () => {
    let s = apply(session(2), { type: 'local_prompt', content: [text('mine')] }, inserted('u2'))
    s = updates(s, userChunk('u1', 'injected by the agent'), userChunk('u2', 'mine, rewritten'))
    expect(summary(s.entries)).toEqual(['user_message:mine, rewritten', 'user_message:injected by the agent'])
    expect(messages(s)[0]).toMatchObject({ local: true, messageId: 'u2' })
  })

  it('v1 has no insertion: prompt_inserted changes nothing', () => {
    const s = apply(session(1), { type: 'local_prompt', content: [text('hi')] }, inserted('u1'))
    expect(messages(s)[0]!.messageId).toBeUndefined()
  })
})

describe('v2 insertion reconciliation when the agent rewrites the prompt', () => {
  it('the first new user_message after a local prompt becomes that bubble, with the agent content', () => {
    let s = apply(session(2), { type: 'local_prompt', content: [text('see @a.ts')] })
    s = updates(s, { sessionUpdate: 'user_message', messageId: 'u1', content: [text('see '), { type: 'resource', resource: { uri: 'file:///a.ts', text: 'x' } }] })
    expect(messages(s)).toHaveLength(1)
    expect(messages(s)[0]).toMatchObject({ local: true, messageId: 'u1', content: [text('see '), { type: 'resource' }] })
    // A later, different user message is a new bubble.
    s = updates(s, { sessionUpdate: 'user_message', messageId: 'u2', content: [text('other')] })
    expect(summary(s.entries)).toEqual(['user_message:see |[resource]', 'user_message:other'])
  })
})
