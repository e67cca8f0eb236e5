import { describe, expect, it } from 'vitest'
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { ContentBlockView, imageDataUrl } from '../../../renderer/components/transcript/ContentBlockView'
import { decidedByText } from '../../../renderer/components/transcript/ToolCallCard'
import { entryIndexOfRequest } from '../../../renderer/components/transcript/Transcript'
import { createSessionState } from '../../../common/session/reducer'
import type { SessionState } from '../../../common/session/types'

describe('content blocks', () => {
  it('shows images only from inline raster data, never from a URI', () => {
    expect(imageDataUrl({ data: 'iVBORw0KGgo=', mimeType: 'image/png' })).toBe('data:image/png;base64,iVBORw0KGgo=')
    expect(imageDataUrl({ data: 'PHN2Zz4=', mimeType: 'image/svg+xml' })).toBeNull()
    expect(imageDataUrl({ data: 'x" onerror="alert(1)', mimeType: 'image/png' })).toBeNull()
    expect(imageDataUrl({ mimeType: 'image/png' })).toBeNull()
    const html = renderToStaticMarkup(createElement(ContentBlockView, { block: { type: 'image', mimeType: 'image/png', data: '', uri: 'https://x/y.png' }, markdown: true }))
    expect(html).not.toMatch(/<img\b/)
    expect(html).toContain('https://x/y.png')
  })

  it('shows resource links as text, not as links, and never loads their icons (J2: http:, file: or any other src)', () => {
    const icons = [{ src: 'http://evil.example/i.png' }, { src: 'file:///etc/passwd' }, { src: 'https://evil.example/i.svg', theme: 'dark' }]
    const html = renderToStaticMarkup(
      createElement(ContentBlockView, { block: { type: 'resource_link', uri: 'https://evil.example/', name: 'doc', icons }, markdown: true }),
    )
    expect(html).not.toMatch(/<a\b|href=|<img\b|src=/)
    expect(html).toContain('https://evil.example/')
    expect(html).not.toContain('i.png')
  })

  it('keeps the person’s own text literal (no Markdown)', () => {
    const html = renderToStaticMarkup(createElement(ContentBlockView, { block: { type: 'text', text: '**not bold** <b>x</b>' }, markdown: false }))
    expect(html).toContain('**not bold** &lt;b&gt;x&lt;/b&gt;')
  })

  it('shows unknown blocks as generic JSON', () => {
    const html = renderToStaticMarkup(createElement(ContentBlockView, { block: { type: 'hologram', frames: 3 }, markdown: true }))
    expect(html).toContain('Unknown content (hologram)')
    expect(html).toContain('&quot;frames&quot;: 3')
  })
})

describe('decided-by text', () => {
  it('says who decided and which way', () => {
    expect(decidedByText({ kind: 'rule', label: '“npm test”', optionKind: 'allow_always' })).toBe('Allowed by rule “npm test”')
    expect(decidedByText({ kind: 'rule', label: '“rm”', optionKind: 'reject_always' })).toBe('Rejected by rule “rm”')
    expect(decidedByText({ kind: 'auto-approve', label: '' })).toBe('Allowed by auto-approve')
  })
})

describe('entryIndexOfRequest', () => {
  it('finds the tool call carrying a permission, or the standalone permission entry', () => {
    const base = createSessionState({ sessionId: 's', agentId: 'a', protocolVersion: 1, cwd: '/w' })
    const session: SessionState = {
      ...base,
      entries: [
        { kind: 'user_message', id: 'u1', content: [] },
        { kind: 'tool_call', id: 't1', toolCallId: 't1', title: null, toolKind: 'edit', status: 'pending', content: [], locations: [], permissionIds: ['p1'], elicitationIds: [] },
        { kind: 'permission', id: 'p2e', requestId: 'p2' },
      ],
    }
    expect(entryIndexOfRequest(session, 'p1')).toBe(1)
    expect(entryIndexOfRequest(session, 'p2')).toBe(2)
    expect(entryIndexOfRequest(session, 'nope')).toBe(-1)
  })
})
