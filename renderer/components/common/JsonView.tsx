import { escapeHiddenBeyondC0 } from '../permissions/reveal-text'

const MAX_CHARS = 200_000

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
  // Invisible and direction-changing characters as `\uXXXX`: agent input cannot hide or reorder text here (J9).
  text = escapeHiddenBeyondC0(text)
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
