import { limitedToSession } from '../../../common/permission-words'
import { Fragment, useEffect, useId, useRef, useState, useSyncExternalStore, type KeyboardEvent, type ReactNode } from 'react'
import type { PermissionRequestView, ToolCallEntry } from '../../../common/session/types'
import { Icon } from '../common/icons'
import { arrangeOptions, contradictingName, MAX_OPTION_NAME_CHARS, optionAppearance, promptKeyAction } from './option-style'
import { clearPromptFocus, promptFocusTarget, subscribePromptFocus } from './prompt-focus'
import { useFocusAfterAnswer, useFocusOnArrival } from './use-answer-focus'
import { commandOf } from '../transcript/tool-command'
import { LOCATIONS_SHOWN } from '../transcript/locations-shown'
import { DIFF_MORE_LINES, DIFF_PAGE_LINES } from '../transcript/DiffView'
import { describeResolution } from './resolution-text'
import { HiddenCharsWarning, VisibleText } from './VisibleText'
import './permissions.css'
import { cutText } from '../../../common/bounded'

export { describeResolution } from './resolution-text'
export { VisibleText } from './VisibleText'

export interface PermissionPromptProps {
  request: PermissionRequestView
  /** The tool call the request is about, when the session knows it. */
  toolCall?: ToolCallEntry
  /** An offered option id, or `null` to dismiss (the agent is told `cancelled`). */
  onRespond: (optionId: string | null) => void
  /** Move focus into the prompt when it appears (the prompt itself, never an option: Enter must not approve). */
  autoFocus?: boolean
  /**
   * Show what the request is about (off when the prompt sits inside a tool-call card that already shows it).
   * A `command` subject is shown whatever this says: the card does not know the command the person approves.
   */
  showSubject?: boolean
}

/**
 * One permission request: title, description, what it is about, and the agent's options as buttons in a
 * fixed order by kind. Keys: 1 allow once, 2 allow always, 3 reject once, 4 reject always, 5..9 other options
 * (see option-style.ts); Escape dismisses. Answered requests show how they ended instead.
 */
