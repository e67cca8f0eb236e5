/**
 * v2 `tool_call/cancel` (E15) on the tool card, rendered to static markup: Cancel only while the call advertises
 * `capabilities.cancel`, is not final, and the session screen offers it (v2 only); "Cancelling…" while accepted and
 * not final; the deadline's and the agent's refusal's quiet lines.
 */
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { applyActions, createSessionState } from '../../../common/session/reducer'
import type { SessionAction, ToolCallEntry } from '../../../common/session/types'
import { ToolCallCard } from '../../../renderer/components/transcript/ToolCallCard'
import { ToolCallActionsContext } from '../../../renderer/components/transcript/tool-call-actions'

const actions = { cancel: async () => undefined }
const textOf = (html: string) => html.replace(/<[^>]+>/g, '')

function call(fields: Record<string, unknown>, ...more: SessionAction[]): ToolCallEntry {
  const base = createSessionState({ sessionId: 'a/s', agentId: 'a', protocolVersion: 2, cwd: '/w' })
  const update = { sessionUpdate: 'tool_call_update', toolCallId: 'c1', title: 'Build', kind: 'execute', status: 'in_progress', ...fields }
  const state = applyActions(base, [{ type: 'updates', updates: [update] }, ...more])
  return state.entries.find((e): e is ToolCallEntry => e.kind === 'tool_call')!
}
const render = (entry: ToolCallEntry, withActions = true) => {
  const card = <ToolCallCard entry={entry} permissions={{}} terminals={{}} />
  return renderToStaticMarkup(withActions ? <ToolCallActionsContext.Provider value={actions}>{card}</ToolCallActionsContext.Provider> : card)
}
const cancelOf = (cancel: 'requested' | 'unconfirmed' | 'refused'): SessionAction => ({ type: 'tool_call_cancel', toolCallId: 'c1', cancel })

describe('Cancel on a tool card (E15)', () => {
  it('offered only while advertised, not final, and where the session screen offers it', () => {
    const cancellable = call({ capabilities: { cancel: {} } })
    expect(render(cancellable)).toContain('aria-label="Cancel Build"')
    expect(render(cancellable, false)).not.toContain('Cancel Build')
    for (const entry of [call({}), call({ capabilities: {} }), call({ capabilities: { cancel: {} }, status: 'completed' }), call({ capabilities: { cancel: {} }, status: 'cancelled' })]) {
      expect(render(entry)).not.toContain('Cancel Build')
    }
  })

  it('Cancelling… while accepted and not final; then the final status, no button', () => {
    const cancelling = render(call({ capabilities: { cancel: {} } }, cancelOf('requested')))
    expect(cancelling).toMatch(/<button[^>]*disabled=""[^>]*aria-label="Cancelling Build"/)
    const done = render(call({ capabilities: { cancel: {} } }, cancelOf('requested'), { type: 'updates', updates: [{ sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'cancelled', capabilities: null }] }))
    expect(textOf(done)).toContain('Cancelled')
    expect(done).not.toContain('Cancelling')
    expect(done).not.toContain('badge-danger')
  })

  it('the deadline and the refusal are quiet lines; Cancel is offered again while advertised', () => {
    const late = render(call({ capabilities: { cancel: {} } }, cancelOf('requested'), cancelOf('unconfirmed')))
    expect(textOf(late)).toContain('has not reported this stopped')
    expect(late).toContain('aria-label="Cancel Build"')
    const refused = render(call({ capabilities: { cancel: {} } }, cancelOf('refused')))
    expect(textOf(refused)).toContain('The agent could not cancel this')
    expect(refused).not.toContain('role="alert"')
  })
})
