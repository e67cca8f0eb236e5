import { memo, useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type ClipboardEvent, type DragEvent, type KeyboardEvent, type ReactNode, type RefObject } from 'react'
import type { CommandView, ContentBlock } from '../../../common/session/types'
import { Icon } from '../common/icons'
import { baseNameOf, fuzzyPaths, mentionQuery } from './mentions'
import { composerPlaceholder, textWidth } from './placeholder'
import { applyCommand, commandText, filterCommands, slashQuery } from './slash-commands'
import { VisibleText } from '../permissions/VisibleText'
import { revealAsText } from '../permissions/reveal-text'

/** Raw bytes of one image (main enforces the same limit). */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024
const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp']

/** What the person attached: an image, or a file or folder of the session mentioned with `@`. */
export type Attachment =
  | { id: string; kind: 'image'; name: string; mimeType: string; data: string; bytes: number }
  | { id: string; kind: 'mention'; path: string; uri: string }

/** The composer's view of the agent's `promptCapabilities` and the session folder (for `@`). */
export interface ComposerContext {
  images: boolean
  /** The session's folder (absolute), mentions are relative to it. */
  root: string
  /** The folder's files and folders (folders end with `/`), loaded on the first `@`. */
  listFiles: () => Promise<string[]>
}

export interface ComposerProps {
  /** A turn is running: Send becomes Stop and sending is disabled. */
  busy: boolean
  /** The agent cannot take prompts (stopped/crashed). */
  disabled?: boolean
  /** A message already sent waits for the agent to start: no second one goes until it has (the box stays for typing). */
  held?: boolean
  commands: CommandView[]
  agentName: string
  /**
   * Sends the text and the attachments' blocks; resolving `false` (the send failed) puts them back, unless the
   * person typed since.
   */
  onSend: (text: string, attachments?: ContentBlock[]) => Promise<boolean> | void
  onStop: () => void
  /**
   * Put this text in the box and focus it (a refused message to edit); a new `nonce` asks again. With `onlyIf`: only
   * when the box holds exactly that, without focusing it (a refused message kept there went through after all).
   */
  draftRequest?: { text: string; nonce: number; onlyIf?: string } | null
  /** Told the box's text after each change (what a new session started from here carries over). */
  onDraftChange?: (text: string) => void
  /** Attachments and `@` mentions; without it the composer sends text only. */
  context?: ComposerContext
}

/**
 * A session just shown while nothing has the focus: the message box takes it, so the person types at once (the New
 * session form that started the session went away with the focus, and the first keys typed went nowhere). The form may
 * leave a frame after the session is shown, so a focus that falls to the page is taken too, until the person presses a
 * key or the pointer, or something has the focus again. Focus somewhere (a sidebar row clicked) stays there.
 */
function useClaimFocus(target: RefObject<HTMLTextAreaElement | null>): void {
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined
    const claim = () => {
      const active = document.activeElement
      if (!active || active === document.body) target.current?.focus()
    }
    const fell = (event: FocusEvent) => {
      if (event.relatedTarget !== null) return
      clearTimeout(timer)
      // The page's active element is updated after the event.
      timer = setTimeout(claim, 0)
    }
    // Taken (here or anywhere else): nothing more to do.
    const moved = () => stop()
    const stop = () => {
      document.removeEventListener('focusout', fell, true)
      document.removeEventListener('focusin', moved, true)
      document.removeEventListener('pointerdown', stop, true)
      document.removeEventListener('keydown', stop, true)
    }
    document.addEventListener('focusout', fell, true)
    document.addEventListener('focusin', moved, true)
    document.addEventListener('pointerdown', stop, true)
    document.addEventListener('keydown', stop, true)
    claim()
    return () => {
      stop()
      clearTimeout(timer)
    }
  }, [target])
}

