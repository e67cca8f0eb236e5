import { memo, useCallback, useEffect, useMemo, useRef, useState, type FocusEvent, type KeyboardEvent, type WheelEvent } from 'react'
import { defaultRangeExtractor, useVirtualizer, type Range, type Virtualizer } from '@tanstack/react-virtual'
import type { Entry, MessageEntry, SessionState } from '../../../common/session/types'
import { Icon } from '../common/icons'
import { useAfterPress } from '../common/after-press'
import { useSeams } from '../common/seams'
import { RenderGuard } from '../common/RenderGuard'
import { messageSaysError, restartedByPerson, stopNoteText, stoppedWithError, turnErrorText, turnStopOf } from '../../../common/session/turn-stop'
import { AgentMessage, AgentThought, CompactionView, TurnErrorMark, TurnStopMark, UnknownEntryView, UserMessage } from './EntryViews'
import { ToolCallCard } from './ToolCallCard'
import { placeAppendedRowsOnly } from './append-only-rows'
import { lastPrompts, noUserMessages } from './user-messages'
import { ErrorData, TurnErrorActions } from './not-sent'
import './transcript.css'
import { revealAsText } from '../permissions/reveal-text'

export { stoppedWithError, turnErrorText }

/** The note after a turn that ended without an error but not normally (or stopped when asked, however the agent said so), if any. */
export function turnNote(turn: SessionState['turn']): string | null {
  const stop = turnStopOf(turn)
  return stop ? stopNoteText(stop) : null
}

/** What a v1 refusal's note adds when its prompt (and so the agent's reply) is out of the agent's context (F4). */
export const REFUSED_OUT_NOTE = 'Your message and the reply are left out of the agent\'s context.'

/** Whether the last prompt of the transcript is one a refusal left out of the agent's context. */
export function lastPromptExcluded(entries: readonly Entry[]): boolean {
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i]!
    if (entry.kind === 'user_message') return (entry as { excluded?: boolean }).excluded === true
  }
  return false
}

/** Distance from the bottom (px) within which the view keeps following new output. */
const STICK_THRESHOLD = 48

/** A form in the transcript waiting for the person's answer (ElicitationForm). */
const PENDING_FORM = '.eli-card.eli-status-pending'
/** Room left above a form's title when the view stops at it (the transcript's scroll padding). */
const FORM_MARGIN = 16
/** Keys that scroll the focused transcript. */
const SCROLL_KEYS = new Set(['ArrowUp', 'ArrowDown', 'PageUp', 'PageDown', 'Home', 'End', ' '])

export interface TranscriptProps {
  session: SessionState
  agentName: string
  /** Scrolls the entry holding this permission/elicitation request into view. */
  focusRequest?: { requestId: string; nonce: number } | null
}

/**
 * A first guess of a row's height (px) before it has been measured, by kind and length, so the total height and
 * the scroll position move little when the real size arrives. Padding of a row is 12px; a line of text about 22px
 * at about 110 characters.
 */
export function estimateEntrySize(entry: Entry | undefined): number {
  if (!entry) return 88
  if (!longText(entry)) return guessSize(entry)
  let size = estimates.get(entry)
  if (size === undefined) {
    size = guessSize(entry)
    estimates.set(entry, size)
  }
  return size
}

/**
 * Estimates of messages with long text, by entry object: the virtualizer asks again for every unmeasured row below
 * one it measures (scrolling up), and reading a long text's lines costs more than a lookup. Others are guessed
 * again each time (as cheap as the lookup), so the map does not hold every entry of a long session.
 */
const estimates = new WeakMap<Entry, number>()

/** Characters of text beyond which a message's estimate is kept rather than guessed again. */
const LONG_TEXT = 4096

function longText(entry: Entry): boolean {
  if (entry.kind !== 'user_message' && entry.kind !== 'agent_message' && entry.kind !== 'agent_thought') return false
  let length = 0
  for (const block of entry.content) if (block.type === 'text' && typeof block.text === 'string') length += block.text.length
  return length > LONG_TEXT
}

