import { memo, useEffect, useState } from 'react'
import { terminalOf } from '../../../common/session/background'
import { readRangeText } from '../../../common/session/file-reads'
import type { ElicitationView, PermissionRequestView, TerminalView, ToolCallEntry } from '../../../common/session/types'
import { Icon } from '../common/icons'
import { JsonDisclosure } from '../common/JsonView'
import { useSeams } from '../common/seams'
import { revealAsText } from '../permissions/reveal-text'
import { decidedByText, decisionVerb, describeUnanswered, isDecidedByOption } from '../permissions/resolution-text'
import { HiddenCharsWarning, VisibleText } from '../permissions/VisibleText'
import { ContentBlockView } from './ContentBlockView'
import { DiffView, diffHidesCharacters } from './DiffView'
import { diffOrdinals, isUnplacedExcerpt } from './diff-model'
import { ExcludedMark } from './excluded'
import { LocationList } from './LocationList'
import { TerminalOutput, terminalRuns } from './TerminalOutput'
import { ToolTitle } from './ToolTitle'
import { asATerminalLeavesIt } from '../../../common/terminal/terminal-text'
import { commandOf } from './tool-command'
import {
  CANCELLED_COMMAND_NOTE,
  cancelledCommandOf,
  failureReasonOf,
  insideErrorWrapper,
  isVerbatimToolText,
  shellMetadataOf,
  stopNoteOf,
  STOPPED_COMMAND_NOTE,
  todoListOutput,
  unexplainedFailureNote,
} from './tool-output'
import { PlanList } from './PlanPanel'
import { AgentNote } from './agent-note'
import { STATUS_LABEL, TOOL_KIND_LABEL, statusBadgeOf, toolKindOf } from './tool-kind'
import { CancelToolCallButton, toolCallCancelNote } from './tool-call-actions'
import './tool-card.css'
import { itemsCut } from '../../../common/bounded'
import { notKeptNote } from './cut-list'

/**
 * What stands in for the items past the bound of a list Bosun kept (an agent's 100,000 content items: the marker
 * `boundJson` leaves as the last item, which the reducer keeps as invalid content), said in words; null for anything else.
 */
function cutListNote(content: ToolCallEntry['content'][number]): string | null {
  const more = content.type === 'invalid' ? itemsCut((content as { original?: unknown }).original) : 0
  return more ? notKeptNote(more, 'items of this tool call’s content') : null
}

export interface ToolCallCardProps {
  entry: ToolCallEntry
  /** The session's permission requests (the card shows those named by `entry.permissionIds`). */
  permissions: Record<string, PermissionRequestView>
  /** The session's elicitations (the card shows those named by `entry.elicitationIds`). */
  elicitations?: Record<string, ElicitationView>
  /** Terminals referenced by the card's content. */
  terminals: Record<string, TerminalView>
  /** The session's version lets the agent show terminals of its own (v2, the default); on v1 Bosun runs them all. */
  agentTerminals?: boolean
  /**
   * The turn of this tool call is over and nothing more will run for it (v1: the agent answered the prompt). A tool
   * call the agent left pending or in progress is then told as not finished, not as waiting or running.
   */
  turnEnded?: boolean
}

/** An elicitation still waiting for the person: an open form or consent dialog, or a URL awaiting its completion. */
const isAwaiting = (elicitation: ElicitationView): boolean => elicitation.status === 'pending' || (elicitation.mode === 'url' && elicitation.status === 'accepted')

const STATUS_CLASS = {
  pending: 'badge-muted',
  in_progress: 'badge-progress',
  completed: 'badge-ok',
  failed: 'badge-danger',
  cancelled: 'badge-muted',
  paused: 'badge-warn',
} as const

// "Allowed by rule …" / "Allowed by you (Allow once)" / "You chose “Ask me later”" (unknown kinds, G4).
export { decidedByText }

/**
 * A text content that says again what the card already shows as it is: its title, or the message of one of its
 * elicitations (claude-agent-acp's AskUserQuestion puts the question in all three). Compared whole, ends trimmed: a
 * text that differs in anything else is shown.
 */
export function repeatsShownText(content: ToolCallEntry['content'][number], shown: readonly string[]): boolean {
  if (content.type !== 'content') return false
  const block = (content as Record<string, unknown>).content as { type?: unknown; text?: unknown } | undefined
  if (block?.type !== 'text' || typeof block.text !== 'string') return false
  const text = block.text.trim()
  return text !== '' && shown.some((s) => s.trim() === text)
}

