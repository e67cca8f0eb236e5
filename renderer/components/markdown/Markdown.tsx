import { memo, useEffect, useMemo, useReducer, type KeyboardEvent, type MouseEvent } from 'react'
import { highlighterLoaded, renderMarkdownHighlighting, whenHighlighterLoaded } from './render-markdown'

export interface MarkdownProps {
  source: string
  /** Seam: a link was activated. Bosun never navigates in-app; the lead routes this through the consent path. */
  onOpenLink?: (url: string) => void
  /** Keep every line break of a paragraph (tool output, which is lines), instead of joining lines as prose does. */
  keepLineBreaks?: boolean
}

/** Agent Markdown, rendered by {@link renderMarkdown} (raw HTML escaped, no remote images, links inert). */
export const Markdown = memo(function Markdown({ source, onOpenLink, keepLineBreaks = false }: MarkdownProps) {
  // A code block rendered plain while highlight.js loads is rendered again once it has (the render reads the module's state).
  const highlighted = highlighterLoaded()
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const { html, waits } = useMemo(() => renderMarkdownHighlighting(source, { keepLineBreaks }), [source, keepLineBreaks, highlighted])
  const [, rerender] = useReducer((n: number) => n + 1, 0)
  useEffect(() => (waits ? whenHighlighterLoaded(rerender) : undefined), [waits])
  const activate = (target: EventTarget | null) => {
    const el = target instanceof Element ? target.closest<HTMLElement>('[data-url]') : null
    const url = el?.dataset.url
    if (url && onOpenLink) onOpenLink(url)
    return Boolean(url)
  }
  const onClick = (e: MouseEvent) => {
    if (activate(e.target)) e.preventDefault()
  }
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Enter' && activate(e.target)) e.preventDefault()
  }
  // The HTML comes from markdown-it with html:false and our own link/image rules: nothing from the agent is markup.
  return <div className="markdown" onClick={onClick} onKeyDown={onKeyDown} dangerouslySetInnerHTML={{ __html: html }} />
})
