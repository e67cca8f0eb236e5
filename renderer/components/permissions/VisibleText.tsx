import { hasHiddenCharacters, revealControlChars } from './reveal-text'
import './permissions.css'

/**
 * Agent text with control, zero-width and bidi characters shown as visible markers (checklist J9).
 * `keepNewlines`: a line feed shows its marker and then breaks the line (the break is part of the next text
 * run, see `revealControlChars`), so multi-line text keeps its lines and no blank line is added.
 */
export function VisibleText({ text, keepNewlines = false, prose = false }: { text: string; keepNewlines?: boolean; prose?: boolean }) {
  const segments = revealControlChars(text, { keepNewlines, prose })
  return (
    <>
      {segments.map((segment, i) =>
        segment.kind === 'text' ? (
          <span key={i}>{segment.value}</span>
        ) : (
          <abbr key={i} className="perm-ctrl" title={segment.label} aria-label={segment.label}>
            {segment.code}
          </abbr>
        ),
      )}
    </>
  )
}

/** A warning shown above agent text that hides or reorders characters. */
export function HiddenCharsWarning({ texts }: { texts: (string | null | undefined)[] }) {
  if (!texts.some((t) => typeof t === 'string' && hasHiddenCharacters(t))) return null
  return (
    <p className="perm-warning" role="note">
      Contains hidden or direction-changing characters, shown highlighted. Check it carefully.
    </p>
  )
}
