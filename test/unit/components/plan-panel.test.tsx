/**
 * The plan checklist shows a step's priority only where the steps' priorities differ: claude-agent-acp gives every
 * TodoWrite step "medium", and a badge on each row would say nothing.
 */
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import type { PlanView } from '../../../common/session/types'
import { PlanPanel } from '../../../renderer/components/transcript/PlanPanel'

const plan = (priorities: string[]): PlanView => ({
  planId: '',
  type: 'items',
  entries: priorities.map((priority, i) => ({ content: `Step ${i}`, priority, status: i === 0 ? 'completed' : 'pending' })),
})

describe('the plan panel', () => {
  it('leaves out a priority all steps share', () => {
    const html = renderToStaticMarkup(<PlanPanel plans={[plan(['medium', 'medium', 'medium'])]} />)
    expect(html).toContain('Step 2')
    expect(html).not.toContain('badge-priority')
    expect(html).not.toContain('priority</span>')
  })

  it('shows each step’s priority where they differ', () => {
    const html = renderToStaticMarkup(<PlanPanel plans={[plan(['high', 'medium', 'low'])]} />)
    expect(html.match(/badge-priority-/g)).toHaveLength(3)
    expect(html).toContain('low<span class="sr-only"> priority</span>')
  })
})
