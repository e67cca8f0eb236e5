import { describe, expect, it } from 'vitest'
import { HandlerError } from '../../../main/acp/types'
import { DEFAULT_PERMISSION_TITLE, MAX_PERMISSION_DESCRIPTION_CHARS, MAX_PERMISSION_TITLE_CHARS, normalizePermissionRequest } from '../../../main/permissions/normalize'

const options = [
  { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
  { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
]

function expectInvalid(params: unknown): void {
  try {
    normalizePermissionRequest(params)
  } catch (error) {
    expect(error).toBeInstanceOf(HandlerError)
    expect((error as HandlerError).code).toBe(-32602)
    return
  }
  throw new Error('expected -32602')
}

describe('normalizePermissionRequest', () => {
  it('normalises a v1 request and hands back the toolCall as a patch', () => {
    const toolCall = { toolCallId: 'call_1', title: 'Write /tmp/a.txt', kind: 'edit', rawInput: { file_path: '/tmp/a.txt', content: 'x' } }
    const n = normalizePermissionRequest({ sessionId: 's1', toolCall, options })
    expect(n.sessionId).toBe('s1')
    expect(n.title).toBe('Write /tmp/a.txt')
    expect(n.description).toBeNull()
    expect(n.subject).toEqual({ type: 'tool_call', toolCallId: 'call_1' })
    expect(n.toolCallId).toBe('call_1')
    expect(n.toolCallPatch).toEqual(toolCall)
    expect(n.options).toEqual(options)
    expect(n.facts).toEqual({ toolKind: 'edit', commandSubject: null, rawInput: { file_path: '/tmp/a.txt', content: 'x' }, toolName: null, toolTitle: 'Write /tmp/a.txt', locations: [], content: [] })
  })

  it('keeps the v2 prompt title out of the tool call patch (G3)', () => {
    const n = normalizePermissionRequest({
      sessionId: 's1',
      title: 'Approve edit?',
      description: 'Allow the agent to edit a.rs?',
      subject: { type: 'tool_call', toolCall: { toolCallId: 'c1', title: 'Edit a.rs', kind: 'edit', locations: [{ path: '/p/a.rs' }] } },
      options,
    })
    expect(n.title).toBe('Approve edit?')
    expect(n.description).toBe('Allow the agent to edit a.rs?')
    expect(n.toolCallPatch).toEqual({ toolCallId: 'c1', title: 'Edit a.rs', kind: 'edit', locations: [{ path: '/p/a.rs' }] })
    expect(n.toolCallPatch).not.toHaveProperty('description')
    expect(n.facts.locations).toEqual(['/p/a.rs'])
  })

  it('reads a v2 command subject', () => {
    const n = normalizePermissionRequest({
      sessionId: 's1',
      title: 'Run tests?',
      subject: { type: 'command', command: 'npm test', cwd: '/p', toolCallId: 'c9' },
      options,
    })
    expect(n.subject).toEqual({ type: 'command', command: 'npm test', cwd: '/p', toolCallId: 'c9', terminalId: null })
    expect(n.toolCallId).toBe('c9')
    expect(n.toolCallPatch).toBeNull()
    expect(n.facts).toMatchObject({ toolKind: 'execute', commandSubject: { command: 'npm test', cwd: '/p' }, locations: [] })
  })

  it('keeps an unknown subject intact and derives no rule facts from it', () => {
    const subject = { type: '_acme_network', host: 'example.com', nested: { a: [1, 2] } }
    const n = normalizePermissionRequest({ sessionId: 's1', title: 'Open a socket?', subject, options })
    expect(n.subject).toEqual({ type: 'unknown', raw: subject })
    expect(n.facts).toEqual({ toolKind: null, commandSubject: null, rawInput: undefined, toolName: null, toolTitle: null, locations: [], content: [] })
  })

  it('treats a null subject and a missing description as none', () => {
    const n = normalizePermissionRequest({ sessionId: 's1', title: 'Elevate?', subject: null, description: null, options })
    expect(n.subject).toEqual({ type: 'none' })
    expect(n.description).toBeNull()
    expect(n.toolCallId).toBeNull()
  })

  it('keeps unknown option kinds as sent, names default to the id', () => {
    const n = normalizePermissionRequest({
      sessionId: 's1',
      title: 't',
      options: [
        { optionId: 'sb', name: 'Sandbox', kind: '_acme_sandbox' },
        { optionId: 'old', name: 'Allow', kind: 'allow' },
        { optionId: 'bare' },
      ],
    })
    expect(n.options).toEqual([
      { optionId: 'sb', name: 'Sandbox', kind: '_acme_sandbox' },
      { optionId: 'old', name: 'Allow', kind: 'allow' },
      { optionId: 'bare', name: 'bare', kind: '' },
    ])
  })

  it('follows the title fallback chain: v2 title, toolCall.title, stored title, default', () => {
    const lookupToolCall = (_s: string, id: string) => (id === 'known' ? { title: 'Stored title', toolKind: 'read' } : undefined)
    expect(normalizePermissionRequest({ sessionId: 's', title: 'V2', toolCall: { toolCallId: 'known', title: 'V1' }, options }, { lookupToolCall }).title).toBe('V2')
    expect(normalizePermissionRequest({ sessionId: 's', toolCall: { toolCallId: 'known', title: 'V1' }, options }, { lookupToolCall }).title).toBe('V1')
    const stored = normalizePermissionRequest({ sessionId: 's', toolCall: { toolCallId: 'known' }, options }, { lookupToolCall })
    expect(stored.title).toBe('Stored title')
    expect(stored.facts.toolKind).toBe('read')
    expect(normalizePermissionRequest({ sessionId: 's', toolCall: { toolCallId: 'new' }, options }, { lookupToolCall }).title).toBe(DEFAULT_PERMISSION_TITLE)
    expect(normalizePermissionRequest({ sessionId: 's', title: '   ', options }).title).toBe(DEFAULT_PERMISSION_TITLE)
  })

  it('hands the raw input, the tool name (v2 name or _meta) and the tool title to the rule identity', () => {
    const facts = (toolCall: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
      normalizePermissionRequest({ sessionId: 's', toolCall: { toolCallId: 'c', ...toolCall }, options, ...extra }).facts
    expect(facts({ kind: 'execute', rawInput: { command: ['git', 'status'] } }).rawInput).toEqual({ command: ['git', 'status'] })
    expect(facts({ kind: 'other', name: 'github.get_issue' }).toolName).toBe('github.get_issue')
    expect(facts({ kind: 'other', _meta: { claudeCode: { toolName: 'mcp__gh__get_issue' } } }).toolName).toBe('mcp__gh__get_issue')
    expect(facts({ kind: 'other', _meta: { a: { toolName: 'x' }, b: { toolName: 'y' } } }).toolName).toBe('x / y')
    expect(facts({ kind: 'other', title: 'Get issue' }).toolTitle).toBe('Get issue')
    expect(facts({ kind: 'other' }, { title: 'Approve?' }).toolTitle).toBeNull()
  })

  it('accepts empty options (the broker answers cancelled)', () => {
    expect(normalizePermissionRequest({ sessionId: 's', title: 't', options: [] }).options).toEqual([])
  })

  it('keeps options that repeat an id, told apart; an id under two kinds counts as no known kind (G5)', () => {
    const mixed = normalizePermissionRequest({
      sessionId: 's',
      title: 't',
      options: [
        { optionId: 'x', name: 'Allow', kind: 'allow_once' },
        { optionId: 'x', name: 'Reject', kind: 'reject_once' },
        { optionId: 'y', name: 'Later', kind: 'reject_always' },
      ],
    })
    expect(mixed.options).toEqual([
      { optionId: 'x', name: 'Allow', kind: '' },
      { optionId: 'x', name: 'Reject', kind: '' },
      { optionId: 'y', name: 'Later', kind: 'reject_always' },
    ])
    expect(mixed.sharedIdNote).toBe('The agent gave “Allow”, “Reject” one answer between them: whichever you choose, it hears the same.')

    const same = normalizePermissionRequest({
      sessionId: 's',
      title: 't',
      options: [
        { optionId: 'ok', name: 'Allow', kind: 'allow_once' },
        { optionId: 'ok', name: 'Allow', kind: 'allow_once' },
      ],
    })
    expect(same.options.map((o) => [o.name, o.kind])).toEqual([
      ['Allow (1)', 'allow_once'],
      ['Allow (2)', 'allow_once'],
    ])
    expect(normalizePermissionRequest({ sessionId: 's', title: 't', options }).sharedIdNote).toBeNull()
  })

  it('rejects malformed params with -32602', () => {
    expectInvalid(null)
    expectInvalid([])
    expectInvalid({ title: 't', options })
    expectInvalid({ sessionId: '', title: 't', options })
    expectInvalid({ sessionId: 's', title: 't' })
    expectInvalid({ sessionId: 's', title: 't', options: {} })
    expectInvalid({ sessionId: 's', title: 't', options: [{ name: 'x', kind: 'allow_once' }] })
    expectInvalid({ sessionId: 's', title: 't', options: ['allow'] })
    expectInvalid({ sessionId: 's', toolCall: { title: 'no id' }, options })
    expectInvalid({ sessionId: 's', title: 't', subject: { type: 'tool_call' }, options })
    expectInvalid({ sessionId: 's', title: 't', subject: { type: 'command', cwd: '/p' }, options })
    expectInvalid({ sessionId: 's', title: 't', subject: 'tool_call', options })
  })
})

it('cuts a title and a description as the approval draws them', () => {
  const request = normalizePermissionRequest({
    sessionId: 's',
    title: 't'.repeat(10_000),
    description: 'd'.repeat(20_000),
    options: [{ optionId: 'a', name: 'Allow', kind: 'allow_once' }],
  })
  expect(request.title).toBe(`${'t'.repeat(MAX_PERMISSION_TITLE_CHARS)}…`)
  expect(request.description).toBe(`${'d'.repeat(MAX_PERMISSION_DESCRIPTION_CHARS)}…`)
})