function guessSize(entry: Entry): number {
  switch (entry.kind) {
    case 'user_message':
    case 'agent_message':
    case 'agent_thought': {
      let lines = 0
      for (const block of entry.content) {
        if (block.type !== 'text' || typeof block.text !== 'string') continue
        const text = block.text
        lines += Math.ceil(text.length / 110)
        for (let at = text.indexOf('\n'); at >= 0 && lines < 400; at = text.indexOf('\n', at + 1)) lines++
      }
      return 12 + 28 + 22 * Math.min(400, Math.max(1, lines))
    }
    case 'tool_call':
      return 64
    case 'turn_error':
    case 'turn_stop':
      return 36
    default:
      return 88
  }
}

/**
 * How the virtualizer measures a row: from the ResizeObserver's entry (read after layout, so it costs no layout of
 * its own), or, when a row is attached, its cached size by entry id or the estimate. Reading `offsetHeight` on attach
 * (the library's default) forces a synchronous layout in the middle of every commit.
 */
function measureRow(element: Element, entry: ResizeObserverEntry | undefined, instance: Virtualizer<HTMLDivElement, Element>): number {
  const box = entry?.borderBoxSize?.[0]
  if (box) return Math.round(box.blockSize)
  const index = instance.indexFromElement(element)
  return instance.itemSizeCache.get(instance.options.getItemKey(index)) ?? instance.options.estimateSize(index)
}

/**
 * The first form waiting for the person among the rendered rows that the view has not stopped at yet (`seen`), and
 * how far the view must move to show its title at the top. Read in a ResizeObserver callback, after layout.
 */
function newForm(el: HTMLElement, seen: ReadonlySet<string>): { requestId: string; offset: number } | null {
  const cards = el.querySelectorAll<HTMLElement>(PENDING_FORM)
  for (let i = 0; i < cards.length; i++) {
    const card = cards[i]!
    const requestId = card.dataset.requestId
    if (requestId !== undefined && !seen.has(requestId)) return { requestId, offset: titleOffset(el, card) }
  }
  return null
}

/** How far the view must scroll (px, up if negative) to show the card's top {@link FORM_MARGIN} below its own top. */
const titleOffset = (el: HTMLElement, card: Element): number => card.getBoundingClientRect().top - el.getBoundingClientRect().top - FORM_MARGIN

/** The card of the form waiting for the person with this request id, among the rendered rows. */
const pendingForm = (el: HTMLElement, requestId: string): HTMLElement | null => el.querySelector<HTMLElement>(`${PENDING_FORM}[data-request-id="${CSS.escape(requestId)}"]`)

/**
 * Rows rendered above the end's view while following: enough to cover an estimate that was too large, and the first
 * frame of a scroll up (which stops following, and brings back the virtualizer's whole overscan).
 */
export const FOLLOW_OVERSCAN = 2

/**
 * The rows to render: the virtualizer's range and overscan; while following, the rows at the end as well, so the
 * frame that scrolls to the end already has them. Rows sit in normal flow under one offset, so the indexes are
 * contiguous. `endStart` is the first row of the end's view by the rows' sizes ({@link firstRowOfEnd}); without it,
 * the end's view is taken to hold as many rows as the current one, and the whole overscan is rendered above it. With
 * it, only {@link FOLLOW_OVERSCAN} rows are rendered above the end's view: the overscan, out of view while following,
 * was mounted again after each batch of a flood that brings a view of new rows (about half of the rows it mounted).
 */
export function rowsToRender(range: Range, following: boolean, endStart?: number): number[] {
  const indexes = defaultRangeExtractor(range)
  if (!following || range.count === 0) return indexes
  if (endStart !== undefined) {
    // The rows in view now (the follow scroll has not landed yet) when they join the end's, and the end's view; the
    // overscan above them would be out of view once it lands.
    const tail = Math.max(0, Math.min(endStart, range.count - 1) - FOLLOW_OVERSCAN)
    return rowsFrom(range.endIndex >= tail - 1 ? Math.min(range.startIndex, tail) : tail, range.count)
  }
  const tail = Math.max(0, range.count - (range.endIndex - range.startIndex + 1) - range.overscan)
  const reachesTail = indexes.length > 0 && indexes[indexes.length - 1]! >= tail - 1
  const first = reachesTail ? Math.min(indexes[0]!, tail) : tail
  if (first === indexes[0] && indexes[indexes.length - 1] === range.count - 1) return indexes
  return rowsFrom(first, range.count)
}

