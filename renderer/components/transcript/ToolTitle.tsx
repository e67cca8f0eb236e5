/**
 * A tool card's title on its line. "Read /home/…/a-very-long/path.ts" keeps its verb and cuts the path in its middle,
 * as folder names are cut (the file's name at the end stays in view), the whole title in the tooltip: a long path once
 * wrapped to four lines and left "Read" on a line of its own. Any other title wraps as before (a command's lines).
 */
import { CutLine, MiddleCut } from '../common/MiddleCut'
import { revealAsText } from '../permissions/reveal-text'
import { VisibleText } from '../permissions/VisibleText'

/** One or two words, then one path on the same line ("Read /a/b.ts", "Edit ~/x", "List files ./src"). */
const VERB_AND_PATH = /^([^\s/~.`]+(?: [^\s/~.`]+)?) ((?:~|\.{1,2})?\/[^\n]*[^\s])$/

/** The verb and the path of a title that is one, or null (a title with characters it must show marked is never cut). */
export function verbAndPath(title: string): [string, string] | null {
  if (revealAsText(title) !== title) return null
  const match = VERB_AND_PATH.exec(title)
  return match ? [match[1]!, match[2]!] : null
}

export function ToolTitle({ title }: { title: string }) {
  const parts = verbAndPath(title)
  if (!parts) {
    return (
      <span className="tool-title">
        <VisibleText text={title} keepNewlines command />
      </span>
    )
  }
  const [verb, path] = parts
  return (
    <span className="tool-title tool-title-cut" title={title}>
      <CutLine text={title}>
        <span className="cut-words">{`${verb} `}</span>
        <MiddleCut text={path} tail={32} />
      </CutLine>
    </span>
  )
}
