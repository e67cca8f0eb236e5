/**
 * Splitting one "arguments" text field into argv, the way a POSIX shell would for plain words: whitespace
 * separates, `"…"` and `'…'` group, a backslash escapes the next character (inside double quotes only
 * `\"`, `\\`, `\$` and `` \` `` are escapes, as in sh). No expansion of any kind: `$HOME` and `*` stay as typed,
 * because Bosun spawns without a shell. Pure: no Node APIs, usable anywhere.
 */
export type SplitArgsResult = { ok: true; argv: string[] } | { ok: false; message: string; index: number }

export function splitArgs(text: string): SplitArgsResult {
  const argv: string[] = []
  let current = ''
  // A word exists once anything (even an empty quote pair) has been seen, so `""` yields one empty argument.
  let inWord = false
  let quote: '"' | "'" | null = null
  let quoteStart = -1
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!
    if (quote === "'") {
      if (ch === "'") quote = null
      else current += ch
      continue
    }
    if (quote === '"') {
      if (ch === '"') quote = null
      else if (ch === '\\' && i + 1 < text.length && '"\\$`'.includes(text[i + 1]!)) current += text[++i]
      else current += ch
      continue
    }
    if (ch === '\\') {
      if (i + 1 >= text.length) return { ok: false, message: 'A backslash at the end escapes nothing', index: i }
      const next = text[++i]!
      // Backslash-newline is a line continuation, as in sh.
      if (next !== '\n') current += next
      inWord = inWord || next !== '\n'
      continue
    }
    if (ch === '"' || ch === "'") {
      quote = ch
      quoteStart = i
      inWord = true
      continue
    }
    if (/\s/.test(ch)) {
      if (inWord) argv.push(current)
      current = ''
      inWord = false
      continue
    }
    current += ch
    inWord = true
  }
  if (quote) {
    return { ok: false, message: `Unbalanced ${quote === '"' ? 'double' : 'single'} quote (opened at character ${quoteStart + 1})`, index: quoteStart }
  }
  if (inWord) argv.push(current)
  return { ok: true, argv }
}

const safeWord = /^[A-Za-z0-9_@%+=:,./-]+$/

/** The inverse of {@link splitArgs}: one text that splits back to exactly `argv` (for editing a saved definition). */
export function joinArgs(argv: readonly string[]): string {
  return argv.map(quoteArg).join(' ')
}

function quoteArg(arg: string): string {
  if (arg === '') return "''"
  if (safeWord.test(arg)) return arg
  if (!arg.includes("'")) return `'${arg}'`
  return `"${arg.replace(/["\\$`]/g, (c) => `\\${c}`)}"`
}
