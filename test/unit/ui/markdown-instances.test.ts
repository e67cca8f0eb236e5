import { describe, expect, it, vi } from 'vitest'
import type MarkdownItType from 'markdown-it'

// Counts the markdown-it instances the page builds: each carries its own linkify-it, whose URL patterns are long
// Unicode classes (about 0.2 MiB of the page's heap an instance).
const built = vi.hoisted(() => ({ count: 0 }))
vi.mock('markdown-it', async (importOriginal) => {
  const { default: MarkdownIt } = await importOriginal<{ default: typeof MarkdownItType }>()
  class Counted extends MarkdownIt {
    constructor(...args: ConstructorParameters<typeof MarkdownIt>) {
      super(...args)
      built.count++
    }
  }
  return { default: Counted }
})

describe('the Markdown renderer', () => {
  it('is one markdown-it instance for prose and tool output alike', async () => {
    const { renderMarkdown } = await import('../../../renderer/components/markdown/render-markdown')
    expect(renderMarkdown('a\nb', { keepLineBreaks: true })).toBe('<p>a<br>\nb</p>\n')
    expect(renderMarkdown('a\nb')).toBe('<p>a\nb</p>\n')
    expect(built.count).toBe(1)
  })
})
