import { hasHiddenCharacters, isPadded, revealControlChars } from './reveal-text'
import './permissions.css'

/**
 * Agent text with control, zero-width and bidi characters shown as visible markers (checklist J9).
 * `keepNewlines`: a line feed shows its marker and then breaks the line (the break is part of the next text
 * run, see `revealControlChars`), so multi-line text keeps its lines and no blank line is added.
 */
export function VisibleText({ text, keepNewlines = false, prose = false, command = false, code = false }: { text: string; keepNewlines?: boolean; prose?: boolean; /** A command: long runs of blanks or line feeds collapse to one marker. */ command?: boolean; /** A line of code: tabs are layout. */ code?: boolean }) {
  const segments = revealControlChars(text, { keepNewlines, prose, collapseRuns: command, tabs: code })
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

/** A warning shown above agent text that hides or reorders characters, or a command padded to push its end out of sight. */
export function HiddenCharsWarning({ texts, commands = [], alsoHidden = false }: { texts: (string | null | undefined)[]; commands?: (string | null | undefined)[]; /** Something else shown with them hides characters (a diff). */ alsoHidden?: boolean }) {
  const hidden = alsoHidden || [...texts, ...commands].some((t) => typeof t === 'string' && hasHiddenCharacters(t))
  const padded = commands.some((t) => typeof t === 'string' && isPadded(t))
  if (!hidden && !padded) return null
  return (
    <p className="perm-warning" role="note">
      {hidden ? 'Contains hidden or direction-changing characters, shown highlighted. ' : ''}
      {padded ? 'The command is padded with many blank characters or empty lines, shown collapsed. ' : ''}
      Check it carefully.
    </p>
  )
}
