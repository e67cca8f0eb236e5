import { memo, useMemo, useState } from 'react'
import { describeChange, diffModelOf, type DiffLine } from './diff-model'
import { JsonView } from '../common/JsonView'

/** Lines shown at first, and how many more each "Show more" adds: a 50,000-line diff drawn at once holds the page for seconds. */
export const DIFF_PAGE_LINES = 400
export const DIFF_MORE_LINES = 2_000

function Lines({ lines, label }: { lines: DiffLine[]; label: string }) {
  const [count, setCount] = useState(DIFF_PAGE_LINES)
  const shown = lines.length > count ? lines.slice(0, count) : lines
  return (
    <>
      <div className="diff-lines" role="table" aria-label={label} tabIndex={0}>
        {shown.map((line, i) => (
          <div key={i} className={`diff-line diff-${line.kind}`} role="row">
            <span className="diff-no" role="cell" aria-hidden="true">
              {line.oldNo ?? ''}
            </span>
            <span className="diff-no" role="cell" aria-hidden="true">
              {line.newNo ?? ''}
            </span>
            <span className="diff-mark" role="cell" aria-hidden="true">
              {line.kind === 'add' ? '+' : line.kind === 'del' ? '-' : ' '}
            </span>
            <span className="diff-text" role="cell">
              {line.kind === 'add' ? <span className="sr-only">added: </span> : line.kind === 'del' ? <span className="sr-only">removed: </span> : null}
              {line.text}
            </span>
          </div>
        ))}
      </div>
      {lines.length > shown.length && (
        <button type="button" className="link-button" onClick={() => setCount((n) => n + DIFF_MORE_LINES)}>
          {lines.length - shown.length > DIFF_MORE_LINES
            ? `Show ${DIFF_MORE_LINES.toLocaleString('en')} more lines (${shown.length.toLocaleString('en')} of ${lines.length.toLocaleString('en')} shown)`
            : `Show all ${lines.length.toLocaleString('en')} lines`}
        </button>
      )}
    </>
  )
}

function Stats({ added, removed }: { added: number; removed: number }) {
  return (
    <span className="diff-stats" aria-label={`${added} lines added, ${removed} removed`}>
      <span className="diff-stat-add">+{added}</span> <span className="diff-stat-del">-{removed}</span>
    </span>
  )
}

/** A diff content block, v1 (`path/oldText/newText`, diffed here) or v2 (`changes[]` + optional git patch). */
export const DiffView = memo(function DiffView({ block }: { block: Record<string, unknown> }) {
  const model = useMemo(() => diffModelOf(block), [block])
  switch (model.kind) {
    case 'unified':
      return (
        <figure className="diff" aria-label={`Diff of ${model.path}`}>
          <figcaption className="diff-header">
            <span className="diff-path">{model.path}</span>
            {model.isNewFile && <span className="badge badge-muted">new file</span>}
            <Stats added={model.added} removed={model.removed} />
          </figcaption>
          {model.lines.length === 0 ? <p className="muted diff-empty">No changes</p> : <Lines lines={model.lines} label={`Changes to ${model.path}`} />}
        </figure>
      )
    case 'patch':
      return (
        <figure className="diff" aria-label="Patch">
          <figcaption className="diff-header">
            <span className="diff-path">
              {model.changes.length === 1 ? model.changes[0]!.path : `${model.changes.length} files changed`}
            </span>
            <Stats added={model.added} removed={model.removed} />
          </figcaption>
          <Lines lines={model.lines} label="Patch" />
        </figure>
      )
    case 'changes':
      return (
        <figure className="diff" aria-label="File changes">
          <figcaption className="diff-header">
            <span className="diff-path">{model.changes.length === 1 ? '1 file changed' : `${model.changes.length} files changed`}</span>
          </figcaption>
          <ul className="diff-changes">
            {model.changes.map((change, i) => (
              <li key={i}>
                <span className={`badge badge-op badge-op-${change.operation}`}>{change.operation}</span>
                <span className="diff-path">{change.path}</span>
                <span className="muted">{describeChange(change)}</span>
              </li>
            ))}
          </ul>
        </figure>
      )
    case 'invalid':
      return <JsonView value={model.raw} label="Unrecognised diff" />
  }
})