function rowsFrom(first: number, count: number): number[] {
  const rows: number[] = []
  for (let index = first; index < count; index++) rows.push(index)
  return rows
}

/**
 * The first of `count` rows that shows in a view `viewport` px high scrolled to the end, `endOf(i)` being where row i
 * ends (growing with i). A binary search: a flood's transcript has many thousand rows.
 */
export function firstRowOfEnd(count: number, endOf: (index: number) => number, viewport: number): number {
  if (count === 0) return 0
  const top = endOf(count - 1) - viewport
  let low = 0
  let high = count - 1
  while (low < high) {
    const mid = (low + high) >> 1
    if (endOf(mid) > top) high = mid
    else low = mid + 1
  }
  return low
}

/** {@link firstRowOfEnd} by the virtualizer's placed rows and its view's height, when it has both for these rows. */
function endStartOf(virtualizer: Virtualizer<HTMLDivElement, Element> | null, count: number): number | undefined {
  const viewport = virtualizer?.scrollRect?.height
  if (!virtualizer || !viewport || count === 0) return undefined
  const placed = virtualizer.measurementsCache
  if (placed.length !== count) return undefined
  return firstRowOfEnd(count, (index) => placed[index]!.end, viewport)
}

/** The entry showing a permission or elicitation request (on its tool call, or standalone). */
export function entryIndexOfRequest(session: SessionState, requestId: string): number {
  // A search result in the history names the entry itself.
  const direct = session.entries.findIndex((entry) => entry.id === requestId)
  if (direct >= 0) return direct
  const elicitation = Object.values(session.elicitations).find((e) => e.elicitationRequestId === requestId)
  return session.entries.findIndex((entry) => {
    switch (entry.kind) {
      case 'tool_call':
        return entry.permissionIds.includes(requestId) || (elicitation !== undefined && entry.toolCallId === elicitation.toolCallId)
      case 'permission':
        return entry.requestId === requestId
      case 'elicitation':
        return entry.elicitationId === requestId || (elicitation !== undefined && session.elicitations[entry.elicitationId] === elicitation)
      default:
        return false
    }
  })
}

/**
 * Whether the entry at `index` belongs to a turn that is over, `lastPrompt` being the index of the last user message.
 * Only v1 can tell: it has no work beyond its turns (v2's goes on in the background, F10), so the entries before the
 * last prompt, and all of them once the agent answered it, are of turns that ended.
 */
export function inEndedTurn(session: Pick<SessionState, 'protocolVersion' | 'turn'>, lastPrompt: number, index: number): boolean {
  return session.protocolVersion === 1 && (session.turn.state === 'idle' || index < lastPrompt)
}

/** The index of the last user message that was sent (not one the agent refused), or -1. */
export const lastSentPrompt = (entries: readonly Entry[]): number => lastPrompts(entries, noUserMessages()).lastSent

/**
 * Whether the agent's message just before `index` (where the turn's error is told) says the error itself
 * ({@link messageSaysError}: codex-acp v2, claude-agent-acp v1), so the error's text is not told twice.
 */
export function errorSaidAbove(entries: readonly Entry[], index: number, message: string): boolean {
  const previous = entries[index - 1]
  if (previous?.kind !== 'agent_message' || message.trim() === '') return false
  let text = ''
  for (const block of previous.content) if (block.type === 'text') text += (block as { text: string }).text
  return messageSaysError(text, message)
}

/** Where the live turn's error is told: its mark (the last entry), or after every entry. */
/** The person's last message (what "Send again" under a turn's error sends). */
function lastUserMessage(entries: readonly Entry[]): MessageEntry | null {
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i]!
    if (entry.kind === 'user_message') return entry
  }
  return null
}

const liveErrorAt = (entries: readonly Entry[]): number => (entries.at(-1)?.kind === 'turn_error' ? entries.length - 1 : entries.length)

