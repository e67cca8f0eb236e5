import { memo, useMemo, useState } from 'react'
import { describeChange, diffModelOf, type DiffChangeView, type DiffContext, type DiffLine, type DiffPatchView } from './diff-model'
import { JsonView } from '../common/JsonView'
import { hasHiddenCharactersInCode, revealAsText } from '../permissions/reveal-text'
import { VisibleText } from '../permissions/VisibleText'

/** Lines shown at first, and how many more each "Show more" adds: a 50,000-line diff drawn at once holds the page for seconds. */
export const DIFF_PAGE_LINES = 400
export const DIFF_MORE_LINES = 2_000

function Lines({ lines, label, numbered = true }: { lines: DiffLine[]; label: string; numbered?: boolean }) {
  const [count, setCount] = useState(DIFF_PAGE_LINES)
  const shown = lines.length > count ? lines.slice(0, count) : lines
  return (
    <>
      <div className={numbered ? 'diff-lines' : 'diff-lines diff-unnumbered'} role="table" aria-label={label} tabIndex={0}>
        {shown.map((line, i) => (
          <div key={i} className={`diff-line diff-${line.kind}`} role="row">
            {numbered && (
              <>
                <span className="diff-no" role="cell" aria-hidden="true">
                  {line.oldNo ?? ''}
                </span>
                <span className="diff-no" role="cell" aria-hidden="true">
                  {line.newNo ?? ''}
                </span>
              </>
            )}
            <span className="diff-mark" role="cell" aria-hidden="true">
              {line.kind === 'add' ? '+' : line.kind === 'del' ? '-' : ' '}
            </span>
            <span className="diff-text" role="cell">
              {line.kind === 'add' ? <span className="sr-only">added: </span> : line.kind === 'del' ? <span className="sr-only">removed: </span> : null}
              {hasHiddenCharactersInCode(line.text) ? <VisibleText text={line.text} code /> : line.text}
            </span>
          </div>
        ))}
      </div>
      {lines.length > shown.length && <MoreLines shown={contentLines(shown)} total={contentLines(lines)} last={lines.length - shown.length <= DIFF_MORE_LINES} onMore={() => setCount((n) => n + DIFF_MORE_LINES)} />}
    </>
  )
}

/** The lines of the files a diff shows: its hunk headers (`@@ … @@`) and notes (git's header, "No newline") are not counted. */
export function contentLines(lines: readonly DiffLine[]): number {
  let count = 0
  for (const line of lines) if (line.kind === 'add' || line.kind === 'del' || line.kind === 'context') count++
  return count
}

/** `last`: the next page is the rest (pages are counted in rows, hunk headers included; what it says, in lines). */
function MoreLines({ shown, total, last, onMore }: { shown: number; total: number; last: boolean; onMore: () => void }) {
  return (
    <button type="button" className="link-button" onClick={onMore}>
      {last
        ? `Show all ${total.toLocaleString('en')} lines`
        : `Show ${DIFF_MORE_LINES.toLocaleString('en')} more lines (${shown.toLocaleString('en')} of ${total.toLocaleString('en')} shown)`}
    </button>
  )
}

/** Patch text in a format Bosun does not read: shown as sent, never parsed (it only looks like a git patch, maybe). */
function RawPatch({ format, text }: { format: string; text: string }) {
  const [count, setCount] = useState(DIFF_PAGE_LINES)
  const lines = useMemo(() => text.split('\n'), [text])
  const shown = lines.length > count ? lines.slice(0, count).join('\n') : text
  return (
    <>
      <p className="diff-raw-note muted">
        Patch in the format <code>{format}</code>, which Bosun does not read: shown as sent.
      </p>
      <pre className="diff-raw" tabIndex={0} aria-label={`Patch (${format})`}>
        {hasHiddenCharactersInCode(shown) ? <VisibleText text={shown} prose /> : shown}
      </pre>
      {lines.length > count && <MoreLines shown={count} total={lines.length} last={lines.length - count <= DIFF_MORE_LINES} onMore={() => setCount((n) => n + DIFF_MORE_LINES)} />}
    </>
  )
}

const KNOWN_OPERATIONS = new Set(['add', 'delete', 'modify', 'move', 'copy'])