export function PermissionPrompt({ request, toolCall, onRespond, autoFocus = false, showSubject = true }: PermissionPromptProps) {
  const titleId = useId()
  const descriptionId = useId()
  const askerId = useId()
  const rememberId = useId()
  // A structural type keeps this file type-checkable without the DOM lib (unit tests render it in Node).
  const rootRef = useRef<{ focus(options?: { preventScroll?: boolean }): void; contains?(node: unknown): boolean } | null>(null)
  const pending = request.status === 'pending'
  const rememberNote = pending && request.rememberNote ? request.rememberNote : null
  // On a tool card whose title or command says exactly the same (claude-agent-acp's Bash: `ls -la` in all three).
  const titleOnCard = !showSubject && toolCall !== undefined && (sameText(toolCall.title, request.title) || sameText(commandOf(toolCall.rawInput), request.title))

  useEffect(() => {
    if (autoFocus && pending) rootRef.current?.focus()
  }, [autoFocus, pending])

  // Appearing, it is a dialog that asks: it takes the focus when the person is not using it elsewhere (just sent a
  // message, or nothing is focused), so the keys 1–4 and Escape answer it and a screen reader reads it; else it is
  // announced, and the person comes to it (Tab, the inbox) when they choose. See onArrival.
  useFocusOnArrival(
    request.requestId,
    pending && !autoFocus,
    () => rootRef.current?.focus({ preventScroll: true }),
    () => `${request.agentName} asks for your approval: ${cutText(request.title, 200)}`,
  )

  // Opened from the inbox or a notification: take the focus once, when mounted (see prompt-focus.ts).
  const focusTarget = useSyncExternalStore(subscribePromptFocus, promptFocusTarget, promptFocusTarget)
  const focusMe = focusTarget?.requestId === request.requestId ? focusTarget.nonce : null
  useEffect(() => {
    if (focusMe === null || !rootRef.current) return
    rootRef.current.focus()
    clearPromptFocus(request.requestId)
  }, [focusMe, request.requestId])

  // Answered from inside the prompt: once the answer is in (its buttons gone, or the whole prompt, as on a tool card,
  // and the focus with them), the focus goes on.
  const noteAnswered = useFocusAfterAnswer(pending, rootRef)
  const respond = (optionId: string | null) => {
    noteAnswered()
    onRespond(optionId)
  }

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (!pending) return
    const answer = promptKeyAction(event, request.options)
    if (answer === undefined) return
    event.preventDefault()
    event.stopPropagation()
    respond(answer)
  }

  return (
    <section
      ref={(element: { focus(options?: { preventScroll?: boolean }): void; contains?(node: unknown): boolean } | null) => {
        rootRef.current = element
      }}
      className={`perm-prompt perm-status-${request.status}`}
      role={pending ? 'alertdialog' : 'group'}
      aria-labelledby={titleId}
      // Who asks, and that it is for approval, then the agent's description: the prompt is named by its title only.
      aria-describedby={request.description ? `${askerId} ${descriptionId}` : askerId}
      tabIndex={-1}
      onKeyDown={onKeyDown}
      data-request-id={request.requestId}
    >
      <header className="perm-header">
        <span className="perm-agent" id={askerId}>
          {request.agentName} asks{titleOnCard ? ' for your approval' : ''}
        </span>
        {/* Still the prompt's name for a screen reader, which reads it apart from the card. */}
        <h2 className={titleOnCard ? 'perm-title sr-only' : 'perm-title'} id={titleId}>
          <VisibleText text={request.title} keepNewlines command />
        </h2>
      </header>
      {request.description ? (
        <p className="perm-description" id={descriptionId}>
          <VisibleText text={request.description} prose />
        </p>
      ) : null}
      {showSubject ? (
        <PermissionSubject request={request} toolCall={toolCall} />
      ) : request.subject.type === 'command' ? (
        // On a tool card: the command and its folder, without repeating the card's own summary.
        <PermissionSubject request={request} />
      ) : null}
      {rememberNote ? (
        // Said before the click: this "always" will not become a lasting rule (see subject-identity.ts).
        <p className="perm-remember-note" id={rememberId} role="note">
          <Icon name="alert" size={14} className="perm-remember-icon" />
          <span>{rememberNote}</span>
        </p>
      ) : null}
      {pending ? (
        // The options wrap among themselves; Dismiss keeps the first row's end (it wrapped to a line of its own
        // when the options filled a row at 900 px).
        <div className="perm-options" role="group" aria-label="Options">
          <div className="perm-option-list">
            {arrangeOptions(request.options).map(({ option, index, key }) => {
              const look = optionAppearance(option.kind)
              const truth = contradictingName(option.kind, option.name)
              return (
                <button
                  // Option ids should be unique, but agents send duplicates (G5): the index disambiguates.
                  key={`${index}:${option.optionId}`}
                  type="button"
                  className={`perm-option perm-tone-${look.tone}`}
                  data-kind={option.kind}
                  aria-keyshortcuts={key ?? undefined}
                  aria-describedby={rememberNote && look.hint ? rememberId : undefined}
                  onClick={() => respond(option.optionId)}
                >
                  {look.icon ? (
                    <span className="perm-option-icon" aria-hidden="true">
                      {look.icon}
                    </span>
                  ) : null}
                  <span className="perm-option-name" title={option.name.length > MAX_OPTION_NAME_CHARS ? option.name : undefined}>
                    <VisibleText text={cutText(option.name, MAX_OPTION_NAME_CHARS)} />
                  </span>
                  {truth ? <span className="perm-option-truth">(this {truth})</span> : null}
                  {/* Named by its content (name, then the kind in words): the visible name is part of the accessible one.
                      An "always" that will not be a lasting rule is described by the note instead ("this session only"), and
                      one whose own words keep it to the session ("…during this session") is main's session-only rule too. */}
                  {look.hint && !rememberNote ? <span className="sr-only"> ({limitedToSession(option.name) ? 'for this session only' : look.hint})</span> : null}
                  {key ? (
                    <kbd className="perm-key" aria-hidden="true">
                      {key}
                    </kbd>
                  ) : null}
                </button>
              )
            })}
          </div>
          <button type="button" className="perm-dismiss" aria-keyshortcuts="Escape" onClick={() => respond(null)}>
            Dismiss <kbd aria-hidden="true">Esc</kbd>
          </button>
        </div>
      ) : (
        <p className="perm-resolution" role="status">
          {describeResolution(request)}
        </p>
      )}
    </section>
  )
}

/** Whether two texts are the same, ends trimmed (an empty one is never "the same": it shows nothing). */
function sameText(a: string | null | undefined, b: string): boolean {
  return a != null && a.trim() !== '' && a.trim() === b.trim()
}

