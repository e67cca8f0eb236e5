import { useEffect, useRef } from 'react'
import { Terminal, type ITheme } from '@xterm/xterm'
import '@xterm/xterm/css/xterm.css'

export interface XtermViewProps {
  /** Everything the terminal printed so far. An output that extends the last one is written incrementally; any other change redraws. */
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

/** Characters compared at the start and at the old end before the whole of the old text: a replacement is told cheaply. */
const SAMPLE = 64

/**
 * Whether `next` is `written` with more after it (then only the rest is written). A v2 `terminal_update.output`
 * replaces the whole text, and a replacement may begin as the old one did and be longer ("…progress 10%" then
 * "…progress 99% done"): two samples (the start, and the end of the old text) turn most of them away in constant
 * time, and the whole of `written` is compared only when both match: a memory compare of what was written, not a
 * parse and redraw of it.
 */
export function extendsWritten(next: string, written: string): boolean {
  const length = written.length
  if (next.length <= length) return false
  const head = Math.min(SAMPLE, length)
  if (next.slice(0, head) !== written.slice(0, head)) return false
  if (next.slice(length - head, length) !== written.slice(length - head)) return false
  // A slice and ===, not startsWith: that walks a concatenated string character by character (see entry-growth.ts).
  return next.slice(0, length) === written
}

/**
 * A real terminal emulator (xterm.js) over a growing output string: escape sequences render as a terminal
 * would, thousands of lines stay cheap (only the new part is written; xterm keeps a bounded scrollback) and
 * the view follows the output unless the person scrolled up. Links are not made clickable.
 */
export function XtermView({ output, ariaLabel, rows = 14, cols = 120, onInput, autoFocus = false }: XtermViewProps) {
  const host = useRef<HTMLDivElement>(null)
  const terminal = useRef<Terminal | null>(null)
  /** The output the terminal shows (the state's own string, kept by reference: no copy). */
  const written = useRef('')
  const inputRef = useRef(onInput)
  inputRef.current = onInput
  const outputRef = useRef(output)
  outputRef.current = output
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
      // 0.75rem, as the card's other output: the person's default font size sizes it (xterm takes pixels).
      fontSize: terminalFontSize(),
      theme: themeFrom(el),
      // Colours a program picks itself (256 colours, RGB) are lightened or darkened to read on the card: 4.5:1 (WCAG AA).
      minimumContrastRatio: 4.5,
      allowProposedApi: false,
      // Output read from a pipe (an agent's own terminal) ends lines with a bare LF: start each line at column 0.
      convertEol: !interactive,
      // OSC 8 hyperlinks in output do nothing: links reach the browser only through Bosun's consent.
      linkHandler: { activate: () => undefined },
    })
    term.open(el)
    terminal.current = term
    // A terminal made again (an interactive one turned read-only when its command exited) shows the output so far:
    // the output effect below runs only when the output changes.
    written.current = outputRef.current
    if (written.current.length > 0) term.write(written.current)
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
    const before = written.current
    if (output === before) return
    if (extendsWritten(output, before)) term.write(output.slice(before.length))
    else {
      // Anything else (a snapshot, a shorter or an edited text) is drawn again from a clean terminal.
      term.reset()
      if (output.length > 0) term.write(output)
    }
    written.current = output
  }, [output])

  return <div className="xterm-host" ref={host} role="log" aria-label={ariaLabel} />
}

function themeFrom(el: HTMLElement): ITheme {
  const css = getComputedStyle(el)
  const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback
  const background = v('--bg-code', '#f6f8fa')
  const foreground = v('--fg', '#1f2328')
  const palette = window.matchMedia?.('(prefers-color-scheme: dark)').matches ? DARK_ANSI : LIGHT_ANSI
  return { background, foreground, cursor: foreground, selectionBackground: v('--bg-selected', 'rgba(47,111,235,0.25)'), ...palette }
}

/**
 * The 16 ANSI colours, each at least 4.5:1 on the card's background (xterm's own, made for black, put green at 2.2:1
 * on the light card and blue at 3.6:1 on the dark one): GitHub's terminal palettes, the faintest ones darkened.
 */
const LIGHT_ANSI: ITheme = {
  black: '#24292f', red: '#cf222e', green: '#116329', yellow: '#7d4e00', blue: '#0969da', magenta: '#8250df', cyan: '#1b7c83', white: '#57606a',
  brightBlack: '#57606a', brightRed: '#a40e26', brightGreen: '#1a7f37', brightYellow: '#633c01', brightBlue: '#0550ae', brightMagenta: '#6639ba', brightCyan: '#0e6169', brightWhite: '#424a53',
}
const DARK_ANSI: ITheme = {
  black: '#8b949e', red: '#ff7b72', green: '#3fb950', yellow: '#d29922', blue: '#58a6ff', magenta: '#bc8cff', cyan: '#39c5cf', white: '#b1bac4',
  brightBlack: '#8b949e', brightRed: '#ffa198', brightGreen: '#56d364', brightYellow: '#e3b341', brightBlue: '#79c0ff', brightMagenta: '#d2a8ff', brightCyan: '#56d4dd', brightWhite: '#f0f6fc',
}

/** 0.75rem in pixels: 12 at the default 16 px font size, 15 at 20 px. */
export function terminalFontSize(root: number = parseFloat(getComputedStyle(document.documentElement).fontSize)): number {
  return Number.isFinite(root) && root > 0 ? Math.round(root * 0.75 * 2) / 2 : 12
}
