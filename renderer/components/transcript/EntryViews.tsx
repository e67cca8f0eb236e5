import { memo, useState } from 'react'
import type { CompactionEntry, ContentBlock, MessageEntry, TurnErrorEntry, TurnStopEntry, UnknownEntry } from '../../../common/session/types'
import { restartedByPerson, stopNoteText, turnErrorText } from '../../../common/session/turn-stop'
import { Icon } from '../common/icons'
import { JsonDisclosure } from '../common/JsonView'
import { useSeams } from '../common/seams'
import { ContentBlockView } from './ContentBlockView'
import { EXCLUDED_NOTE, ExcludedMark } from './excluded'
import { ErrorData, NotSentNote } from './not-sent'
import { revealAsText } from '../permissions/reveal-text'
import { VisibleText } from '../permissions/VisibleText'

function Blocks({ content, markdown }: { content: ContentBlock[]; markdown: boolean }) {
  const { onOpenLink } = useSeams()
  return (
    <>
      {content.map((block, i) => (
        <ContentBlockView key={i} block={block} markdown={markdown} onOpenLink={onOpenLink} />
      ))}
    </>
  )
}

export const UserMessage = memo(function UserMessage({ entry, sentLater = false }: { entry: MessageEntry; sentLater?: boolean }) {
  const notSent = entry.notSent
  return (
    <div className="entry-user">
      <div className={notSent ? 'user-bubble user-bubble-not-sent' : 'user-bubble'} aria-label={notSent ? (notSent.mayHaveTaken ? 'Your message, answered with an error' : 'Your message, not sent') : 'Your message'}>
        <Blocks content={entry.content} markdown={false} />
        {entry.excluded && <p className="muted small">{EXCLUDED_NOTE}</p>}
      </div>
      {notSent && <NotSentNote entry={{ ...entry, notSent }} sentLater={sentLater} />}
    </div>
  )
})

export const AgentMessage = memo(function AgentMessage({ entry, agentName }: { entry: MessageEntry; agentName: string }) {
  return (
    <div className={entry.excluded ? 'entry-agent entry-excluded' : 'entry-agent'} aria-label={`${agentName} says`}>
      <Blocks content={entry.content} markdown />
      {entry.excluded && <ExcludedMark />}
    </div>
  )
})

/** `text.split('\n')[0]` without splitting the rest (a thought streams to many kilobytes and re-renders as it grows). */
function firstLine(text: string): string {
  const newline = text.indexOf('\n')
  return newline < 0 ? text : text.slice(0, newline)
}

/** A line that is one bold span and nothing else: `**Subject**` (or `__Subject__`), the span's text in group 1. */
const BOLD_LINE = /^(?:\*\*([^*]*)\*\*|__([^_]*)__)\s*$/

/**
 * The hint of a collapsed thought: its first line, at most 120 characters. A first line that is only a bold title
 * shows as the title's text (Gemini CLI opens every thought with `**Subject**`, codex-acp its reasoning summaries),
 * and an empty one is passed over (Gemini's thought without a subject starts with `****`).
 */
function thoughtPreview(text: string): string {
  let rest = text.trim()
  while (rest !== '') {
    const line = firstLine(rest)
    const bold = BOLD_LINE.exec(line)
    if (!bold) return line.slice(0, 120)
    const title = (bold[1] ?? bold[2] ?? '').trim()
    if (title !== '') return title.slice(0, 120)
    rest = rest.slice(line.length).trim()
  }
  return ''
}

