import { describe, expect, it } from 'vitest'
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { highlighterLoaded, loadHighlighter, renderMarkdown, renderMarkdownHighlighting, whenHighlighterLoaded } from '../../../renderer/components/markdown/render-markdown'
import { Markdown } from '../../../renderer/components/markdown/Markdown'

describe('renderMarkdown', () => {
  it('escapes raw HTML instead of rendering it', () => {
    const html = renderMarkdown('Hello <script>alert(1)</script> <img src=x onerror=alert(1)> <b>bold</b>')
    expect(html).not.toMatch(/<script|<img|<b>/i)
    expect(html).toContain('&lt;script&gt;')
    expect(html).toContain('&lt;b&gt;bold&lt;/b&gt;')
  })

  it('keeps single line breaks for tool output only, and the two kinds of text render alike otherwise (one shared renderer)', () => {
    const source = 'src/a.ts\nsrc/b.ts\nsee https://example.com and `code` in [x](javascript:alert(1))'
    const prose = renderMarkdown(source)
    const lines = renderMarkdown(source, { keepLineBreaks: true })
    expect(prose).not.toContain('<br>')
    expect(lines).toBe(prose.replace(/\n(?=src|see)/g, '<br>\n'))
    expect(lines).toContain('data-url="https://example.com"')
    // Rendering one kind leaves nothing behind for the other.
    expect(renderMarkdown(source)).toBe(prose)
    expect(renderMarkdown(source, { keepLineBreaks: true })).toBe(lines)
  })

  it('never renders javascript:, data: or vbscript: links as links', () => {
    for (const url of ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', 'data:text/html,<b>x</b>', 'vbscript:msgbox(1)']) {
      const html = renderMarkdown(`[click me](${url})`)
      expect(html).not.toContain('data-url')
      expect(html).not.toMatch(/href=/i)
      expect(html).not.toMatch(/<a\b/i)
    }
  })

  it('renders http(s) links as non-navigable spans carrying the URL for the consent path', () => {
    const html = renderMarkdown('[spec](https://example.com/a?b=1&c=2) and https://auto.example.org')
    expect(html).not.toMatch(/<a\b|href=/i)
    expect(html).toContain('data-url="https://example.com/a?b=1&amp;c=2"')
    expect(html).toContain('data-url="https://auto.example.org"')
    expect(html).toMatch(/role="link"/)
  })

  it('links URLs with a scheme, www. and e-mail addresses, never a bare file name that is also a domain (app.py)', () => {
    const html = renderMarkdown('1. Read app.py, README.md and setup.sh\n\nSee www.example.com, http://x.org/a and me@example.com; example.com is text')
    expect(html).toContain('Read app.py, README.md and setup.sh')
    expect(html).toContain('data-url="http://www.example.com"')
    expect(html).toContain('data-url="http://x.org/a"')
    expect(html).toContain('data-url="mailto:me@example.com"')
    expect(html).not.toMatch(/data-url="http:\/\/(app\.py|README\.md|setup\.sh|example\.com)"/)
    expect(html.match(/data-url=/g)).toHaveLength(3)
  })

  it('shows task list items with a checkbox that cannot be clicked, and leaves other brackets alone', () => {
    const html = renderMarkdown('- [x] Read app.py\n- [ ] Add the test\n- [link](https://a.example) kept\n\n[ ] not in a list')
    expect(html).toContain('<li class="md-task-item"><input type="checkbox" class="md-task" disabled checked aria-label="Done"> Read app.py</li>')
    expect(html).toContain('<li class="md-task-item"><input type="checkbox" class="md-task" disabled aria-label="Not done"> Add the test</li>')
    expect(html.match(/<input/g)).toHaveLength(2)
    expect(html).toContain('<p>[ ] not in a list</p>')
    // Raw HTML in the item is still text.
    expect(renderMarkdown('- [ ] <input type="checkbox"> x')).toContain('&lt;input type=&quot;checkbox&quot;&gt; x')
  })

  it('does not load images: shows alt text and URL as text', () => {
    const html = renderMarkdown('![build status](https://ci.example.com/badge.svg "t")')
    expect(html).not.toMatch(/<img\b/i)
    expect(html).toContain('[image: build status]')
    expect(html).toContain('https://ci.example.com/badge.svg')
  })

  it('escapes attribute-breaking characters in image alt and URLs', () => {
    const html = renderMarkdown('![a" onload="x](https://e.com/"><script>)')
    expect(html).not.toMatch(/<script|onload="x"/)
  })

  it('shows fenced code plain while highlight.js loads (it loads with the first such block), then highlighted', async () => {
    const code = '```ts\nconst x: number = 1 < 2\n```'
    expect(highlighterLoaded()).toBe(false)
    expect(renderMarkdownHighlighting('```\nno language\n```').waits).toBe(false)
    const plain = renderMarkdownHighlighting(code)
    expect(plain.waits).toBe(true)
    expect(plain.html).toContain('const x: number = 1 &lt; 2')
    expect(plain.html).not.toContain('hljs-keyword')
    await new Promise<void>((resolve) => whenHighlighterLoaded(resolve))
    const highlighted = renderMarkdownHighlighting(code)
    expect(highlighted.waits).toBe(false)
    expect(highlighted.html).toContain('hljs-keyword')
  })

  it('highlights fenced code with highlight.js and escapes unknown languages', async () => {
    await loadHighlighter()
    const ts = renderMarkdown('```ts\nconst x: number = 1\n```')
    expect(ts).toContain('hljs-keyword')
    expect(ts).toContain('data-lang="ts"')
    const unknown = renderMarkdown('```nosuchlang\n<div>hi</div>\n```')
    expect(unknown).toContain('&lt;div&gt;hi&lt;/div&gt;')
    expect(unknown).not.toContain('<div>hi')
  })
})

describe('<Markdown>', () => {
  it('renders the sanitized HTML inside a container', () => {
    const html = renderToStaticMarkup(createElement(Markdown, { source: '**bold** <i>x</i> [j](javascript:alert(1))' }))
    expect(html).toContain('<strong>bold</strong>')
    expect(html).toContain('&lt;i&gt;x&lt;/i&gt;')
    expect(html).not.toContain('data-url')
  })
})
