import { useEffect, useState } from 'react'
import type { BosunApi } from '../../../common/contract'
import { DEFAULT_STALL_AFTER_MS, StallWatch, silenceLabel, systemClock, type StallClock } from './stall'
import './session.css'

const thresholds = new WeakMap<object, Promise<number>>()

/**
 * After how much silence the session says so: main's `appInfo.stallNoticeMs` when it sets one (tests shorten
 * it), else {@link DEFAULT_STALL_AFTER_MS}. Asked once per API object.
 */
export function useStallThreshold(appInfo: BosunApi['appInfo'] | undefined): number {
  const [ms, setMs] = useState(DEFAULT_STALL_AFTER_MS)
  useEffect(() => {
    if (!appInfo) return
    let live = true
    let asked = thresholds.get(appInfo)
    if (!asked) {
      asked = appInfo(undefined).then(
        (r) => (r.ok && r.value.stallNoticeMs !== undefined ? r.value.stallNoticeMs : DEFAULT_STALL_AFTER_MS),
        () => DEFAULT_STALL_AFTER_MS,
      )
      thresholds.set(appInfo, asked)
    }
    void asked.then((value) => live && setMs(value))
    return () => {
      live = false
    }
  }, [appInfo])
  return ms
}

/**
 * The silence of the agent, in ms once it passes `thresholdMs` (`null` before, and whenever `since` is `null`:
 * the session does not wait on the agent). One timer while watching, disposed with the component; news from
 * the agent (a new `since`) hides the notice in the same render.
 */
export function useSilence(since: number | null, thresholdMs: number, clock: StallClock = systemClock): number | null {
  const [seen, setSeen] = useState<{ since: number | null; silent: number | null }>({ since: null, silent: null })
  useEffect(() => {
    const watch = new StallWatch(clock, thresholdMs, (silent) => setSeen({ since, silent }))
    watch.watch(since)
    return () => watch.dispose()
  }, [since, thresholdMs, clock])
  return since !== null && seen.since === since ? seen.silent : null
}

export interface StallNoticeProps {
  agentName: string
  silentMs: number
  /** Other sessions of this agent with a turn running (a restart ends theirs too). */
  otherBusySessions: number
  /** Stop this turn (`session/cancel`). */
  onStop: () => void
  /** Restart the agent (asked here first). */
  onRestart: () => void
  /**
   * Main said the agent reads none of its input (`isInputStallNotice`): whatever is sent, Stop included, waits unread,
   * so only a restart is offered, whatever the silence.
   */
  notReading?: boolean
}

/**
 * "No word from Claude for 2 min", with Stop and Restart agent at hand. Restarting ends every turn of the
 * agent, so it asks first, in place. The words under the title say that nothing ends the turn by itself.
 */
export function StallNotice({ agentName, silentMs, otherBusySessions, onStop, onRestart, notReading = false }: StallNoticeProps) {
  const [confirming, setConfirming] = useState(false)
  const others =
    otherBusySessions === 0 ? '' : otherBusySessions === 1 ? ' Its turn in 1 other session ends too.' : ` Its turns in ${otherBusySessions} other sessions end too.`
  const title = notReading ? `${agentName} is not reading its input` : `No word from ${agentName} for ${silenceLabel(silentMs)}`
  return (
    <section className="stall-notice" role="region" aria-label={notReading ? `${agentName} is not reading` : `${agentName} is silent`}>
      {/* Announced once when it appears; the counting words below are not live, so they do not nag. */}
      <span className="sr-only" role="status">{notReading ? `${agentName} is not reading its input.` : `No word from ${agentName} for a while.`}</span>
      <div className="stall-head">
        <span className="stall-dot" aria-hidden="true" />
        <div className="stall-text">
          <strong>{title}</strong>
          <span className="muted">
            {notReading
              ? 'It has left what Bosun sent it unread, so nothing you send reaches it now, Stop included. Restart the agent to go on; that ends all of its turns.'
              : 'The turn is still running: a long tool can be quiet. Stop ends this turn; restarting the agent ends all of its turns.'}
          </span>
        </div>
        {!confirming && (
          <div className="stall-actions">
            {/* Named apart from the composer's Stop (same call), so each is found by its own name. Not offered to an agent that reads nothing. */}
            {!notReading && (
              <button type="button" className="button button-secondary button-small" aria-label="Stop this turn" onClick={onStop}>
                Stop
              </button>
            )}
            <button type="button" className="button button-secondary button-small" onClick={() => setConfirming(true)}>
              Restart agent
            </button>
          </div>
        )}
      </div>
      {confirming && (
        <div className="stall-confirm" role="group" aria-label={`Restart ${agentName}?`}>
          <span>
            Restart {agentName}? This turn ends.{others}
          </span>
          <div className="stall-actions">
            <button
              type="button"
              className="button button-danger button-small"
              onClick={() => {
                setConfirming(false)
                onRestart()
              }}
            >
              Restart {agentName}
            </button>
            <button type="button" className="button button-secondary button-small" onClick={() => setConfirming(false)} autoFocus>
              Cancel
            </button>
          </div>
        </div>
      )}
    </section>
  )
}