/** Multi-line prompt box: Enter sends, Shift+Enter adds a line, `/` opens the agent's commands. */
export const Composer = memo(function Composer({ busy, disabled = false, held = false, commands, agentName, onSend, onStop, draftRequest = null, onDraftChange, context }: ComposerProps) {
  const [draft, setDraft] = useState('')
  useEffect(() => onDraftChange?.(draft), [draft, onDraftChange])
  const [active, setActive] = useState(0)
  const [menuDismissed, setMenuDismissed] = useState(false)
  const [attachments, setAttachments] = useState<Attachment[]>([])
  const [problem, setProblem] = useState<string | null>(null)
  const [files, setFiles] = useState<string[] | null>(null)
  const [caret, setCaret] = useState(0)
  const textRef = useRef<HTMLTextAreaElement>(null)
  useEffect(() => {
    if (!draftRequest) return
    const { text, onlyIf } = draftRequest
    if (onlyIf !== undefined) {
      setDraft((current) => (current === onlyIf ? text : current))
      return
    }
    setDraft(text)
    textRef.current?.focus()
  }, [draftRequest])
  useClaimFocus(textRef)
  const pickerRef = useRef<HTMLInputElement>(null)
  const loading = useRef(false)
  const listId = useId()

  const query = slashQuery(draft, commands)
  const mention = context && query === null ? mentionQuery(draft.slice(0, caret)) : null
  if (mention && files === null && !loading.current && context) {
    loading.current = true
    void context.listFiles().then((list) => setFiles(list), () => setFiles([]))
  }
  const mentionMatches = useMemo(() => (mention && files ? fuzzyPaths(files, mention.query) : []), [mention?.query, files]) // eslint-disable-line react-hooks/exhaustive-deps
  const commandMatches = useMemo(() => (query === null ? [] : filterCommands(commands, query)), [commands, query])
  const mentionOpen = mention !== null && !menuDismissed && mentionMatches.length > 0
  const matches: readonly (CommandView | string)[] = mentionOpen ? mentionMatches : commandMatches
  const menuOpen = mentionOpen || (query !== null && !menuDismissed && commandMatches.length > 0)
  const activeIndex = Math.min(active, Math.max(0, matches.length - 1))

  // The box's line, for the placeholder to fit on it: measured again whenever the box itself changes size (a window
  // resize, but also a layout change around it: a row appearing beside it, the column narrowing) and when fonts load.
  const [line, setLine] = useState<{ width: number; font: string } | null>(null)
  const hasImages = context?.images === true
  useLayoutEffect(() => {
    const el = textRef.current
    if (!el) return
    const measure = () => {
      const next = { width: el.clientWidth, font: getComputedStyle(el).font }
      setLine((prev) => (prev !== null && prev.width === next.width && prev.font === next.font ? prev : next))
    }
    measure()
    // The observer reports after layout (never inside it), so setting state from it cannot loop.
    const observer = new ResizeObserver(measure)
    observer.observe(el)
    const fonts = document.fonts as FontFaceSet | undefined
    fonts?.addEventListener('loadingdone', measure)
    return () => {
      observer.disconnect()
      fonts?.removeEventListener('loadingdone', measure)
    }
  }, [busy, hasImages])
  const placeholder = disabled
    ? `${agentName} is not running`
    : composerPlaceholder(agentName, { files: context !== undefined, fits: (text) => line === null || line.width === 0 || textWidth(text, line.font) <= line.width })
  // Grow with the text up to a limit (CSS max-height), without a resize observer or timers. Measured again when the
  // placeholder or the box's line changes: the first, longer placeholder wrapped in a narrow box (200% zoom) and left it
  // two lines tall under a one-line placeholder.
  const lineWidth = line?.width
  useLayoutEffect(() => {
    const el = textRef.current
    if (!el) return
    el.style.height = 'auto'
    el.style.height = `${el.scrollHeight}px`
  }, [draft, placeholder, lineWidth])

  const change = (value: string, caretAt: number) => {
    setDraft(value)
    setCaret(caretAt)
    setActive(0)
    setMenuDismissed(false)
  }
  const pick = (item: CommandView | string) => {
    if (typeof item === 'string') {
      if (!mention || !context) return
      // `@query` becomes `@path ` in the text, and the file a chip that is sent as a link (or embedded).
      const before = draft.slice(0, mention.start) + `@${item} `
      setDraft(before + draft.slice(caret))
      setCaret(before.length)
      const uri = fileUri(context.root, item)
      setAttachments((list) => (list.some((a) => a.kind === 'mention' && a.uri === uri) ? list : [...list, { id: `m-${uri}`, kind: 'mention', path: item, uri }]))
    } else setDraft(applyCommand(item))
    setMenuDismissed(true)
    textRef.current?.focus()
  }
  const addImages = (list: readonly File[]) => {
    const images = list.filter((f) => f.type.startsWith('image/'))
    if (images.length === 0) return false
    if (!context?.images) {
      setProblem(`${agentName} does not accept images.`)
      return true
    }
    for (const file of images) {
      if (!IMAGE_TYPES.includes(file.type)) {
        setProblem(`${file.name || 'This image'} is ${file.type}; PNG, JPEG, GIF and WebP can be sent.`)
        continue
      }
      if (file.size > MAX_IMAGE_BYTES) {
        setProblem(`${file.name || 'The image'} is ${(file.size / 1024 / 1024).toFixed(1)} MiB; images up to 5 MiB can be sent.`)
        continue
      }
      setProblem(null)
      void readBase64(file).then((data) =>
        setAttachments((current) => [...current, { id: `i-${Date.now()}-${Math.random()}`, kind: 'image', name: file.name || 'pasted image', mimeType: file.type, data, bytes: file.size }]),
      )
    }
    return true
  }
  const onPaste = (e: ClipboardEvent<HTMLTextAreaElement>) => {
    if (addImages(Array.from(e.clipboardData.files))) e.preventDefault()
  }
  const onDrop = (e: DragEvent<HTMLFormElement>) => {
    const files = Array.from(e.dataTransfer.files)
    if (addImages(files)) e.preventDefault()
    else if (files.length > 0) {
      // The drop was accepted (see onDragOver): left to the browser, the file would replace Bosun's page in the tab.
      e.preventDefault()
      setProblem(`${files.length === 1 && files[0]!.name ? files[0]!.name : 'These files'}: only images can be attached. Mention a file in the working folder with @ to send it.`)
    }
  }
  const send = () => {
    const text = draft.trim()
    if (!text || busy || disabled || held) return
    // Chips whose `@path` was deleted from the text still go: the chip is what the person sees.
    const blocks: ContentBlock[] = attachments.map((a) =>
      a.kind === 'image' ? { type: 'image', mimeType: a.mimeType, data: a.data } : { type: 'resource_link', uri: a.uri, name: baseNameOf(a.path) },
    )
    const kept = attachments
    const sent = onSend(text, blocks)
    setDraft('')
    setAttachments([])
    setProblem(null)
    // A failed send keeps what the person typed and attached.
    if (sent)
      void sent.then((ok) => {
        if (ok) return
        setDraft((current) => (current === '' ? text : current))
        setAttachments((current) => (current.length === 0 ? kept : current))
      })
  }

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.nativeEvent.isComposing) return
    if (menuOpen) {
      if (e.key === 'ArrowDown') {
        e.preventDefault()
        setActive((activeIndex + 1) % matches.length)
        return
      }
      if (e.key === 'ArrowUp') {
        e.preventDefault()
        setActive((activeIndex - 1 + matches.length) % matches.length)
        return
      }
      if (e.key === 'Enter' || e.key === 'Tab') {
        e.preventDefault()
        const item = matches[activeIndex]!
        // A command typed whole that takes no input (Codex's /status) is sent by Enter: picking it changed nothing
        // the person could see (a space), and they pressed Enter again wondering why nothing happened.
        if (e.key === 'Enter' && !e.shiftKey && typeof item !== 'string' && !item.hint && draft === commandText(item)) send()
        else pick(item)
        return
      }
      if (e.key === 'Escape') {
        e.preventDefault()
        setMenuDismissed(true)
        return
      }
    }
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault()
      send()
    }
  }

  const optionId = (i: number) => `${listId}-opt-${i}`
  return (
    <form
      className="composer"
      aria-label="Message composer"
      onSubmit={(e) => {
        e.preventDefault()
        send()
      }}
      onDragOver={(e) => {
        if (context && Array.from(e.dataTransfer.items).some((item) => item.kind === 'file')) e.preventDefault()
      }}
      onDrop={onDrop}
    >
      {menuOpen && mentionOpen && (
        <ul className="command-menu" role="listbox" id={listId} aria-label="Files">
          {mentionMatches.map((path, i) => (
            <MenuOption key={path} id={optionId(i)} active={i === activeIndex} onPick={() => pick(path)} onHover={() => setActive(i)}>
              <span className="command-name">{baseNameOf(path)}</span>
              <span className="command-description muted">{path}</span>
            </MenuOption>
          ))}
        </ul>
      )}
      {menuOpen && !mentionOpen && (
        <ul className="command-menu" role="listbox" id={listId} aria-label="Commands">
          {commandMatches.map((command, i) => (
            <MenuOption key={command.name} id={optionId(i)} active={i === activeIndex} onPick={() => pick(command)} onHover={() => setActive(i)}>
              {/* The agent's words: control and direction-changing characters show as markers, so none reorders the menu. */}
              <span className="command-name">
                <VisibleText text={commandText(command)} />
              </span>
              <span className="command-description muted">
                <VisibleText text={command.description} />
              </span>
              {command.hint && (
                <span className="command-hint muted" title={revealAsText(command.hint)}>
                  <VisibleText text={command.hint} />
                </span>
              )}
            </MenuOption>
          ))}
        </ul>
      )}
      {attachments.length > 0 && (
        <ul className="composer-chips" aria-label="Attachments">
          {attachments.map((a) => (
            <li key={a.id} className="composer-chip">
              {a.kind === 'image' ? (
                <img className="composer-chip-thumb" src={`data:${a.mimeType};base64,${a.data}`} alt="" />
              ) : (
                <span aria-hidden="true">@</span>
              )}
              <span className="composer-chip-name">{a.kind === 'image' ? a.name : a.path}</span>
              <button
                type="button"
                className="composer-chip-remove"
                aria-label={`Remove ${a.kind === 'image' ? a.name : a.path}`}
                onClick={() => setAttachments((list) => list.filter((x) => x.id !== a.id))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      {problem && (
        <p className="field-error composer-problem" role="alert">
          {problem}
        </p>
      )}
      <div className="composer-box">
        {context?.images && (
          <>
            <button type="button" className="button button-small button-secondary composer-attach" aria-label="Attach image" disabled={disabled} onClick={() => pickerRef.current?.click()}>
              <Icon name="plus" size={14} />
            </button>
            <input
              ref={pickerRef}
              type="file"
              accept={IMAGE_TYPES.join(',')}
              multiple
              hidden
              aria-label="Image file"
              onChange={(e) => {
                addImages(Array.from(e.target.files ?? []))
                e.target.value = ''
              }}
            />
          </>
        )}
        <textarea
          ref={textRef}
          className="composer-input"
          rows={1}
          value={draft}
          placeholder={placeholder}
          aria-label="Message"
          aria-autocomplete="list"
          aria-controls={menuOpen ? listId : undefined}
          aria-activedescendant={menuOpen ? optionId(activeIndex) : undefined}
          disabled={disabled}
          onChange={(e) => change(e.target.value, e.target.selectionStart ?? e.target.value.length)}
          onSelect={(e) => setCaret((e.target as HTMLTextAreaElement).selectionStart ?? 0)}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
        />
        {busy ? (
          <button type="button" className="button button-danger composer-action" onClick={onStop}>
            <Icon name="stop" size={14} />
            Stop
          </button>
        ) : (
          <button type="submit" className="button button-primary composer-action" disabled={disabled || held || draft.trim() === ''}>
            <Icon name="send" size={14} />
            Send
          </button>
        )}
      </div>
    </form>
  )
})

function readBase64(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => {
      const url = String(reader.result)
      resolve(url.slice(url.indexOf(',') + 1))
    }
    reader.onerror = () => reject(reader.error)
    reader.readAsDataURL(file)
  })
}

/** `file://` URI of a path relative to the session's folder (each segment escaped). */
export function fileUri(root: string, relative: string): string {
  const path = `${root.replace(/\/+$/, '')}/${relative.replace(/\/$/, '')}`
  return 'file://' + path.split('/').map(encodeURIComponent).join('/')
}

/** One option of the `/` and `@` menus: picked on mouse down (the text box keeps its focus), highlighted on hover. */
function MenuOption({ id, active, onPick, onHover, children }: { id: string; active: boolean; onPick: () => void; onHover: () => void; children: ReactNode }) {
  return (
    <li
      id={id}
      role="option"
      aria-selected={active}
      className={active ? 'command-option active' : 'command-option'}
      onMouseDown={(e) => {
        e.preventDefault()
        onPick()
      }}
      onMouseEnter={onHover}
    >
      {children}
    </li>
  )
}
