import { revealAsText } from '../permissions/reveal-text'

/**
 * Text with `code spans` (backticks) shown as code, the rest as plain text: no markup is ever interpreted,
 * so it is safe for registry and preset descriptions. An unmatched backtick stays a backtick. Hidden and
 * direction-changing characters show as markers (`⟨U+202E⟩`): an agent writes its sign-in methods' descriptions.
 */
export function CodeText({ text }: { text: string }) {
  return <>{codeParts(text).map((part, i) => (part.code ? <code key={i} className="code-span">{revealAsText(part.text)}</code> : revealAsText(part.text, { prose: true })))}</>
}

/** `a \`b\` c` → [{a }, {b, code}, { c}]. */
export function codeParts(text: string): { text: string; code: boolean }[] {
  const parts: { text: string; code: boolean }[] = []
  const pattern = /`([^`\n]+)`/g
  let last = 0
  for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
    if (m.index > last) parts.push({ text: text.slice(last, m.index), code: false })
    parts.push({ text: m[1]!, code: true })
    last = m.index + m[0].length
  }
  if (last < text.length) parts.push({ text: text.slice(last), code: false })
  return parts
}
