/**
 * The window names a tool call or terminal it asks main to cancel by `itemHandle`: the agent's id, or a long one by
 * its hash. A 3,000-character id went as it was, the contract refused it (2,048) and Cancel did nothing. The session
 * screen's actions (the hooks it uses, rendered once) send what the contract takes; main finds the item by it.
 */
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { calls, type CallResult } from '../../../common/contract'
import { applyActions, createSessionState } from '../../../common/session/reducer'
import { canCancelToolCall, itemHandle, MAX_QUOTED_ITEM_ID, terminalByHandle, toolCallByHandle } from '../../../common/session/background'
import { sha256Hex } from '../../../main/base/sha256'
import { useToolCallActions, type ToolCallActions } from '../../../renderer/components/transcript/tool-call-actions'
import { useTerminalActions, type TerminalActions } from '../../../renderer/components/transcript/terminal-actions'

const long = (prefix: string) => `${prefix}-${'x'.repeat(3_000)}`
const report = () => (_result: CallResult<unknown>) => undefined

describe('itemHandle', () => {
  it('quotes an id up to the bound; names a longer one by # and its SHA-256, which the contract takes', () => {
    const atBound = 'a'.repeat(MAX_QUOTED_ITEM_ID)
    expect(itemHandle(atBound)).toBe(atBound)
    const handle = itemHandle(long('call'))
    expect(handle).toMatch(/^#[0-9a-f]{64}$/)
    // Two long ids that start alike stay apart.
    expect(itemHandle(`${long('call')}-2`)).not.toBe(handle)
    expect(calls.cancelToolCall.input.safeParse({ sessionId: 'a/s', toolCallId: handle }).success).toBe(true)
    expect(calls.cancelToolCall.input.safeParse({ sessionId: 'a/s', toolCallId: long('call') }).success).toBe(false)
  })

  it('main finds the tool call and the terminal it names; a short id as it is; a hash of nothing finds nothing', () => {
    const state = applyActions(createSessionState({ sessionId: 'a/s', agentId: 'a', protocolVersion: 2, cwd: '/w' }), [
      {
        type: 'updates',
        updates: [
          { sessionUpdate: 'tool_call_update', toolCallId: long('call'), title: 'Build', status: 'in_progress' },
          { sessionUpdate: 'tool_call_update', toolCallId: `${long('call')}-2`, title: 'Lint', status: 'in_progress' },
          { sessionUpdate: 'tool_call_update', toolCallId: 'c1', title: 'Read', status: 'in_progress' },
          { sessionUpdate: 'terminal_update', terminalId: long('term'), command: 'npm run dev' },
        ],
      },
    ])
    expect(toolCallByHandle(state, itemHandle(long('call')))?.title).toBe('Build')
    expect(toolCallByHandle(state, itemHandle(`${long('call')}-2`))?.title).toBe('Lint')
    expect(toolCallByHandle(state, 'c1')?.title).toBe('Read')
    expect(toolCallByHandle(state, itemHandle(long('other')))).toBeUndefined()
    expect(terminalByHandle(state.terminals, itemHandle(long('term')))?.command).toBe('npm run dev')
    expect(terminalByHandle(state.terminals, itemHandle(long('other')))).toBeUndefined()
    // Main: Node's SHA-256, the same digest (a lone surrogate too), and only among what can be cancelled.
    const odd = `${long('call')}\ud800`
    expect(itemHandle(odd, sha256Hex)).toBe(itemHandle(odd))
    expect(toolCallByHandle(state, itemHandle(long('call')), { hash: sha256Hex })?.title).toBe('Build')
    expect(toolCallByHandle(state, itemHandle(long('call')), { hash: sha256Hex, only: canCancelToolCall })).toBeUndefined()
  })
})

describe("the session screen's cancels send the handle", () => {
  it('a tool call and a terminal under 3,000-character ids: the asks pass the contract', async () => {
    const sent: { call?: unknown; terminal?: unknown } = {}
    let toolCalls: ToolCallActions | null = null
    let terminals: TerminalActions | null = null
    function Probe() {
      toolCalls = useToolCallActions(async (input) => ((sent.call = input), { ok: true, value: { accepted: true } }), 'a/s', true, report)
      terminals = useTerminalActions(async (input) => ((sent.terminal = input), { ok: true, value: undefined }), undefined, 'a/s', report)
      return null
    }
    renderToStaticMarkup(<Probe />)
    await toolCalls!.cancel(long('call'))
    expect(await terminals!.cancel(long('term'))).toBe(true)
    expect(sent).toEqual({ call: { sessionId: 'a/s', toolCallId: itemHandle(long('call')) }, terminal: { sessionId: 'a/s', terminalId: itemHandle(long('term')) } })
    expect(calls.cancelToolCall.input.safeParse(sent.call).success).toBe(true)
    expect(calls.cancelTerminal.input.safeParse(sent.terminal).success).toBe(true)
  })
})