/**
 * Whether the entry is the error mark of the turn that just ended, which the alert under the transcript tells while
 * that turn is the last (`lastSent` the index of the last user message sent: a v2 prompt the agent refused leaves the
 * turn, and its alert, as they were): the mark shows once a new turn starts.
 */
export function turnErrorToldBelow(session: Pick<SessionState, 'turn'>, entry: Entry, lastSent: number, index: number): boolean {
  return entry.kind === 'turn_error' && index > lastSent && session.turn.error != null && !stoppedWithError(session.turn)
}

/** The same for the stop mark of the turn that just ended, which the note under the transcript tells while that turn is the last. */
export function turnStopToldBelow(session: Pick<SessionState, 'turn'>, entry: Entry, lastSent: number, index: number): boolean {
  return entry.kind === 'turn_stop' && index > lastSent && turnStopOf(session.turn) !== null
}

/** Whether the row's mark is told under the transcript instead (the turn it ends is the last one). */
const toldBelowNow = (session: Pick<SessionState, 'turn'>, entry: Entry, lastSent: number, index: number): boolean =>
  turnErrorToldBelow(session, entry, lastSent, index) || turnStopToldBelow(session, entry, lastSent, index)

export const EntryRow = memo(function EntryRow({
  entry,
  session,
  agentName,
  turnEnded = false,
  errorSaid = false,
  sentLater = false,
}: {
  entry: Entry
  session: Pick<SessionState, 'permissions' | 'terminals' | 'elicitations' | 'protocolVersion'>
  /** v1: the turn this entry belongs to is over (the agent answered its prompt), so nothing of it runs any more. */
  turnEnded?: boolean
  /** A turn error mark: the agent's message just above says the error itself ({@link errorSaidAbove}). */
  errorSaid?: boolean
  /** A user message: a later one went through (its own Resend, or a new message), so a refusal of it offers no more. */
  sentLater?: boolean
  agentName: string
}) {
  const seams = useSeams()
  switch (entry.kind) {
    case 'user_message':
      return <UserMessage entry={entry} sentLater={sentLater} />
    case 'agent_message':
      return <AgentMessage entry={entry} agentName={agentName} />
    case 'agent_thought':
      return <AgentThought entry={entry} />
    case 'tool_call':
      return (
        <ToolCallCard
          entry={entry}
          permissions={session.permissions}
          elicitations={session.elicitations}
          terminals={session.terminals}
          agentTerminals={session.protocolVersion !== 1}
          turnEnded={turnEnded}
        />
      )
    case 'permission': {
      const request = session.permissions[entry.requestId]
      if (!request) return null
      return (
        <div className="entry-permission">
          <seams.PermissionPrompt request={request} onRespond={(optionId) => seams.onRespondPermission(request.requestId, optionId)} />
        </div>
      )
    }
    case 'elicitation': {
      const elicitation = session.elicitations[entry.elicitationId]
      return elicitation ? <div className="entry-elicitation">{seams.renderElicitation(elicitation)}</div> : null
    }
    case 'compaction':
      return <CompactionView entry={entry} />
    case 'turn_error':
      return <TurnErrorMark entry={entry} saidAbove={errorSaid} />
    case 'turn_stop':
      return <TurnStopMark entry={entry} />
    default:
      return <UnknownEntryView entry={entry as Extract<Entry, { kind: 'unknown' }>} />
  }
})

/**
 * The session's entries, virtualized with dynamic row heights: only the rows in view (plus overscan) are
 * in the DOM, so long transcripts stay fast. Follows new output while the person is at the bottom;
 * scrolling up stops following until they come back (or press "Jump to latest").
 */
