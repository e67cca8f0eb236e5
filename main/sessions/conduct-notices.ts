/**
 * What Bosun tells the person, in its own words, about what an agent did to a session without being asked: it switched
 * the session into a mode that acts unasked (or started it in one), or it left Bosun's bytes unread in its input. Each
 * is said once while it holds, and taken back when it no longer does. The sessions service owns one of these and calls
 * it from the places where those things happen.
 */
import { formatBytes } from '../base/format-bytes'
import type { AcpClientConnection, InputStall, SessionUpdateNotification } from '../acp/types'
import type { SessionAction } from '../../common/session/types'
import { cutText } from '../../common/bounded'
import { INPUT_STALL_TITLE, bosunNotice, isInputStallNotice } from '../../common/session/stop-watchdog'
import { leavesUnattended, unattendedKey, unattendedUpdate, type UnattendedChoice } from '../trust/unattended-mode'
import { MAX_CHOSEN_MODES, type SessionRecord } from './session-record'

/** How Gemini CLI tells a change of its mode, as text (see `applyModeMarker`). */
const MODE_MARKER = '[MODE_UPDATE] '
/** How much of an agent's mode name (or id) a notice of Bosun's quotes. */
const MAX_QUOTED_MODE_CHARS = 200

/** What the notices need of the sessions service. */
export interface ConductPort {
  sessions(): Iterable<[string, SessionRecord]>
  record(sessionId: string): SessionRecord | undefined
  push(sessionId: string, action: SessionAction): void
  /** Applies what waits in the batch (a notice just told may wait there: taking it back needs its id). */
  flush(sessionId: string): void
}

export class ConductNotices {
  constructor(private readonly port: ConductPort) {}

  // ---- Modes acting unasked ----

  /**
   * The agent switched the session by itself to a mode or option whose id or name says it then acts without asking
   * (nobody chose it here, where main would have asked): the person is told, in Bosun's words, once until it changes.
   * The modes' names are read as last applied, without applying what waits (a flood of mode updates stays cheap).
   */
  switched(sessionId: string, record: SessionRecord, update: SessionUpdateNotification['update']): void {
    this.left(sessionId, update)
    const found = unattendedUpdate(update, record.lazy.last.modes)
    if (!found || record.chosenModes?.has(found.key)) {
      if (update.sessionUpdate === 'current_mode_update' || !found) record.unaskedTold = undefined
      return
    }
    this.tellUnasked(sessionId, record, found, 'switched')
  }

  /** Gemini CLI's mode change told as text, `[MODE_UPDATE] <mode>` (applyModeMarker): the same switch, the same warning. */
  marker(sessionId: string, record: SessionRecord, update: SessionUpdateNotification['update']): void {
    const text = (update.content as { text?: unknown } | undefined)?.text
    if (typeof text !== 'string' || !text.startsWith(MODE_MARKER)) return
    const modeId = /^\[MODE_UPDATE\] (\S+)$/.exec(text)?.[1]
    const modes = record.lazy.last.modes
    // As the reducer takes it: a mode the session lists, while no config option is the mode.
    if (modeId === undefined || !modes?.availableModes.some((m) => m.id === modeId) || record.lazy.last.configOptions.some((o) => o.category === 'mode')) return
    this.switched(sessionId, record, { sessionUpdate: 'current_mode_update', currentModeId: modeId })
  }

  /** A new session the agent started in a mode or option acting unasked (`gemini --yolo`, a bypass default in its own settings). */
  started(sessionId: string, record: SessionRecord): void {
    const { modes, configOptions } = record.state
    const mode = modes?.currentModeId ? unattendedUpdate({ sessionUpdate: 'current_mode_update', currentModeId: modes.currentModeId }, modes) : null
    const found = mode ?? unattendedUpdate({ sessionUpdate: 'config_option_update', configOptions }, modes)
    if (found) this.tellUnasked(sessionId, record, found, 'started')
  }