function PermissionSubject({ request, toolCall }: { request: PermissionRequestView; toolCall?: ToolCallEntry }) {
  const { subject } = request
  switch (subject.type) {
    case 'command':
      return (
        <div className="perm-subject">
          <HiddenCharsWarning texts={[subject.cwd, request.title]} commands={[subject.command]} />
          <div className="perm-field-label">Command</div>
          <pre className="perm-code">
            <VisibleText text={subject.command} keepNewlines command />
          </pre>
          <div className="perm-field-label">In folder</div>
          <pre className="perm-code perm-code-inline">
            <VisibleText text={subject.cwd} />
          </pre>
          {toolCall ? <ToolCallSummary toolCall={toolCall} /> : null}
        </div>
      )
    case 'tool_call':
      return (
        <div className="perm-subject">
          {toolCall ? <ToolCallSummary toolCall={toolCall} withDetails titleShown={sameText(toolCall.title, request.title)} /> : <p className="perm-muted">Tool call {subject.toolCallId}</p>}
        </div>
      )
    case 'unknown':
      return (
        <div className="perm-subject">
          <p className="perm-muted">
            This request is about something Bosun does not recognise
            {typeof (subject.raw as { type?: unknown })?.type === 'string' ? (
              <>
                {' '}
                (<code>
                  <VisibleText text={(subject.raw as { type: string }).type} />
                </code>
                )
              </>
            ) : null}
            . Its details, as sent:
          </p>
          <GenericFields value={subject.raw} />
        </div>
      )
    default:
      return null
  }
}

/** `titleShown`: the prompt's title says exactly the tool call's title, so the summary does not say it again. */
function ToolCallSummary({ toolCall, withDetails = false, titleShown = false }: { toolCall: ToolCallEntry; withDetails?: boolean; titleShown?: boolean }) {
  const command = commandOf(toolCall.rawInput)
  return (
    <div className="perm-toolcall">
      <div className="perm-toolcall-head">
        <span className="perm-kind">{toolCall.toolKind || 'other'}</span>
        {titleShown ? null : (
          <span className="perm-toolcall-title">
            <VisibleText text={toolCall.title ?? toolCall.toolCallId} />
          </span>
        )}
      </div>
      {withDetails ? (
        <>
          {command !== null ? (
            <>
              <HiddenCharsWarning texts={[]} commands={[command]} />
              <div className="perm-field-label">Command</div>
              <pre className="perm-code">
                <VisibleText text={command} keepNewlines command />
              </pre>
            </>
          ) : null}
          {toolCall.locations.length > 0 ? <PermissionLocations locations={toolCall.locations} /> : null}
          {toolCall.content.map((content, i) => (
            <ContentPreview key={i} content={content} />
          ))}
          {command === null && toolCall.rawInput !== undefined && toolCall.rawInput !== null ? (
            <details className="perm-raw">
              <summary>Raw input</summary>
              <GenericFields value={toolCall.rawInput} />
            </details>
          ) : null}
        </>
      ) : null}
    </div>
  )
}

/** The files a request's tool call names: the first {@link LOCATIONS_SHOWN}, and the rest when asked (see `LocationList`). */
function PermissionLocations({ locations }: { locations: ToolCallEntry['locations'] }) {
  const [all, setAll] = useState(false)
  const shown = all ? locations : locations.slice(0, LOCATIONS_SHOWN)
  return (
    <>
      <ul className="perm-locations">
        {shown.map((location, i) => (
          <li key={i}>
            <VisibleText text={location.path} />
            {typeof location.line === 'number' ? `:${location.line}` : ''}
          </li>
        ))}
      </ul>
      {shown.length < locations.length && (
        <button type="button" className="link-button" onClick={() => setAll(true)}>
          Show all {locations.length.toLocaleString('en')} locations
        </button>
      )}
    </>
  )
}