/** The v2 `changes`, one line each: what happened and to which path ("deleted /gone", "moved /o → /n"). */
function ChangeList({ changes, patch }: { changes: DiffChangeView[]; patch: DiffPatchView | null }) {
  if (changes.length === 0) return null
  return (
    <ul className="diff-changes" aria-label="Changed files">
      {changes.map((change, i) => {
        const { verb, paths, note } = describeChange(change, patch !== null)
        return (
          <li key={i}>
            <span className={`badge badge-op badge-op-${KNOWN_OPERATIONS.has(change.operation) ? change.operation : 'other'}`}>{verb}</span>{' '}
            <span className="diff-path" title={revealAsText(paths)}>
              <VisibleText text={paths} />
            </span>
            {note && (
              <>
                {' '}
                <span className="muted">({note})</span>
              </>
            )}
          </li>
        )
      })}
    </ul>
  )
}

function Stats({ added, removed }: { added: number; removed: number }) {
  return (
    <span className="diff-stats" aria-label={`${added} lines added, ${removed} removed`}>
      <span className="diff-stat-add">+{added}</span> <span className="diff-stat-del">-{removed}</span>
    </span>
  )
}

/**
 * Whether a diff block hides characters in a path or its text (a right-to-left override that shows `notes-\u202Etxt.sh`
 * as `notes-hs.txt`, Trojan Source's reordered code): they are shown as markers, and the card says so above it. Reads
 * the block's strings as sent (its paths, texts, changes and patch), not the diff made of them.
 */
export function diffHidesCharacters(block: unknown): boolean {
  const hides = (value: unknown, depth: number): boolean => {
    if (typeof value === 'string') return hasHiddenCharactersInCode(value)
    if (depth === 0 || typeof value !== 'object' || value === null) return false
    return Object.entries(value).some(([key, inner]) => key !== '_meta' && hides(inner, depth - 1))
  }
  return hides(block, 3)
}

/**
 * A diff content block, v1 (`path/oldText/newText`, diffed here) or v2 (`changes[]`, always listed, and an optional
 * patch under them). `locations` and `rawInput` are the tool call's: they say where a v1 snippet sits in its file.
 * `pathInTitle`: the card's title names the file, so the header leaves it out.
 */
export const DiffView = memo(function DiffView({ block, locations, rawInput, ordinal, pathInTitle = false }: { block: Record<string, unknown>; pathInTitle?: boolean } & DiffContext) {
  const model = useMemo(() => diffModelOf(block, { locations, rawInput, ordinal }), [block, locations, rawInput, ordinal])
  switch (model.kind) {
    case 'unified':
      return (
        <figure className="diff" aria-label={`Diff of ${revealAsText(model.path)}`}>
          <figcaption className="diff-header">
            {/* The card's title already names the file: the header does not again (the figure's name still does). */}
            <span className="diff-path">{!pathInTitle && <VisibleText text={model.path} />}</span>
            {model.isNewFile && <span className="badge badge-muted">new file</span>}
            {model.isDeletedFile && <span className="badge badge-muted">deleted</span>}
            {!model.numbered && (
              <span className="badge badge-muted" title="The agent sent the changed part of the file and not where it is, so its lines are not numbered.">
                excerpt
              </span>
            )}
            <Stats added={model.added} removed={model.removed} />
          </figcaption>
          {model.lines.length === 0 ? (
            model.cutAfterLines !== 0 && (
              <p className="muted diff-empty">{model.cutAfterLines === undefined ? 'No changes' : `No changes in the first ${model.cutAfterLines.toLocaleString('en-US')} lines`}</p>
            )
          ) : (
            <Lines lines={model.lines} label={`Changes to ${revealAsText(model.path)}`} numbered={model.numbered} />
          )}
          {model.cutAfterLines !== undefined && (
            <p className="diff-raw-note muted">
              {model.cutAfterLines === 0
                ? 'This file is larger than Bosun keeps from an agent, and so is its first line: the diff cannot be shown.'
                : `This file is larger than Bosun keeps from an agent: the diff compares its first ${model.cutAfterLines.toLocaleString('en-US')} lines. Changes after them are not shown.`}
            </p>
          )}
        </figure>
      )
    case 'changes': {
      const { changes, patch } = model
      const count = changes.length === 1 ? '1 file changed' : `${changes.length} files changed`
      return (
        <figure className="diff" aria-label="File changes">
          <figcaption className="diff-header">
            <span className="diff-path">{count}</span>
            {patch?.kind === 'git' && <Stats added={patch.added} removed={patch.removed} />}
          </figcaption>
          <ChangeList changes={changes} patch={patch} />
          {patch?.kind === 'git' && <Lines lines={patch.lines} label="Patch" />}
          {patch?.kind === 'raw' && <RawPatch format={patch.format} text={patch.text} />}
        </figure>
      )
    }
    case 'invalid':
      return <JsonView value={model.raw} label="Unrecognised diff" />
  }
})
