/**
 * A v1 refusal (F4): the prompt and what the agent answered to it say, where they are shown, that they are not in
 * the agent's context; the rest of the transcript says nothing of the kind.
 */
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { AgentMessage, AgentThought, UserMessage } from '../../../renderer/components/transcript/EntryViews'
import { ToolCallCard } from '../../../renderer/components/transcript/ToolCallCard'
import type { MessageEntry, ToolCallEntry } from '../../../common/session/types'
import { lastPromptExcluded, REFUSED_OUT_NOTE } from '../../../renderer/components/transcript/Transcript'

const NOTE = "Excluded from the agent&#x27;s context (refused)"

const message = (kind: MessageEntry['kind'], excluded?: boolean): MessageEntry => ({
  kind,
  id: `${kind}#1`,
  content: [{ type: 'text', text: 'I will not do that.' }],
  ...(excluded !== undefined ? { excluded } : {}),
})

const tool = (excluded?: boolean): ToolCallEntry => ({
  kind: 'tool_call',
  id: 'tool:c1',
  toolCallId: 'c1',
  title: 'Edit a.ts',
  toolKind: 'edit',
  status: 'in_progress',
  content: [],
  locations: [],
  permissionIds: [],
  elicitationIds: [],
  ...(excluded !== undefined ? { excluded } : {}),
})

const views = (excluded?: boolean) => [
  renderToStaticMarkup(<UserMessage entry={message('user_message', excluded)} />),
  renderToStaticMarkup(<AgentMessage entry={message('agent_message', excluded)} agentName="Claude" />),
  renderToStaticMarkup(<AgentThought entry={message('agent_thought', excluded)} />),
  renderToStaticMarkup(<ToolCallCard entry={tool(excluded)} permissions={{}} terminals={{}} />),
]

describe('entries of a refused turn', () => {
  it('the prompt, the agent\'s messages and thoughts and its tool calls each say they are excluded', () => {
    for (const html of views(true)) expect(html).toContain(NOTE)
    for (const html of views(true).slice(1)) expect(html).toContain('entry-excluded')
  })

  it('entries of other turns say nothing of the kind', () => {
    for (const html of [...views(), ...views(false)]) {
      expect(html).not.toContain(NOTE)
      expect(html).not.toContain('entry-excluded')
    }
  })
})

describe("a refused turn's note", () => {
  const user = (excluded?: boolean) => message('user_message', excluded)
  it('adds that the prompt and the reply are out of the context when the last prompt was excluded', () => {
    expect(lastPromptExcluded([user(false), message('agent_message'), user(true), message('agent_message', true), tool(true)])).toBe(true)
    expect(REFUSED_OUT_NOTE).toMatch(/left out of the agent's context/)
  })

  it('says nothing of it when the last prompt is in the context (an earlier refusal, or a v2 one)', () => {
    expect(lastPromptExcluded([user(true), message('agent_message', true), user(false), message('agent_message')])).toBe(false)
    expect(lastPromptExcluded([message('agent_message')])).toBe(false)
  })
})
