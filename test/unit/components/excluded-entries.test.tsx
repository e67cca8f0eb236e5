/**
 * A v1 refusal (F4): the prompt and what the agent answered to it say, where they are shown, that they are not in
 * the agent's context; the rest of the transcript says nothing of the kind.
 */
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { AgentMessage, AgentThought, UserMessage } from '../../../renderer/components/transcript/EntryViews'
import { ToolCallCard } from '../../../renderer/components/transcript/ToolCallCard'
import type { MessageEntry, ToolCallEntry } from '../../../common/session/types'

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
