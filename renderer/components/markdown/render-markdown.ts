import MarkdownIt from 'markdown-it'
import type { HLJSApi } from 'highlight.js'

/**
 * highlight.js (its common languages) is loaded with the first fenced block that names a language, not with the app:
 * about 0.6 MiB of the page's heap that a session without such a block never needs. Until it is, the block is shown as
 * plain code, and {@link whenHighlighterLoaded} says when to render it again.
 */
let hljs: HLJSApi | null = null
let loading: Promise<void> | null = null
const loadedListeners = new Set<() => void>()
/** Set by a render that left a named language unhighlighted because hljs was not loaded. */
let waited = false

/** Loads highlight.js (once); resolves when code blocks render highlighted. */
export function loadHighlighter(): Promise<void> {
  loading ??= import('highlight.js/lib/common').then((module) => {
    hljs = module.default
    for (const listener of [...loadedListeners]) listener()
    loadedListeners.clear()
  })
  return loading
}

/** Whether code blocks render highlighted now. */
export const highlighterLoaded = (): boolean => hljs !== null

/** Runs `listener` once highlight.js has loaded (at once if it has); the function returned forgets it. */
export function whenHighlighterLoaded(listener: () => void): () => void {
  if (hljs !== null) {
    listener()
    return () => {}
  }
  loadedListeners.add(listener)
  void loadHighlighter()
  return () => loadedListeners.delete(listener)
}

/**
 * Agent Markdown, rendered for display only. Raw HTML is escaped (`html: false`), links become
 * non-navigable spans carrying `data-url` (a click goes through the consent path, never in-app
 * navigation), and images are never loaded: their alt text and URL are shown as text.
 */
/**
 * The one configured renderer. Prose and tool output differ only in `breaks`, which markdown-it reads when it renders
 * (see {@link render}), so they share it: each instance builds its own linkify-it, whose URL patterns (long Unicode
 * classes) were about 0.2 MiB of the page's heap per instance, in every page, session or not.
 */
function createRenderer(): MarkdownIt {
  const md: MarkdownIt = new MarkdownIt({
    html: false,
    linkify: true,
    breaks: false,
    highlight(code, lang) {
      if (lang && hljs === null) {
        waited = true
        void loadHighlighter()
      }
      const language = lang && hljs?.getLanguage(lang) ? lang : null
      const body = language && hljs
        ? hljs.highlight(code, { language, ignoreIllegals: true }).value
        : md.utils.escapeHtml(code)
      const label = language ? ` data-lang="${md.utils.escapeHtml(language)}"` : ''
      return `<pre class="md-code"${label}><code class="hljs">${body}</code></pre>`
    },
  })

  // Every link that survives `validateLink` (below) is activatable: the consent dialog shows it as parsed
  // and explains a refusal (mailto:, custom schemes), and main re-checks before anything is opened.
  md.renderer.rules.link_open = (tokens, idx) => {
    const url = md.utils.escapeHtml(tokens[idx]!.attrGet('href') ?? '')
    return `<span class="md-link" role="link" tabindex="0" data-url="${url}" title="${url}">`
  }
  md.renderer.rules.link_close = () => '</span>'

  md.renderer.rules.image = (tokens, idx) => {
    const token = tokens[idx]!
    const alt = md.utils.escapeHtml(token.content || 'image')
    const src = md.utils.escapeHtml(token.attrGet('src') ?? '')
    return `<span class="md-image" title="Image not loaded">[image: ${alt}] <span class="md-image-url">${src}</span></span>`
  }

  // Linkify as GitHub does: a URL with its scheme, `www.`, or an e-mail address. A bare `name.tld` is text: agents name
  // files so (`app.py`, `README.md`, `setup.sh` are domains too), and they must not read as links to a web site.
  md.core.ruler.after('linkify', 'bare-domains-are-text', (state) => {
    for (const block of state.tokens) {
      const children = block.children
      if (block.type !== 'inline' || !children) continue
      for (let i = 0; i + 2 < children.length; i++) {
        const open = children[i]!
        if (open.type !== 'link_open' || open.markup !== 'linkify' || open.info !== 'auto') continue
        const text = children[i + 1]!
        const href = open.attrGet('href') ?? ''
        if (/^[a-z][a-z0-9+.-]*:/i.test(text.content) || /^www\./i.test(text.content) || href.startsWith('mailto:')) continue
        children.splice(i, 3, text)
      }
    }
  })

  // Task lists as GitHub shows them: a list item that opens with `[ ] ` or `[x] ` gets a checkbox (shown, never
  // clickable) instead of the brackets. Codex and Claude write their plans so.
  md.core.ruler.push('task-lists', (state) => {
    const tokens = state.tokens
    for (let i = 2; i < tokens.length; i++) {
      const inline = tokens[i]!
      if (inline.type !== 'inline' || tokens[i - 1]!.type !== 'paragraph_open' || tokens[i - 2]!.type !== 'list_item_open') continue
      const first = inline.children?.[0]
      const marker = first?.type === 'text' ? /^\[([ xX])\] /.exec(first.content) : null
      if (!first || !marker) continue
      first.content = first.content.slice(marker[0].length)
      const box = new state.Token('html_inline', '', 0)
      const done = marker[1] !== ' '
      box.content = `<input type="checkbox" class="md-task" disabled${done ? ' checked' : ''} aria-label="${done ? 'Done' : 'Not done'}"> `
      inline.children!.unshift(box)
      tokens[i - 2]!.attrJoin('class', 'md-task-item')
    }
  })

  // Never let markdown-it pass a javascript:/data: URL anywhere (its default validator already blocks most).
  const defaultValidate = md.validateLink.bind(md)
  md.validateLink = (url) => defaultValidate(url) && !/^\s*(javascript|vbscript|data|file):/i.test(url)
  return md
}

const markdown = createRenderer()
/** Tool output is lines (a file list, a search's matches): claude-agent-acp sends Glob's and Grep's as plain text. */
const linesOptions = { ...markdown.options, breaks: true }

/** Bidi embeddings, overrides and isolates: in agent text they can make a link or a file name read as another. */
const BIDI_OVERRIDES = /[\u202a-\u202e\u2066-\u2069]/g

/**
 * Agent Markdown as HTML; bidi overrides are shown as markers (`⟨U+202E⟩`), never applied. `keepLineBreaks`: every
 * line break in a paragraph is kept (tool output), instead of joining the lines as prose does.
 */
export function renderMarkdown(source: string, options: { keepLineBreaks?: boolean } = {}): string {
  return renderMarkdownHighlighting(source, options).html
}

/**
 * {@link renderMarkdown}, and whether a fenced block that names a language is plain only because highlight.js is
 * still loading (render again once {@link whenHighlighterLoaded} says so).
 */
export function renderMarkdownHighlighting(source: string, options: { keepLineBreaks?: boolean } = {}): { html: string; waits: boolean } {
  waited = false
  const html = render(source, options)
  return { html, waits: waited }
}

function render(source: string, options: { keepLineBreaks?: boolean }): string {
  const shown = source.replace(BIDI_OVERRIDES, (char) => `⟨U+${char.charCodeAt(0).toString(16).toUpperCase()}⟩`)
  if (!options.keepLineBreaks) return markdown.render(shown)
  // md.render, with a single line break kept (`breaks` is read by the renderer only: parsing is the same).
  const env = {}
  return markdown.renderer.render(markdown.parse(shown, env), linesOptions, env)
}
