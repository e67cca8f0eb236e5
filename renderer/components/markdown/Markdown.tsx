import { memo, useMemo, type KeyboardEvent, type MouseEvent } from 'react'
import { renderMarkdown } from './render-markdown'

export interface MarkdownProps {
  source: string
  /** Seam: a link was activated. Bosun never navigates in-app; the lead routes this through the consent path. */
  onOpenLink?: (url: string) => void
  /** Keep every line break of a paragraph (tool output, which is lines), instead of joining lines as prose does. */
  keepLineBreaks?: boolean
}

/** Agent Markdown, rendered by {@link renderMarkdown} (raw HTML escaped, no remote images, links inert). */
export const Markdown = memo(function Markdown({ source, onOpenLink, keepLineBreaks = false }: MarkdownProps) {
  const html = useMemo(() => renderMarkdown(source, { keepLineBreaks }), [source, keepLineBreaks])
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
