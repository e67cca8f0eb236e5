/**
 * A name that is cut in its middle when it does not fit ("frontend-applicat…ice-v2"): a folder's name says most at
 * both ends (the project, then the variant or version), and an ellipsis at the end hid the part that told two apart.
 * No measuring: the text is two pieces in a row, the start shrinks with an ellipsis, the end keeps its room. Pieces
 * laid in a row read as separate lines to a screen reader, so a {@link CutLine} gives it the whole text instead.
 */
import type { ReactNode } from 'react'
import { folderName, untitledName } from '../../../common/session/title'
import './middle-cut.css'

/** Strong right-to-left letters (Hebrew, Arabic, Syriac, Thaana, N'Ko … and their presentation forms). */
const RTL = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]|\ud802[\udc00-\udfff]|\ud803[\udc00-\udfff]|\ud83a[\udc00-\udfff]/

/** Printable ASCII: every character is a grapheme of its own (no combining marks, no pairs, no CR LF). */
const PLAIN = /^[\x20-\x7e]*$/

/** One segmenter for every cut: making one costs far more than segmenting a name (every tool card's path is cut). */
let segmenter: Intl.Segmenter | null | undefined

/** Grapheme clusters, so an emoji or an accented letter is never split between the two pieces. */
const graphemes = (text: string): string[] => {
  if (PLAIN.test(text)) return text.split('')
  if (segmenter === undefined) {
    const Segmenter = (Intl as { Segmenter?: typeof Intl.Segmenter }).Segmenter
    segmenter = Segmenter ? new Segmenter(undefined, { granularity: 'grapheme' }) : null
  }
  return segmenter ? Array.from(segmenter.segment(text), (s) => s.segment) : Array.from(text)
}

/**
 * Where `text` is split: the end piece is its last third, at least 6 and at most `tail` graphemes (graphemes), or
 * nothing when the text is short or reads right to left (two pieces laid side by side would reorder it).
 */
export function middleCutParts(text: string, tail = 12): [string, string] {
  if (RTL.test(text)) return [text, '']
  const parts = graphemes(text)
  if (parts.length < 12) return [text, '']
  const keep = Math.min(tail, Math.max(6, Math.round(parts.length / 3)))
  return [parts.slice(0, -keep).join(''), parts.slice(-keep).join('')]
}

/** The pieces of a cut name, shown (inside a {@link CutLine}, which gives a screen reader the whole text). */
export function MiddleCut({ text, className, tail }: { text: string; className?: string; tail?: number }) {
  const [head, end] = middleCutParts(text, tail)
  return (
    <span className={className ? `middle-cut ${className}` : 'middle-cut'}>
      <span className="middle-cut-head">{head}</span>
      {end && <span className="middle-cut-tail">{end}</span>}
    </span>
  )
}

/**
 * A line of words and cut names (`children`), shown; `text`, the same line whole, is what a screen reader reads (the
 * pieces in a row would read as separate lines: "Session in", "customer-portal-fro", "ntend-v2").
 */
export function CutLine({ text, children, wraps = false }: { text: string; children: ReactNode; /** Words that do not fit after the name go onto the next line (`.cut-line-wraps`). */ wraps?: boolean }) {
  return (
    <>
      <span className={wraps ? 'cut-line cut-line-wraps' : 'cut-line'} aria-hidden="true">
        {children}
      </span>
      <span className="sr-only">{text}</span>
    </>
  )
}

/** A session without a title, named after its folder ("Session in …"), the folder's name cut in its middle. */
export function FolderTitle({ cwd }: { cwd: string }) {
  const folder = folderName(cwd)
  const name = untitledName(cwd)
  return (
    <CutLine text={name}>
      <span className="cut-words">{name.slice(0, -folder.length)}</span>
      <MiddleCut text={folder} />
    </CutLine>
  )
}

/** A name alone on its line, cut in its middle (a folder's path or name). */
export function CutText({ text }: { text: string }) {
  return (
    <CutLine text={text}>
      <MiddleCut text={text} />
    </CutLine>
  )
}