/** Thoughts are collapsed by default: a disclosure button with the first line as a hint. */
export const AgentThought = memo(function AgentThought({ entry }: { entry: MessageEntry }) {
  const [open, setOpen] = useState(false)
  const first = entry.content.find((b) => b.type === 'text') as { text?: string } | undefined
  const preview = thoughtPreview(first?.text ?? '')
  const id = `thought-${entry.id}`
  return (
    <div className={entry.excluded ? 'entry-thought entry-excluded' : 'entry-thought'}>
      <button type="button" className="thought-toggle" aria-expanded={open} aria-controls={id} onClick={() => setOpen(!open)}>
        <Icon name="chevron" size={14} className={open ? 'rotate-90' : undefined} />
        <span className="thought-label">Thought</span>
        {!open && preview && <span className="thought-preview muted">{preview}</span>}
      </button>
      {entry.excluded && <ExcludedMark />}
      {open && (
        <div className="thought-body" id={id}>
          <Blocks content={entry.content} markdown />
        </div>
      )}
    </div>
  )
})

export const CompactionView = memo(function CompactionView({ entry }: { entry: CompactionEntry }) {
  return (
    <div className="entry-divider" role="note" aria-label="Context compaction">
      <span className="divider-label">Context compaction · {entry.status}</span>
      {entry.summary.length > 0 && (
        <details className="disclosure">
          <summary>Summary</summary>
          <Blocks content={entry.summary} markdown />
        </details>
      )}
      {entry.error != null && <JsonDisclosure summary="Error" value={entry.error} />}
    </div>
  )
})

/** Longest error shown whole on the mark's line; a longer or multi-line one opens from it. */
const MARK_LINE = 160

/**
 * Where an earlier turn ended with an error: one quiet line (the alert under the transcript is for the turn just
 * ended), so a partial answer above it does not read as a complete one.
 */
const cutLine = (line: string, max: number) => (line.length > max ? `${line.slice(0, max - 1)}…` : line)

export const TurnErrorMark = memo(function TurnErrorMark({ entry, saidAbove = false }: { entry: TurnErrorEntry; /** The agent's message above says it. */ saidAbove?: boolean }) {
  const message = entry.message.trim()
  const oneLine = saidAbove || (message.length <= MARK_LINE && !message.includes('\n'))
  // The person ended the turn by restarting its agent: marked as the live note was (their choice, not an alarm).
  const chosen = restartedByPerson(entry)
  return (
    <div className={chosen ? 'turn-error-mark turn-error-mark-chosen' : 'turn-error-mark'} role="note" aria-label="How the turn ended">
      <Icon name={chosen ? 'restart' : 'alert'} />
      {oneLine && entry.data ? (
        <div className="turn-error-mark-body">
          <span>{turnErrorText(revealAsText(message, { prose: true }), entry.code, saidAbove, entry.byBosun)}</span>
          <ErrorData data={entry.data} />
        </div>
      ) : oneLine ? (
        <span>{turnErrorText(revealAsText(message, { prose: true }), entry.code, saidAbove, entry.byBosun)}</span>
      ) : (
        <details className="disclosure">
          <summary>{turnErrorText(revealAsText(cutLine(firstLine(message).trimEnd(), MARK_LINE)), entry.code, false, entry.byBosun)}</summary>
          <pre className="turn-error-mark-text">
            <VisibleText text={message} prose />
          </pre>
          {/* The rest of the error's `data`, as the agent sent it. */}
          {entry.data && (
            <pre className="turn-error-mark-text">
              <VisibleText text={entry.data} prose code />
            </pre>
          )}
        </details>
      )}
    </div>
  )
})

/**
 * Where an earlier turn ended early without an error (stopped, refused, at a limit): the same quiet words the note
 * under the transcript said when that turn had just ended.
 */
export const TurnStopMark = memo(function TurnStopMark({ entry }: { entry: TurnStopEntry }) {
  return (
    <p className="turn-note turn-stop-mark muted" role="note" aria-label="How the turn ended">
      {stopNoteText(entry)}
    </p>
  )
})

export const UnknownEntryView = memo(function UnknownEntryView({ entry }: { entry: UnknownEntry }) {
  return (
    <div className="entry-unknown">
      <JsonDisclosure summary={`Update “${entry.sessionUpdate}” (not understood by this version of Bosun)`} value={entry.raw} />
    </div>
  )
})
