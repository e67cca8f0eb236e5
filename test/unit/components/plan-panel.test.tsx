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

  it('shows nothing for a plan of no steps (the agent cleared it), and leaves such a plan out beside others', () => {
    expect(renderToStaticMarkup(<PlanPanel plans={[plan([])]} />)).toBe('')
    const html = renderToStaticMarkup(<PlanPanel plans={[{ ...plan([]), planId: 'cleared' }, { ...plan(['medium']), planId: 'kept' }]} />)
    expect(html).toContain('1/1 done')
    expect(html).not.toContain('cleared')
  })

  it('shows each step’s priority where they differ', () => {
    const html = renderToStaticMarkup(<PlanPanel plans={[plan(['high', 'medium', 'low'])]} />)
    expect(html.match(/badge-priority-/g)).toHaveLength(3)
    expect(html).toContain('low<span class="sr-only"> priority</span>')
  })

  // Codex (codex-acp 2.6.0, Plan mode; /tmp/agents12/codex-proposed-plan.jsonl) proposes its plan as a v2 `markdown` plan
  // and asks "Implement this plan?": the panel showed the plan as JSON under "Plan 0/0 done".
  it('draws a Markdown plan as Markdown, with no step count', () => {
    const markdown: PlanView = {
      planId: 'p-plan',
      type: 'markdown',
      entries: [],
      markdown: '# Rename OLDNAME\n\n1. Read `big.ts`.\n2. Rename them.\n\n| Step | Risk |\n|---|---|\n| Read | none |\n',
    }
    const html = renderToStaticMarkup(<PlanPanel plans={[markdown]} />)
    expect(html).toContain('<h1>Rename OLDNAME</h1>')
    expect(html).toContain('<li>Read <code>big.ts</code>.</li>')
    expect(html).toContain('<td>none</td>')
    expect(html).not.toContain('done</span>')
    expect(html).not.toContain('&quot;markdown&quot;')
  })
})
