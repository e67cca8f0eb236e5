const MAX_CHARS = 200_000

/**
 * Invisible and direction-changing characters JSON.stringify leaves as they are (it escapes only C0
 * controls): shown as `\uXXXX` escapes, still valid JSON, so agent input cannot hide or reorder text here (J9).
 */
const UNESCAPED_HIDDEN = /[\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]/g
const escapeHidden = (text: string): string =>
  text.replace(UNESCAPED_HIDDEN, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)

/** Pretty-prints any value as JSON text (never as markup); cycles, bigints and huge values are tolerated. */
export function toJsonText(value: unknown): string {
  const seen = new WeakSet<object>()
  let text: string
  try {
    text =
      JSON.stringify(
        value,
        (_key, v: unknown) => {
          if (typeof v === 'bigint') return `${v.toString()}n`
          if (v && typeof v === 'object') {
            if (seen.has(v)) return '[circular]'
            seen.add(v)
          }
          return v
        },
        2,
      ) ?? String(value)
  } catch {
    text = String(value)
  }
  text = escapeHidden(text)
  return text.length > MAX_CHARS ? `${text.slice(0, MAX_CHARS)}\n… (${text.length - MAX_CHARS} more characters)` : text
}

export function JsonView({ value, label }: { value: unknown; label?: string }) {
  return (
    <pre className="json-view" tabIndex={0} aria-label={label ?? 'JSON'}>
      {toJsonText(value)}
    </pre>
  )
}

/** A collapsed disclosure holding a JSON value (`<details>`: keyboard and screen reader support for free). */
export function JsonDisclosure({ summary, value }: { summary: string; value: unknown }) {
  return (
    <details className="disclosure">
      <summary>{summary}</summary>
      <JsonView value={value} label={summary} />
    </details>
  )
}