/**
 * A failed call's text content without the `<tool_use_error>…</tool_use_error>` wrapper around all of it: the card
 * already says it failed, and the tags read as noise ("<tool_use_error>String to replace not found in file."). Text
 * with anything outside the tags, and every other content, is kept as sent.
 */
export function withoutErrorWrapper(content: ToolCallEntry['content'][number]): ToolCallEntry['content'][number] {
  if (content.type !== 'content') return content
  const block = (content as Record<string, unknown>).content as { type?: unknown; text?: unknown } | undefined
  if (block?.type !== 'text' || typeof block.text !== 'string') return content
  const inner = insideErrorWrapper(block.text)
  if (inner === null) return content
  return { ...content, content: { ...block, text: inner } } as ToolCallEntry['content'][number]
}

/** A text content block that is claude-agent-acp's note to its model at a Stop and nothing else: the note; else null. */
function stopNoteOfBlock(block: unknown): string | null {
  const { type, text } = (typeof block === 'object' && block !== null ? block : {}) as { type?: unknown; text?: unknown }
  const split = type === 'text' && typeof text === 'string' ? stopNoteOf(text) : null
  return split && split.output === '' ? split.note : null
}

/**
 * A text content without the note OpenCode ends a command's output with ({@link shellMetadataOf}), or Gemini CLI starts
 * a stopped one's with ({@link cancelledCommandOf}), and the note.
 */
function withoutShellNote(content: ToolCallEntry['content'][number]): { content: ToolCallEntry['content'][number] | null; note: string | null } {
  const block = content.type === 'content' ? ((content as Record<string, unknown>).content as { type?: unknown; text?: unknown } | undefined) : undefined
  const split = block?.type === 'text' && typeof block.text === 'string' ? (shellMetadataOf(block.text) ?? cancelledCommandOf(block.text)) : null
  if (!split) return { content, note: null }
  // A command that printed nothing: the note alone.
  if (split.output.trim() === '') return { content: null, note: split.note }
  return { content: { ...content, content: { ...block, text: split.output } } as ToolCallEntry['content'][number], note: split.note }
}

/** Escapes, carriage returns and other control characters a text output may hold (raw command output). */
// eslint-disable-next-line no-control-regex
const TERMINAL_CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/

/** A text content as a terminal would have shown it ({@link asATerminalLeavesIt}); any other content as it is. */
export function asShownOnScreen(content: ToolCallEntry['content'][number]): ToolCallEntry['content'][number] {
  if (content.type !== 'content') return content
  const block = (content as Record<string, unknown>).content as { type?: unknown; text?: unknown } | undefined
  if (block?.type !== 'text' || typeof block.text !== 'string' || !TERMINAL_CONTROL.test(block.text)) return content
  return { ...content, content: { ...block, text: asATerminalLeavesIt(block.text) } } as ToolCallEntry['content'][number]
}

/** Whether one of the call's terminals has started and not ended (as its own badge tells: "running"). */
function runsATerminal(entry: ToolCallEntry, terminals: Record<string, TerminalView>): boolean {
  return entry.content.some((c) => {
    if (c.type !== 'terminal') return false
    const terminal = terminalOf(terminals, String((c as Record<string, unknown>).terminalId ?? ''))
    return terminal !== undefined && terminalRuns(terminal)
  })
}

/** Said under a command the agent did not stop when the person pressed Stop (see `ToolCallEntry.ranOnAfterStop`). */
export function ranOnNote(stillRunning: boolean): string {
  return stillRunning
    ? 'The agent did not stop this command when you pressed Stop: it is still running, and only the agent can stop it.'
    : 'The agent did not stop this command when you pressed Stop: it ran on after the turn ended.'
}

/**
 * The title as the card shows it. Agents write titles in Markdown's way: claude-agent-acp's "Edit `/src/a.ts`",
 * "Read `x`". The title is already set in a code face, so a span in backticks is shown without them. A command's
 * title is the command itself, where a backtick is the shell's: an `execute` title is shown exactly as sent.
 */
/**
 * The card's name for a screen reader: its kind, then its title ("Run: Migrate the database"); a title that starts
 * with the kind's word already says it ("Edit src/app.ts", not "Edit: Edit src/app.ts").
 */