export const Transcript = memo(function Transcript({ session, agentName, focusRequest }: TranscriptProps) {
  const scrollRef = useRef<HTMLDivElement>(null)
  const stick = useRef(true)
  const [following, setFollowing] = useState(true)
  // Whether anything is below the view: "Jump to latest" shows only then. A form or request that takes the focus as it
  // arrives stops the follow with nothing below it, and the button stood over the empty end, pointing nowhere.
  const [below, setBelow] = useState(false)
  const entries = session.entries
  const entriesRef = useRef(entries)
  entriesRef.current = entries
  // Stable callbacks: a new `getItemKey` makes the virtualizer recompute every row's position.
  const getItemKey = useCallback((index: number) => entriesRef.current[index]?.id ?? index, [])
  const estimateSize = useCallback((index: number) => estimateEntrySize(entriesRef.current[index]), [])
  // While following, the rows at the end are rendered too (the view is scrolled to them before the frame is painted).
  // Only a few rows above the end's view, unless a form waits for the person: the view stops at a form's title when
  // it is among the rows rendered (below), and the whole overscan keeps that as likely as it was.
  const virtualizerRef = useRef<Virtualizer<HTMLDivElement, Element> | null>(null)
  const formWaiting = useMemo(() => Object.values(session.elicitations).some((e) => e.status === 'pending'), [session.elicitations])
  const rangeExtractor = useCallback(
    (range: Range) => rowsToRender(range, following, following && !formWaiting ? endStartOf(virtualizerRef.current, range.count) : undefined),
    [following, formWaiting],
  )
  const virtualizer = useVirtualizer({
    count: entries.length,
    getScrollElement: () => scrollRef.current,
    estimateSize,
    overscan: 6,
    getItemKey,
    rangeExtractor,
    measureElement: measureRow,
    useFlushSync: false,
  })
  virtualizerRef.current = virtualizer
  // Rows are only ever appended: a longer transcript places its new rows, not every row again (see append-only-rows.ts).
  const placing = useRef<object | null>(null)
  if (placing.current !== virtualizer) {
    placeAppendedRowsOnly(virtualizer)
    placing.current = virtualizer
  }
  const totalSize = virtualizer.getTotalSize()
  // One stable object per change of these records, so unchanged rows skip re-rendering while text streams.
  const { permissions, terminals, elicitations, protocolVersion } = session
  const userMessages = useRef(noUserMessages())
  const { lastPrompt, lastSent } = useMemo(() => lastPrompts(entries, userMessages.current), [entries])
  const turnEndedAt = (index: number) => inEndedTurn(session, lastPrompt, index)
  const rowContext = useMemo(() => ({ permissions, terminals, elicitations, protocolVersion }), [permissions, terminals, elicitations, protocolVersion])

  const baseNote = turnNote(session.turn)
  // The entries of a refused turn are marked with a dashed rule; this note (and the prompt's own) says what it means.
  const stopNote = baseNote && session.turn.stopReason === 'refusal' && lastPromptExcluded(entries) ? `${baseNote} ${REFUSED_OUT_NOTE}` : baseNote
  const turnError = stoppedWithError(session.turn) ? null : (session.turn.error ?? null)
  // The person ended the turn by restarting its agent: said as a fact, not as an alarm.
  const chosenEnd = restartedByPerson(turnError)

  // Following the end costs no layout of its own: a ResizeObserver on the content and on the view reports after
  // the browser's layout of the frame (so reading scrollHeight there is free) whenever the content grows (new
  // entries, measured rows, the notes below them) or the view shrinks (the error banner, the plan, a taller
  // draft below it), at most once per frame, and the scroll lands before that frame is painted.
  const contentRef = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const el = scrollRef.current
    if (!el) return
    const observer = new ResizeObserver(() => {
      const isBelow = el.scrollHeight - el.scrollTop - el.clientHeight > STICK_THRESHOLD
      setBelow((old) => (old === isBelow ? old : isBelow))
      // A form waiting for the person, held: its title stays where it is shown, whatever grows above or below it; once
      // the person moved the focus within it, the control with the focus stays where the browser brought it instead.
      const held = heldForm.current === null ? null : pendingForm(el, heldForm.current)
      if (held) {
        const anchor = focusAnchor.current
        if (anchor && anchor.element.isConnected && held.contains(anchor.element)) {
          el.scrollTop += anchor.element.getBoundingClientRect().top - el.getBoundingClientRect().top - anchor.at
        } else el.scrollTop += titleOffset(el, held)
        return
      }
      heldForm.current = null
      if (!stick.current) {
        // The follow stopped only for a form the person pressed (Decline, Accept, a field), which is answered now, and
        // the view is still at the end (nobody scrolled since): follow again. Jump to latest showed there with nothing
        // below it, and what the agent wrote next stayed out of view.
        const form = stoppedAtForm.current
        if (form !== null && pendingForm(el, form) === null && el.scrollHeight - el.scrollTop - el.clientHeight <= STICK_THRESHOLD) {
          stoppedAtForm.current = null
          stick.current = true
          setFollowing(true)
          el.scrollTop = el.scrollHeight
        }
        return
      }
      // Never past a form waiting for the person: the view stops at its title and holds it there (once per form: Jump
      // to latest and End follow on past it), else the stream went on and the title went out of view.
      const form = newForm(el, formsSeen.current)
      if (form && el.scrollTop + form.offset < el.scrollHeight - el.clientHeight) {
        formsSeen.current.add(form.requestId)
        el.scrollTop += form.offset
        unstickRef.current()
        heldForm.current = form.requestId
        focusAnchor.current = null
        return
      }
      el.scrollTop = el.scrollHeight
    })
    observer.observe(el)
    if (contentRef.current) observer.observe(contentRef.current)
    return () => observer.disconnect()
  }, [])

  // Following stops only on the person's own upward scrolling (wheel, keys, scrollbar drag): the virtualizer
  // also moves scrollTop when it measures rows, and that must not count as "scrolled up".
  const dragging = useRef(false)
  /** The waiting form whose press stopped the follow (until the person scrolls): answered, the follow may go on. */
  const stoppedAtForm = useRef<string | null>(null)
  /** A waiting form's control took the focus from a pointer press: following stops once the press is over (see onFocus). */
  const afterPress = useAfterPress()
  const released = () => {
    dragging.current = false
  }
  /**
   * Where the view was when the person left the end, until it moves: a scroll event that still reads that place is
   * a late one (the echo of the last follow-to-end scroll, delivered after the key or wheel that left), not a return
   * to the end, and must not start following again (it used to, and the follow scrolls then pulled the view back).
   */
  const leftAt = useRef<number | null>(null)
  /**
   * How far from the end the view was at the last scroll event. Following starts again only on a move towards the
   * end: the browser's smooth scroll of PageUp or an arrow key reports its first frames a few pixels from the end (an
   * arrow's whole step is less than {@link STICK_THRESHOLD}), and those events, on their way up, once read as a
   * return to the end. While following, the view is at the end (0) whatever the last event read: a scroll event
   * can read the content grown just before the follow scroll that answers it.
   */
  const lastDistance = useRef(0)
  const unstick = useCallback(() => {
    stoppedAtForm.current = null
    if (stick.current) lastDistance.current = 0
    stick.current = false
    leftAt.current = scrollRef.current?.scrollTop ?? null
    setFollowing(false)
  }, [])
  const unstickRef = useRef(unstick)
  /** The forms the view has stopped at once, by request id. */
  const formsSeen = useRef(new Set<string>())
  /** The form whose title the view holds in place while it waits, until the person scrolls or it is answered. */
  const heldForm = useRef<string | null>(null)
  /** Within the held form, the control the person moved the focus to, and its distance from the view's top. */
  const focusAnchor = useRef<{ element: HTMLElement; at: number } | null>(null)
  /**
   * The focus moved into a form waiting for the person (after another request was answered, from the inbox): the view
   * stops following, and shows the form's title when the focused control leaves room for it. The stream after the
   * form used to pull the view, and the title, away.
   */
  const onFocus = (e: FocusEvent<HTMLDivElement>) => {
    const el = scrollRef.current
    const target = e.target as HTMLElement
    const card = target.closest<HTMLElement>(PENDING_FORM)
    if (!el || !card) return
    const requestId = card.dataset.requestId
    if (card.contains(e.relatedTarget as Node | null)) {
      // Tab within the held form: the browser brings the control into view; it is held there from now on.
      if (requestId === undefined || heldForm.current !== requestId) return
      requestAnimationFrame(() => {
        if (heldForm.current === requestId && document.activeElement === target) {
          focusAnchor.current = { element: target, at: target.getBoundingClientRect().top - el.getBoundingClientRect().top }
        }
      })
      return
    }
    if (requestId !== undefined) formsSeen.current.add(requestId)
    if (dragging.current) {
      // Pressed with the pointer (Decline, a field): nothing moves under the pointer before the release. Stopping here
      // shows Jump to latest, whose strip takes the transcript's bottom, and the title's scroll moves the form: the
      // pressed control left the pointer and the click landed elsewhere (a person's press is long enough every time).
      // The view stops following once the press is over; the form stays where the person found it.
      const form = requestId ?? null
      afterPress(() => {
        unstickRef.current()
        stoppedAtForm.current = form
      })
      return
    }
    unstick()
    // Answered with the view still at the end, the follow goes on, as after a press (the card takes the focus as it
    // arrives: the follow stopped for it, and Jump to latest stayed over nothing below once it was answered).
    stoppedAtForm.current = requestId ?? null
    // The title at the top, if the control with the focus stays in view below it (the card itself, focused as it arrives
    // or as the request before it is answered, starts with its title); then held there.
    const offset = titleOffset(el, card)
    if (target !== card && target.getBoundingClientRect().bottom - card.getBoundingClientRect().top + FORM_MARGIN > el.clientHeight) return
    el.scrollTop += offset
    leftAt.current = el.scrollTop
    heldForm.current = requestId ?? null
    focusAnchor.current = null
  }
  const onScroll = useCallback(() => {
    const el = scrollRef.current
    if (!el) return
    const distance = el.scrollHeight - el.scrollTop - el.clientHeight
    setBelow((old) => (old === distance > STICK_THRESHOLD ? old : distance > STICK_THRESHOLD))
    const towardsEnd = distance < (stick.current ? 0 : lastDistance.current)
    lastDistance.current = distance
    const moved = leftAt.current === null || Math.abs(el.scrollTop - leftAt.current) >= 1
    if (moved) leftAt.current = null
    if (distance <= STICK_THRESHOLD) {
      if (stick.current || !moved || !towardsEnd) return
      stick.current = true
      setFollowing(true)
    } else if (dragging.current) {
      heldForm.current = null
      unstick()
    }
  }, [unstick])
  const onWheel = (e: WheelEvent<HTMLDivElement>) => {
    heldForm.current = null
    if (e.deltaY < 0) unstick()
  }
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.target !== e.currentTarget) return
    // The person scrolls: a form held in view is theirs to leave.
    if (SCROLL_KEYS.has(e.key)) heldForm.current = null
    if (e.key === 'Home' || e.key === 'End') {
      // Done by the virtualizer, at once: the browser's smooth scroll over the whole transcript mounts rows at every
      // frame on the way, and each row measured above the view shifts where that animation ends.
      e.preventDefault()
      if (e.key === 'End') return jumpToLatest()
      unstick()
      if (entries.length > 0) virtualizer.scrollToIndex(0, { align: 'start' })
    } else if (e.key === 'PageUp' || e.key === 'ArrowUp' || (e.key === ' ' && e.shiftKey)) unstick()
  }

  const focusIndex = focusRequest ? entryIndexOfRequest(session, focusRequest.requestId) : -1
  useEffect(() => {
    if (focusIndex < 0) return
    // Already in view and held there (its field took the focus first): nothing to move.
    if (heldForm.current !== null && heldForm.current === focusRequest?.requestId) return
    heldForm.current = null
    stick.current = false
    setFollowing(false)
    virtualizer.scrollToIndex(focusIndex, { align: 'center' })
    // Only a new focus request (nonce) scrolls; later entries must not pull the view back.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [focusRequest?.nonce, focusIndex >= 0])

  const jumpToLatest = () => {
    heldForm.current = null
    stick.current = true
    setFollowing(true)
    if (entries.length > 0) virtualizer.scrollToIndex(entries.length - 1, { align: 'end' })
  }

  // A message the person just sent: the view goes to it and follows the answer, wherever they had scrolled to
  // (not when another session is shown, nor for prompts the agent replays).
  const sentPrompt = lastPrompt >= 0 && entries[lastPrompt]?.kind === 'user_message' && (entries[lastPrompt] as { local?: boolean }).local === true ? lastPrompt : -1
  const seenPrompt = useRef({ sessionId: session.sessionId, index: sentPrompt })
  useEffect(() => {
    const seen = seenPrompt.current
    seenPrompt.current = { sessionId: session.sessionId, index: sentPrompt }
    if (seen.sessionId !== session.sessionId || sentPrompt <= seen.index || stick.current) return
    jumpToLatest()
    // Only a newly sent prompt scrolls.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [session.sessionId, sentPrompt])

  const items = virtualizer.getVirtualItems()
  return (
    <div className="transcript-wrap">
      <div
        ref={scrollRef}
        className="transcript"
        role="log"
        aria-label="Transcript"
        tabIndex={0}
        onScroll={onScroll}
        onWheel={onWheel}
        onKeyDown={onKeyDown}
        onFocus={onFocus}
        onPointerDown={() => (dragging.current = true)}
        onPointerUp={released}
        onPointerCancel={released}
        onTouchMove={() => (dragging.current = true)}
        onTouchEnd={() => (dragging.current = false)}
      >
        <div ref={contentRef} className="transcript-content">
          {entries.length === 0 ? (
            <div className="empty-state">
              <p>No messages yet.</p>
              <p className="muted">Ask {agentName} something to start.</p>
            </div>
          ) : (
            <div className="transcript-inner" style={{ height: totalSize }}>
              <div className="transcript-window" style={{ transform: `translateY(${items[0]?.start ?? 0}px)` }}>
                {items.map((item) => {
                  const entry = entries[item.index]!
                  const toldBelow = toldBelowNow(session, entry, lastSent, item.index)
                  return (
                    <div key={item.key} data-index={item.index} ref={virtualizer.measureElement} className={toldBelow ? 'transcript-row told-below' : 'transcript-row'}>
                      {!toldBelow && (
                        // A row that cannot be shown says so; the others, and the rest of the window, go on.
                        <RenderGuard what="this part of the session" resetKey={entry}>
                          <EntryRow
                            entry={entry}
                            session={rowContext}
                            agentName={agentName}
                            turnEnded={turnEndedAt(item.index)}
                            errorSaid={entry.kind === 'turn_error' && errorSaidAbove(entries, item.index, entry.message)}
                            sentLater={entry.kind === 'user_message' && item.index < lastSent}
                          />
                        </RenderGuard>
                      )}
                    </div>
                  )
                })}
              </div>
            </div>
          )}
          {stopNote && entries.length > 0 && (
            <p className="turn-note muted" role="note" aria-label="How the turn ended">
              {stopNote}
            </p>
          )}
          {turnError && (
            // A turn the person ended by restarting its agent is said plainly, not as an alarm: they chose it.
            <div className={chosenEnd ? 'turn-error turn-error-chosen' : 'turn-error'} role={chosenEnd ? 'status' : 'alert'}>
              <Icon name={chosenEnd ? 'restart' : 'alert'} />
              <div className="turn-error-body">
                {/* Worded as the mark it becomes once the next turn starts (and the exported transcript): the code first. */}
                <span>{turnErrorText(revealAsText(turnError.message, { prose: true }), turnError.code, errorSaidAbove(entries, liveErrorAt(entries), turnError.message), turnError.byBosun)}</span>
                <ErrorData data={turnError.data} />
                <TurnErrorActions lastMessage={lastUserMessage(entries)} code={turnError.code} message={turnError.message} byBosun={turnError.byBosun} />
              </div>
            </div>
          )}
        </div>
      </div>
      {/* Below the transcript, not over it: a floating button covered the last visible row (the transcript gives up its height). */}
      {!following && below && entries.length > 0 && (
        <div className="jump-latest-bar">
          <button type="button" className="jump-latest" onClick={jumpToLatest}>
            Jump to latest
          </button>
        </div>
      )}
    </div>
  )
})
