import { describe, expect, it } from 'vitest'
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { statusBadgeOf, toolKindOf } from '../../../renderer/components/transcript/tool-kind'
import { ToolCallCard } from '../../../renderer/components/transcript/ToolCallCard'
import type { ToolCallEntry } from '../../../common/session/types'

describe('tool kind and status mapping', () => {
  it('keeps known kinds and maps unknown ones to other', () => {
    for (const kind of ['read', 'edit', 'delete', 'move', 'search', 'execute', 'think', 'fetch', 'switch_mode', 'other']) expect(toolKindOf(kind)).toBe(kind)
    expect(toolKindOf('teleport')).toBe('other')
    expect(toolKindOf(undefined)).toBe('other')
    expect(toolKindOf(42)).toBe('other')
    expect(toolKindOf('__proto__')).toBe('other')
  })

  it('shows unknown statuses as in progress, never as done', () => {
    expect(statusBadgeOf('completed')).toBe('completed')
    expect(statusBadgeOf('paused')).toBe('paused')
    expect(statusBadgeOf('canceled')).toBe('cancelled')
    expect(statusBadgeOf('cancelled')).toBe('cancelled')
    expect(statusBadgeOf('frobnicating')).toBe('in_progress')
    expect(statusBadgeOf(null)).toBe('in_progress')
  })

  it('renders a card with an unknown kind, status and content without throwing', () => {
    const entry: ToolCallEntry = {
      kind: 'tool_call',
      id: 'tool:1',
      toolCallId: '1',
      title: 'Mystery',
      toolKind: 'teleport',
      status: 'frobnicating',
      content: [{ type: 'hologram', frames: 3 }],
      locations: [{ path: '/a.ts', line: 7 }],
      rawInput: { command: '<b>x</b>' },
      permissionIds: [],
      elicitationIds: [],
      decidedBy: { kind: 'rule', label: '“Edit in repo”', optionKind: 'allow_always' },
    }
    const html = renderToStaticMarkup(createElement(ToolCallCard, { entry, permissions: {}, terminals: {} }))
    expect(html).toContain('tool-icon-other')
    expect(html).toContain('In progress')
    expect(html).toContain('Unknown content (hologram)')
    expect(html).toContain('/a.ts:7')
    expect(html).toContain('Allowed by rule “Edit in repo”')
    // Raw input is JSON text, not markup.
    expect(html).toContain('&lt;b&gt;x&lt;/b&gt;')
  })
})