function ContentPreview({ content }: { content: ToolCallEntry['content'][number] }) {
  const c = content as Record<string, unknown>
  if (c.type === 'diff' && typeof c.path === 'string') {
    // v1 diff: whole old and new text of one file, each drawn a page at a time as the card draws it (one page of both
    // would show a long file's old text alone).
    const removed = diffLines(c.oldText, '-')
    const added = diffLines(c.newText, '+')
    return (
      <div className="perm-diff">
        <div className="perm-field-label">
          <VisibleText text={c.path} />
        </div>
        {removed.length > 0 ? <PagedLines lines={removed} noun="removed lines" render={(line, i) => <DiffLine key={i} line={line} />} /> : null}
        {added.length > 0 ? <PagedLines lines={added} noun="added lines" render={(line, i) => <DiffLine key={i} line={line} />} /> : null}
      </div>
    )
  }
  if (c.type === 'diff' && Array.isArray(c.changes)) {
    const patch = c.patch as { text?: unknown } | null | undefined
    return (
      <div className="perm-diff">
        <PagedLines
          lines={c.changes}
          noun="files"
          as="list"
          render={(change, i) => {
            const ch = change as Record<string, unknown>
            return (
              <li key={i}>
                {String(ch.operation ?? 'change')} <VisibleText text={String(ch.path ?? '')} />
              </li>
            )
          }}
        />
        {typeof patch?.text === 'string' ? <TextLines text={patch.text} as="code" /> : null}
      </div>
    )
  }
  if (c.type === 'content') {
    const block = c.content as { type?: unknown; text?: unknown } | undefined
    if (block?.type === 'text' && typeof block.text === 'string') {
      return <TextLines text={block.text} as="text" />
    }
  }
  if (c.type === 'terminal') return <p className="perm-muted">Terminal {String(c.terminalId ?? '')}</p>
  return <GenericFields value={content} />
}

interface SignedLine {
  sign: '-' | '+'
  text: string
}

function diffLines(text: unknown, sign: '-' | '+'): SignedLine[] {
  return typeof text === 'string' ? text.split('\n').map((line) => ({ sign, text: line })) : []
}

function DiffLine({ line }: { line: SignedLine }): ReactNode {
  return (
    <span className={line.sign === '+' ? 'perm-diff-add' : 'perm-diff-del'}>
      {line.sign} <VisibleText text={line.text} />
      {'\n'}
    </span>
  )
}

/** A patch or text content, its line breaks kept and hidden characters shown, a page of lines at a time. */
function TextLines({ text, as }: { text: string; as: 'code' | 'text' }): ReactNode {
  const lines = text.split('\n')
  return (
    <PagedLines
      lines={lines}
      noun="lines"
      as={as}
      render={(line, i) => (
        <Fragment key={i}>
          <VisibleText text={line} />
          {i < lines.length - 1 ? '\n' : null}
        </Fragment>
      )}
    />
  )
}

/**
 * A diff's lines (or a change list) a page at a time, as the tool card's diff: an agent's 50,000-line diff drawn whole
 * holds the page for seconds while the person is asked to decide on it. The button says how many are left.
 */
function PagedLines<T>({ lines, noun, render, as = 'code' }: { lines: readonly T[]; noun: string; render: (line: T, i: number) => ReactNode; as?: 'code' | 'list' | 'text' }) {
  const [count, setCount] = useState(DIFF_PAGE_LINES)
  const shown = lines.length > count ? lines.slice(0, count) : lines
  const total = lines.length.toLocaleString('en')
  return (
    <>
      {as === 'list' ? (
        <ul className="perm-locations">{shown.map(render)}</ul>
      ) : as === 'text' ? (
        <p className="perm-text perm-content-text">{shown.map(render)}</p>
      ) : (
        <pre className="perm-code">{shown.map(render)}</pre>
      )}
      {lines.length > shown.length ? (
        <button type="button" className="link-button" onClick={() => setCount((n) => n + DIFF_MORE_LINES)}>
          {lines.length - shown.length <= DIFF_MORE_LINES
            ? `Show all ${total} ${noun}`
            : `Show ${DIFF_MORE_LINES.toLocaleString('en')} more ${noun} (${shown.length.toLocaleString('en')} of ${total} shown)`}
        </button>
      ) : null}
    </>
  )
}

/** A generic, read-only view of any JSON value (unknown subjects, raw input). */
export function GenericFields({ value }: { value: unknown }) {
  let text: string
  try {
    text = JSON.stringify(value, null, 2) ?? String(value)
  } catch {
    text = String(value)
  }
  if (text.length > 20_000) text = text.slice(0, 20_000) + '\n…'
  return (
    <pre className="perm-code perm-generic">
      <VisibleText text={text} keepNewlines />
    </pre>
  )
}