export function cardName(kindLabel: string, title: string): string {
  return title.toLowerCase().startsWith(`${kindLabel.toLowerCase()} `) ? title : `${kindLabel}: ${title}`
}

/**
 * Whether the card's title is the command itself: claude-agent-acp titles a command it runs with the command in
 * backticks (a backtick inside escaped), and the Command block below said it a second time.
 */
export function titleIsCommand(title: string, command: string): boolean {
  const t = title.trim()
  const inner = t.length > 1 && t.startsWith('`') && t.endsWith('`') ? t.slice(1, -1).replaceAll('\\`', '`') : t
  return command.trim() !== '' && (inner.trim() === command.trim() || t === command.trim())
}

/** Whether a title names a path whole: "Wrote /w/a.txt" names /w/a.txt, "Read /w/a.txt.bak" does not. */
export function namesPath(title: string, path: string): boolean {
  if (path === '') return false
  const edge = (c: string | undefined) => c === undefined || /[\s:,;()'"`]/.test(c)
  for (let at = title.indexOf(path); at >= 0; at = title.indexOf(path, at + 1)) {
    if (edge(title[at - 1]) && edge(title[at + path.length])) return true
  }
  return false
}

export function titleForDisplay(title: string, kind: string): string {
  if (kind === 'execute' || !title.includes('`')) return title
  return title.replace(/`([^`\n]+)`/g, '$1')
}

/** Two v1 diffs of the same change: the request's diff, still the content while it waits, is not shown twice. */
const sameDiff = (a: Record<string, unknown>, b: Record<string, unknown>) => a.path === b.path && a.oldText === b.oldText && a.newText === b.newText

export const ToolCallCard = memo(function ToolCallCard({ entry, permissions, elicitations = {}, terminals, agentTerminals = true, turnEnded = false }: ToolCallCardProps) {
  const seams = useSeams()
  const kind = toolKindOf(entry.toolKind)
  const reported = statusBadgeOf(entry.status)
  const requests = entry.permissionIds.map((id) => permissions[id]).filter((p): p is PermissionRequestView => p !== undefined)
  const pending = requests.filter((p) => p.status === 'pending')
  // Requests that ended without a chosen option (dismissed, cancelled with the turn, the agent gone) say so here;
  // a chosen option is told by the footer ("Allowed by you …").
  const unanswered = requests.filter((p) => p.status !== 'pending' && !isDecidedByOption(p))
  const asks = entry.elicitationIds.map((id) => elicitations[id]).filter((e): e is ElicitationView => e !== undefined)
  const waiting = pending.length + asks.filter(isAwaiting).length
  // Asked before it ran, and every request ended without an answer (the agent restarted or exited meanwhile): not run.
  const askedUnanswered = requests.length > 0 && unanswered.length === requests.length
  // claude-agent-acp leaves a command it runs `pending` until it ends, while the command's terminal says it runs: once
  // nothing waits for the person, the card says what its terminal says, not "Pending" above "running".
  const status = reported === 'pending' && pending.length === 0 && runsATerminal(entry, terminals) ? 'in_progress' : reported
  // claude-agent-acp reports no end for some calls (the sandbox's network access it asked about, for one).
  const unfinished = turnEnded && waiting === 0 && (status === 'pending' || status === 'in_progress')
  // Rejected, and the agent said no more of it (codex-acp and Gemini CLI send no update after a rejection; the call is
  // `cancelled` once the session is reopened): it did not run, and the card says so alike, live and reopened.
  const rejected = waiting === 0 && decisionVerb(entry.decidedBy?.optionKind) === 'Rejected' && (status === 'pending' || status === 'in_progress' || status === 'cancelled')
  // codex-acp ends the turn at once on Stop and runs the command on to its end: while its output keeps coming, the card
  // says so, not "Cancelled" above a terminal that says "running".
  const runsOnAfterStop = entry.ranOnAfterStop === true && status === 'cancelled' && runsATerminal(entry, terminals)
  // Not over as far as the agent said: a status Bosun does not know is in progress (H23), a paused call may resume.
  const callRuns = status === 'pending' || status === 'in_progress' || status === 'paused'
  // Every card starts open (its raw payloads are disclosures of their own); the person may collapse it, and anything
  // new awaiting them opens it again.
  const [open, setOpen] = useState(true)
  // Something new waits for the person: show it even if the card was collapsed.
  useEffect(() => {
    if (waiting > 0) setOpen(true)
  }, [waiting])
  const title = entry.title ?? entry.name ?? TOOL_KIND_LABEL[kind]
  const command = commandOf(entry.rawInput)
  const bodyId = `tool-body-${entry.id}`
  const shownElsewhere = [title, ...asks.map((e) => e.message)]
  const split = entry.content
    .filter((c) => !repeatsShownText(c, shownElsewhere))
    .map((c) => (entry.status === 'failed' ? withoutErrorWrapper(c) : c))
    .map(withoutShellNote)
  const shownContent = split.flatMap((s) => (s.content === null ? [] : [asShownOnScreen(s.content)]))
  // OpenCode's notes under a command's output, said as Bosun's words are, and one of a command the person stopped.
  const shellNotes = split.flatMap((s) => (s.note === null ? [] : [s.note]))
  const stoppedCommand = status === 'completed' && (shellNotes.includes(STOPPED_COMMAND_NOTE) || shellNotes.includes(CANCELLED_COMMAND_NOTE))
  // The diffs a permission request showed, of files the agent's own content shows no diff of, or only an excerpt
  // nothing places (see ToolCallEntry.askedDiffs): OpenCode's completed edit of several places shows the replaced
  // word and its replacement where the request showed each changed line of the file.
  const askedDiffs = (entry.askedDiffs ?? []).filter((asked) => {
    const path = (asked as Record<string, unknown>).path
    const own = entry.content.filter((c) => c.type === 'diff' && (c as Record<string, unknown>).path === path) as Record<string, unknown>[]
    const context = { locations: entry.locations, rawInput: entry.rawInput }
    return own.every((c, ordinal) => !sameDiff(c, asked as Record<string, unknown>) && isUnplacedExcerpt(c, { ...context, ordinal }))
  })
  // What Bosun wrote for the call, of files nothing above shows a diff of (see ToolCallEntry.writtenDiffs).
  const diffPaths = new Set([...shownContent, ...askedDiffs].filter((c) => c.type === 'diff').map((c) => (c as Record<string, unknown>).path))
  const writtenDiffs = (entry.writtenDiffs ?? []).filter((c) => c.type !== 'diff' || !diffPaths.has((c as Record<string, unknown>).path))
  // The n-th diff of a file is placed by the n-th location of it (claude-agent-acp: a diff and a location per hunk).
  const shownOrdinals = diffOrdinals(shownContent)
  const askedOrdinals = diffOrdinals(askedDiffs)
  const filesRead = entry.filesRead ?? []
  const hasBody =
    shownContent.length > 0 ||
    shellNotes.length > 0 ||
    filesRead.length > 0 ||
    askedDiffs.length > 0 ||
    writtenDiffs.length > 0 ||
    entry.locations.length > 0 ||
    entry.rawInput !== undefined ||
    entry.rawOutput !== undefined ||
    entry.extra !== undefined ||
    pending.length > 0 ||
    asks.length > 0
  const failureReason = failureReasonOf(entry.status, entry.content, entry.rawOutput)
  const shownTitle = titleForDisplay(title, kind)
  const plainTitle = revealAsText(shownTitle)
  // Paths the title already names ("Wrote /w/a.txt", claude-agent-acp's "Edit `/src/a.ts`"): the body does not repeat them.
  const pathsInTitle = new Set(
    [...entry.locations.map((l) => l.path), ...[...shownContent, ...askedDiffs, ...writtenDiffs].map((c) => (c.type === 'diff' ? (c as Record<string, unknown>).path : undefined))].filter(
      (path): path is string => typeof path === 'string' && namesPath(shownTitle, path),
    ),
  )
  const inTitle = (block: Record<string, unknown>) => typeof block.path === 'string' && pathsInTitle.has(block.path)
  const cancelNote = toolCallCancelNote(entry)
  // A failed call that says nothing of why (no content, no reason in its raw output): said in words under the card,
  // where a rejected or cancelled call says what became of it, not "Failed" alone. A call the person rejected failed
  // for that reason, which the footer says already.
  const noReasonNote = decisionVerb(entry.decidedBy?.optionKind) === 'Rejected' ? null : unexplainedFailureNote(status, kind, entry.content, entry.rawOutput)
  const footer = [
    ...(entry.decidedBy ? [decidedByText(entry.decidedBy)] : []),
    ...unanswered.map(describeUnanswered),
    ...(cancelNote ? [cancelNote] : []),
    ...(noReasonNote ? [noReasonNote] : []),
    ...(entry.ranOnAfterStop ? [ranOnNote(runsOnAfterStop)] : []),
  ]
  return (
    <article className={`tool-card tool-${status}${waiting ? ' tool-awaiting' : ''}${entry.excluded ? ' entry-excluded' : ''}`} aria-label={cardName(TOOL_KIND_LABEL[kind], plainTitle)}>
      {entry.excluded && <ExcludedMark />}
      <header className="tool-header">
        <span className={`tool-icon tool-icon-${kind}`} title={TOOL_KIND_LABEL[kind]}>
          <Icon name={kind} />
        </span>
        <ToolTitle title={shownTitle} />
        {entry.subagent !== undefined && (
          <span className="badge badge-muted tool-subagent" title={entry.subagent}>
            <VisibleText text={entry.subagent} />
          </span>
        )}
        {pending.length > 0 && <span className="badge badge-warn">Needs approval</span>}
        {pending.length === 0 && waiting > 0 && <span className="badge badge-warn">Needs input</span>}
        {rejected ? (
          <span className="badge badge-muted" title="Rejected, and the agent reported nothing more of it: it did not run">
            Rejected
          </span>
        ) : unfinished ? (
          <span className="badge badge-muted" title="The turn ended before the agent reported that this finished">
            Not finished
          </span>
        ) : runsOnAfterStop ? (
          <span className="badge badge-warn" title="You pressed Stop and the agent ended its turn, but this command's output kept coming">
            Running after Stop
          </span>
        ) : waiting > 0 && (status === 'pending' || status === 'in_progress') ? null : (
          // Waiting for the person, the badge above says it all: OpenCode reports its command in progress while it
          // waits for approval, and the card read "Needs approval · In progress" of a command that had not run.
          <span className={`badge ${stoppedCommand ? 'badge-muted' : STATUS_CLASS[status]}`} title={stoppedCommand ? 'The agent reported it completed, but you stopped it' : undefined}>
            {stoppedCommand ? 'Stopped' : STATUS_LABEL[status]}
          </span>
        )}
        <CancelToolCallButton entry={entry} label={plainTitle} />
        {hasBody && (
          <button
            type="button"
            className="icon-button disclosure-button"
            aria-expanded={open}
            aria-controls={bodyId}
            aria-label={open ? `Collapse ${plainTitle}` : `Expand ${plainTitle}`}
            onClick={() => setOpen(!open)}
          >
            <Icon name="chevron" className={open ? 'rotate-90' : undefined} />
          </button>
        )}
      </header>
      {open && hasBody && (
        <div className="tool-body" id={bodyId}>
          <HiddenCharsWarning
            texts={[title, ...entry.locations.map((l) => l.path), ...filesRead.map((r) => r.path)]}
            commands={[command]}
            alsoHidden={[...shownContent, ...askedDiffs, ...writtenDiffs].some((c) => c.type === 'diff' && diffHidesCharacters(c))}
          />
          {command !== null && !titleIsCommand(title, command) && (
            <div className="tool-command">
              <div className="perm-field-label">Command</div>
              <pre className="perm-code" aria-label="Command">
                <VisibleText text={command} keepNewlines command />
              </pre>
            </div>
          )}
          {entry.locations.length > 0 && <LocationList locations={entry.locations} pathsInTitle={pathsInTitle} notKept={entry.locationsNotKept ?? 0} />}
          {shownContent.map((content, i) => {
            const c = content as Record<string, unknown>
            switch (content.type) {
              case 'content': {
                // Stopped by the person: the agent's note to its model alone (claude-agent-acp, stopped while it asked) is folded.
                const note = entry.status === 'cancelled' ? stopNoteOfBlock(c.content) : null
                if (note) return <AgentNote key={i} note={note} />
                const todos = todoListOutput(entry.rawInput, c.content)
                if (todos) return <PlanList key={i} plan={{ planId: '', type: 'items', entries: todos }} />
                return (
                  <ContentBlockView
                    key={i}
                    block={c.content as never}
                    markdown
                    keepLineBreaks
                    verbatim={isVerbatimToolText(entry.toolKind, c.content)}
                    onOpenLink={seams.onOpenLink}
                  />
                )
              }
              case 'diff':
                return <DiffView key={i} block={c} locations={entry.locations} rawInput={entry.rawInput} ordinal={shownOrdinals[i]} pathInTitle={inTitle(c)} />
              case 'terminal': {
                const id = String(c.terminalId ?? '')
                const terminal = terminalOf(terminals, id)
                return (
                  <TerminalOutput
                    key={i}
                    terminalId={id}
                    terminal={terminal}
                    commandShown={command !== null && terminal?.command != null && (terminal.agentRun === true || terminal.command.trim() === command.trim())}
                    awaitingApproval={entry.status === 'pending' && pending.length > 0}
                    rejected={entry.decidedBy?.optionKind?.startsWith('reject') === true}
                    askedUnanswered={askedUnanswered}
                    callCancelled={entry.status === 'cancelled'}
                    callFailed={entry.status === 'failed'}
                    toolEnded={turnEnded || !callRuns}
                    agentTerminals={agentTerminals}
                  />
                )
              }
              default: {
                const cut = cutListNote(content)
                if (cut !== null) {
                  return (
                    <p key={i} className="muted tool-content-cut">
                      {cut}
                    </p>
                  )
                }
                return <JsonDisclosure key={i} summary={`Unknown content (${String(content.type)})`} value={content} />
              }
            }
          })}
          {shellNotes.map((note, i) => (
            <p key={i} className="muted tool-shell-note">
              <VisibleText text={note} keepNewlines />
            </p>
          ))}
          {failureReason !== null && (
            <p className="tool-failure-reason">
              <VisibleText text={failureReason} keepNewlines />
            </p>
          )}
          {askedDiffs.length > 0 && (
            <div className="tool-asked-diffs">
              <p className="tool-asked-label muted">The change as shown when the agent asked for approval:</p>
              {askedDiffs.map((diff, i) => (
                <DiffView
                  key={i}
                  block={diff as Record<string, unknown>}
                  locations={entry.locations}
                  rawInput={entry.rawInput}
                  ordinal={askedOrdinals[i]}
                  pathInTitle={inTitle(diff as Record<string, unknown>)}
                />
              ))}
            </div>
          )}
          {writtenDiffs.length > 0 && (
            <div className="tool-asked-diffs">
              <p className="tool-asked-label muted">What Bosun wrote for the agent:</p>
              {writtenDiffs.map((written, i) => {
                const c = written as Record<string, unknown>
                return written.type === 'diff' ? (
                  <DiffView key={i} block={c} locations={entry.locations} rawInput={entry.rawInput} pathInTitle={inTitle(c)} />
                ) : (
                  <ContentBlockView key={i} block={c.content as never} markdown keepLineBreaks onOpenLink={seams.onOpenLink} />
                )
              })}
            </div>
          )}
          {filesRead.length > 0 && (
            <div className="tool-files-read">
              <p className="tool-asked-label muted">What Bosun read for the agent:</p>
              <ul>
                {filesRead.map((read, i) => (
                  <li key={i}>
                    <code className="tool-read-path">
                      <VisibleText text={read.path} />
                    </code>
                    <span className="muted"> · {readRangeText(read)}</span>
                  </li>
                ))}
              </ul>
            </div>
          )}
          {pending.map((request) => (
            <div className="tool-permission" key={request.requestId}>
              <seams.PermissionPrompt
                request={request}
                toolCall={entry}
                onRespond={(optionId) => seams.onRespondPermission(request.requestId, optionId)}
              />
            </div>
          ))}
          {asks.map((elicitation) => (
            <div className="tool-elicitation" key={elicitation.elicitationRequestId}>
              {seams.renderElicitation(elicitation)}
            </div>
          ))}
          {entry.rawInput !== undefined && <JsonDisclosure summary="Raw input" value={entry.rawInput} />}
          {entry.rawOutput !== undefined && <JsonDisclosure summary="Raw output" value={entry.rawOutput} />}
          {entry.extra !== undefined && <JsonDisclosure summary="Other fields from the agent" value={entry.extra} />}
        </div>
      )}
      {footer.length > 0 && (
        <footer className="tool-footer muted">
          {footer.map((line, i) => (
            <p key={i} className="tool-note">
              {line}
            </p>
          ))}
        </footer>
      )}
    </article>
  )
})
