import { memo, useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react'
import type { CommandView } from '../../../common/session/types'
import { Icon } from '../common/icons'
import { applyCommand, filterCommands, slashQuery } from './slash-commands'

export interface ComposerProps {
  /** A turn is running: Send becomes Stop and sending is disabled. */
  busy: boolean
  /** The agent cannot take prompts (stopped/crashed). */
  disabled?: boolean
  commands: CommandView[]
  agentName: string
  /** Sends the text; resolving `false` (the send failed) puts it back in the box, unless the person typed since. */
  onSend: (text: string) => Promise<boolean> | void
  onStop: () => void
  /** Put this text in the box and focus it (a refused message to edit); a new `nonce` asks again. */
  draftRequest?: { text: string; nonce: number } | null
}

/** Multi-line prompt box: Enter sends, Shift+Enter adds a line, `/` opens the agent's commands. */
export const Composer = memo(function Composer({ busy, disabled = false, commands, agentName, onSend, onStop, draftRequest = null }: ComposerProps) {
  const [draft, setDraft] = useState('')
  const [active, setActive] = useState(0)
  const [menuDismissed, setMenuDismissed] = useState(false)
  const textRef = useRef<HTMLTextAreaElement>(null)
  useEffect(() => {
    if (!draftRequest) return
    setDraft(draftRequest.text)
    textRef.current?.focus()
  }, [draftRequest])
  const listId = useId()

  const query = slashQuery(draft)
  const matches = useMemo(() => (query === null ? [] : filterCommands(commands, query)), [commands, query])
  const menuOpen = query !== null && !menuDismissed && matches.length > 0
  const activeIndex = Math.min(active, Math.max(0, matches.length - 1))

  // Grow with the text up to a limit (CSS max-height), without a resize observer or timers.
  useLayoutEffect(() => {
    const el = textRef.current
    if (!el) return
    el.style.height = 'auto'
    el.style.height = `${el.scrollHeight}px`
  }, [draft])

  const change = (value: string) => {
    setDraft(value)
    setActive(0)
    setMenuDismissed(false)
  }
  const pick = (command: CommandView) => {
    setDraft(applyCommand(command))
    setMenuDismissed(true)
    textRef.current?.focus()
  }
  const send = () => {
    const text = draft.trim()
    if (!text || busy || disabled) return
    const sent = onSend(text)
    setDraft('')
    // A failed send keeps what the person typed.
    if (sent) void sent.then((ok) => ok || setDraft((current) => (current === '' ? text : current)))
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
        pick(matches[activeIndex]!)
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
    >
      {menuOpen && (
        <ul className="command-menu" role="listbox" id={listId} aria-label="Commands">
          {matches.map((command, i) => (
            <li
              key={command.name}
              id={optionId(i)}
              role="option"
              aria-selected={i === activeIndex}
              className={i === activeIndex ? 'command-option active' : 'command-option'}
              onMouseDown={(e) => {
                e.preventDefault()
                pick(command)
              }}
              onMouseEnter={() => setActive(i)}
            >
              <span className="command-name">/{command.name}</span>
              <span className="command-description muted">{command.description}</span>
              {command.hint && <span className="command-hint muted">{command.hint}</span>}
            </li>
          ))}
        </ul>
      )}
      <div className="composer-box">
        <textarea
          ref={textRef}
          className="composer-input"
          rows={1}
          value={draft}
          placeholder={disabled ? `${agentName} is not running` : `Message ${agentName} (/ for commands, Shift+Enter for a new line)`}
          aria-label="Message"
          aria-autocomplete="list"
          aria-controls={menuOpen ? listId : undefined}
          aria-activedescendant={menuOpen ? optionId(activeIndex) : undefined}
          disabled={disabled}
          onChange={(e) => change(e.target.value)}
          onKeyDown={onKeyDown}
        />
        {busy ? (
          <button type="button" className="button button-danger composer-action" onClick={onStop}>
            <Icon name="stop" size={14} />
            Stop
          </button>
        ) : (
          <button type="submit" className="button button-primary composer-action" disabled={disabled || draft.trim() === ''}>
            <Icon name="send" size={14} />
            Send
          </button>
        )}
      </div>
    </form>
  )
})
