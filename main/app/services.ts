/**
 * The composition root: builds every main-process service (agents, sessions, permissions, elicitation,
 * settings, secrets) and exposes them as one {@link CallHandlers} object. The Electron shell and the
 * browser host both call {@link createBosunServices}; they differ only in transport and OS integration.
 */
import type { SecretStore } from '../secrets/secret-store'
import type { CallHandlers, EventSink } from '../../common/contract'
import type { SessionState } from '../../common/session/types'
import type { ConfirmationService } from '../trust/confirmation'
import type { WorkerHistoryStore } from '../history/worker-history-store'

/**
 * Asks where to save `content` (text as UTF-8, bytes as they are) under `suggestedName` and writes it; resolves with
 * the path written, or null when the person cancelled. `format` picks the dialog's filter (an image's: its extension).
 */
export type SaveFile = (suggestedName: string, content: string | Uint8Array, format: 'markdown' | 'json' | 'image') => Promise<string | null>

export interface HostIntegration {
  /** Where settings, rules, logs and audit files live (Electron `userData`, or `BOSUN_HOME`). */
  home: string
  host: 'electron' | 'web'
  appVersion: string
  events: EventSink
  /** The chokepoint the URL elicitation flow opens links through (Electron `shell.openExternal`; web: the page opens it). */
  openExternal?: (url: string) => Promise<void>
  /**
   * Opens a local file with the system's default application and resolves to an error message (`''` when it
   * opened): Electron `shell.openPath`. Absent in the browser host, which cannot open a local editor.
   */
  openPath?: (path: string) => Promise<string>
  /** OS notification and badge (Electron); the web host notifies from the page instead. */
  notifier?: Notifier
  /** Whether the app window is focused and visible (decides whether to notify). */
  isWindowFocused?: () => boolean
  /** Electron: asks where to save an exported file or an image and writes it; null when the person cancelled (web: the page downloads it). */
  saveFile?: SaveFile
  /**
   * How main asks the person before anything that widens what can run or open (Electron: a native dialog on
   * the main window). Omitted: the browser host's owner confirms (`host: 'web'`), and an Electron host
   * without one refuses everything that needs asking (fail closed).
   */
  confirmation?: ConfirmationService
  /** Bounds against hostile agents (defaults suit real use; tests shorten them). */
  limits?: HostileAgentLimits
  /** Where agents' keys are kept: the system keychain through keytar unless given (tests: one without a keychain). */
  secretStore?: SecretStore
  /**
   * The history's thread, started for `home` before the rest of Bosun loaded (`startHistoryThread`), so its own
   * start-up overlaps theirs. The services own it from here on, and dispose it when they fail to start.
   */
  historyThread?: WorkerHistoryStore
}

export interface HostileAgentLimits {
  /** How long `session/new|load|resume` may take. */
  sessionCallTimeoutMs?: number
  /** After Stop, how long before the session offers to stop the agent. */
  stopWatchdogMs?: number
  /** How long an agent may be silent during a turn before the session says so (the renderer's notice; ends nothing). */
  stallNoticeMs?: number
  /** Bytes that may wait for an agent that does not read its stdin. */
  maxQueuedBytes?: number
  /** How long messages may wait for an agent that reads none of its stdin before it is called unresponsive. */
  writeStallMs?: number
  /** How long an agent may leave Bosun's bytes unread in its full input before its sessions say so (ends nothing). */
  inputStallMs?: number
  /** What one open session may take from its agent before its turn is stopped and the rest dropped. */
  maxSessionBytes?: number
  /** The agent's requests Bosun holds at once, queued or waiting for their answer; more are refused at once. */
  maxRequestsInFlight?: number
  /** What all open sessions together may take from their agents before the turn that passes it is stopped. */
  maxTotalSessionBytes?: number
}

export interface Notifier {
  show(notification: { title: string; body: string; requestId?: string }, onClick: () => void): void
  setBadgeCount(count: number): void
  /** Closes the notification shown with this `requestId`: none of the requests it names waits any more. */
  withdraw?(requestId: string): void
}

export interface BosunServices {
  handlers: CallHandlers
  /** A session's state with every batch sent to the views applied (a page that fell behind gets it whole); undefined when gone. */
  sessionState?(sessionId: string): SessionState | undefined
  /** Stops every agent (graceful, under one deadline) and releases every resource. */
  dispose(): Promise<void>
}

export type CreateBosunServices = (integration: HostIntegration) => Promise<BosunServices>
