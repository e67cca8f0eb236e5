import { useEffect, useRef } from 'react'
import { Terminal, type ITheme } from '@xterm/xterm'
import '@xterm/xterm/css/xterm.css'

export interface XtermViewProps {
  /** Everything the terminal printed so far. Appends are written incrementally; any other change redraws. */
  output: string
  ariaLabel: string
  /** Rows shown (the rest scrolls). */
  rows?: number
  cols?: number
  /** Typed input goes here (terminal sign-in); without it the view is read-only. */
  onInput?: (data: string) => void
  /** Focus the terminal once it is shown (interactive terminals). */
  autoFocus?: boolean
}

/** The part of `output` already written, by length and a sample of its start (a snapshot replacing the text is a redraw). */
interface Written {
  length: number
  head: string
}

/**
 * A real terminal emulator (xterm.js) over a growing output string: escape sequences render as a terminal
 * would, thousands of lines stay cheap (only the new part is written; xterm keeps a bounded scrollback) and
 * the view follows the output unless the person scrolled up. Links are not made clickable.
 */
export function XtermView({ output, ariaLabel, rows = 14, cols = 120, onInput, autoFocus = false }: XtermViewProps) {
  const host = useRef<HTMLDivElement>(null)
  const terminal = useRef<Terminal | null>(null)
  const written = useRef<Written>({ length: 0, head: '' })
  const inputRef = useRef(onInput)
  inputRef.current = onInput
  const interactive = onInput !== undefined

  useEffect(() => {
    const el = host.current
    if (!el) return
    const term = new Terminal({
      rows,
      cols,
      scrollback: 5_000,
      disableStdin: !interactive,
      cursorBlink: interactive,
      cursorStyle: interactive ? 'block' : 'underline',
      cursorInactiveStyle: interactive ? 'outline' : 'none',
      fontFamily: getComputedStyle(el).getPropertyValue('--font-mono') || 'monospace',
      fontSize: 12,
      theme: themeFrom(el),
      allowProposedApi: false,
      // Output read from a pipe (an agent's own terminal) ends lines with a bare LF: start each line at column 0.
      convertEol: !interactive,
      // OSC 8 hyperlinks in output do nothing: links reach the browser only through Bosun's consent.
      linkHandler: { activate: () => undefined },
    })
    term.open(el)
    terminal.current = term
    written.current = { length: 0, head: '' }
    const input = term.onData((data) => inputRef.current?.(data))
    if (autoFocus) term.focus()
    // The theme follows the system's light/dark switch.
    const media = window.matchMedia?.('(prefers-color-scheme: dark)')
    const retheme = () => (term.options.theme = themeFrom(el))
    media?.addEventListener('change', retheme)
    return () => {
      media?.removeEventListener('change', retheme)
      input.dispose()
      term.dispose()
      terminal.current = null
    }
    // Size changes are applied below without recreating the terminal.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [interactive, autoFocus])

  useEffect(() => {
    terminal.current?.resize(cols, rows)
  }, [rows, cols])

  useEffect(() => {
    const term = terminal.current
    if (!term) return
    const done = written.current
    const head = output.slice(0, 64)
    if (output.length < done.length || head.slice(0, done.head.length) !== done.head) {
      term.reset()
      done.length = 0
    }
    if (output.length > done.length) term.write(output.slice(done.length))
    written.current = { length: output.length, head }
  }, [output])

  return <div className="xterm-host" ref={host} role="log" aria-label={ariaLabel} />
}

function themeFrom(el: HTMLElement): ITheme {
  const css = getComputedStyle(el)
  const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback
  const background = v('--bg-code', '#f6f8fa')
  const foreground = v('--fg', '#1f2328')
  return { background, foreground, cursor: foreground, selectionBackground: v('--bg-selected', 'rgba(47,111,235,0.25)') }
}