  /** The person chose this mode (`modeId`) or option value in the session: the agent reporting it as current did not switch by itself. */
  chose(sessionId: string, configId: string | undefined, value: string | boolean): void {
    const record = this.port.record(sessionId)
    if (!record) return
    record.chosenModes ??= new Set()
    if (record.chosenModes.size < MAX_CHOSEN_MODES) record.chosenModes.add(unattendedKey(configId, value))
  }

  /**
   * The session left the mode or option acting unasked it was told to be in (`update`, the agent's or the person's): it
   * may be told again, and the warning that the agent started the session in it goes, as it no longer is so (a default
   * of the person's, set right after the start, left it at once). A switch the agent made by itself stays told.
   */
  left(sessionId: string, update: { sessionUpdate: string } & Record<string, unknown>): void {
    const record = this.port.record(sessionId)
    const told = record?.unaskedTold
    if (!record || told === undefined || !leavesUnattended(told, update)) return
    record.unaskedTold = undefined
    const started = record.unaskedStarted
    if (started === undefined) return
    record.unaskedStarted = undefined
    // The warning may still wait in the batch: applied first, to find its id (once a session at most).
    this.port.flush(sessionId)
    const notice = record.state.notices.find((n) => n.fromBosun && n.title === started)
    if (notice) this.port.push(sessionId, { type: 'dismiss_notice', id: notice.id })
  }

  private tellUnasked(sessionId: string, record: SessionRecord, found: { key: string; choice: UnattendedChoice }, how: 'started' | 'switched'): void {
    if (record.unaskedTold === found.key) return
    record.unaskedTold = found.key
    const { choice } = found
    const name = `“${cutText(choice.name, MAX_QUOTED_MODE_CHARS)}”${choice.name === choice.id ? '' : ` (id “${cutText(choice.id, MAX_QUOTED_MODE_CHARS)}”)`}`
    const title = how === 'started' ? `The agent started this session in ${name}` : `The agent switched this session to ${name} by itself`
    if (how === 'started') record.unaskedStarted = title
    this.port.push(sessionId, {
      type: 'updates',
      updates: [
        bosunNotice(
          'warning',
          title,
          `Bosun did not ask you: the agent ${how === 'started' ? 'chose it' : 'did it'}. Its ${choice.said.by} says “${cutText(choice.said.word, MAX_QUOTED_MODE_CHARS)}”, a word agents use for a mode ` +
            'that runs commands and changes files without asking you. To switch back, choose another mode under the message box.',
        ),
      ],
    })
  }

  // ---- An input the agent does not read ----

  /** The agent reads none of its input, or reads again: said, or taken back, in its sessions with a turn running. */
  inputStallChanged(connection: AcpClientConnection, stall: InputStall | null): void {
    for (const [sessionId, record] of this.port.sessions()) {
      if (record.connection !== connection) continue
      if (stall === null) this.inputReadAgain(sessionId, record)
      else if (record.turn) this.inputStalled(sessionId, record, stall)
    }
  }

  /**
   * Bytes wait in the agent's input (only in a full pipe) and it has read none for a while: what the person sends now,
   * Stop's `session/cancel` too, waits behind them. Said before the silence notice would be (30 s), with the way on.
   */
  inputStalled(sessionId: string, record: SessionRecord, stall: InputStall): void {
    if (record.inputStallTold) return
    record.inputStallTold = true
    const seconds = Math.max(1, Math.round(stall.unreadMs / 1000))
    this.port.push(sessionId, {
      type: 'updates',
      updates: [
        bosunNotice(
          'warning',
          INPUT_STALL_TITLE,
          `For ${seconds} s it has read nothing of what Bosun sent it (${formatBytes(stall.waitingBytes)} wait unread), so your messages, ` +
            'its answers and Stop do not reach it now. It may be stuck. Restart the agent to go on: this ends its turns.',
        ),
      ],
    })
  }

  /** The agent reads again, or went away: the notice is taken back. */
  inputReadAgain(sessionId: string, record: SessionRecord): void {
    if (!record.inputStallTold) return
    record.inputStallTold = undefined
    this.port.flush(sessionId)
    const notice = record.state.notices.find(isInputStallNotice)
    if (notice) this.port.push(sessionId, { type: 'dismiss_notice', id: notice.id })
  }
}
