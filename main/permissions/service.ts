/**
 * The permissions domain assembled for the composition root: broker, remembered rules, audit log,
 * attention (notifications and badge) and the IPC call handlers of `preload/contract/permissions.ts`.
 */
import { untitledName } from '../../common/session/title'
import { join } from 'node:path'
import { isDeepStrictEqual } from 'node:util'
import type { Notifier } from '../app/services'
import { writeFileAtomic } from '../base/atomic-write'
import { fail, ok, toFailure } from '../base/errors'
import { DisposableStore, type IDisposable } from '../base/lifecycle'
import { createLogger, type Logger } from '../base/log'
import type { CallHandlers, EventSink } from '../../common/contract'
import { defaultNotificationSettings, notificationSettingsSchema, type NotificationSettings } from '../../common/contract/permissions'
import type { PermissionRequestView, SessionAction } from '../../common/session/types'
import { AttentionService, type AttentionOutput, type Scheduler } from './attention'
import { AuditLog } from './audit-log'
import { PermissionBroker, type PermissionSessionLookup } from './broker'
import { limitedToSession } from './rules'
import { RuleStore } from './rule-store'
import { boundDetail, quoteCut, quoteExact, refuseAllConfirmation, type ConfirmationService } from '../trust/confirmation'
import { readSettingsFile, ReplaceGuard } from '../base/settings-file'

export type PermissionCallHandlers = Pick<
  CallHandlers,
  | 'respondPermission'
  | 'listPendingPermissions'
  | 'listRules'
  | 'revokeRule'
  | 'setAutoApprove'
  | 'getNotificationSettings'
  | 'setNotificationSettings'
  | 'reportWindowState'
>

/** Where notification settings live (defaults to `home/notification-settings.json`). */
export interface NotificationSettingsStore {
  load(): Promise<NotificationSettings | undefined>
  save(settings: NotificationSettings): Promise<void>
}

export interface PermissionsServiceOptions {
  /** The Bosun home folder (rules file, audit logs, settings). */
  home: string
  /** Publishes reducer actions for a session. */
  sink: (sessionId: string, action: SessionAction) => void
  sessions: PermissionSessionLookup
  /** `notify` (only without a notifier: the browser page shows it), `badge` and `rulesChanged` events. */
  events?: EventSink
  /** OS notifications and badge (Electron). */
  notifier?: Notifier
  /** Whether the window is focused; without it, the state reported by `reportWindowState` decides. */
  isWindowFocused?: () => boolean
  /** Bring a request into view (notification click); typically emits the `focusRequest` event. */
  focusRequest: (requestId: string) => void
  focusSession?: (sessionId: string) => void
  settingsStore?: NotificationSettingsStore
  scheduler?: Scheduler
  now?: () => number
  log?: Logger
  /**
   * Main's confirmation with the person (native dialog in Electron, the owner in the browser host): asked
   * before auto-approve is turned on and before an "always" answer is remembered as a rule. Defaults to
   * refusing everything (fail closed).
   */
  confirmation?: ConfirmationService
  /** The session as main holds it, for the auto-approve question (and to refuse sessions that do not exist). */
  describeSession?: (sessionId: string) => { agentName: string; cwd: string; title: string | null } | undefined
  /** Secret values hidden from every request before the broker keeps it (pending list, audit, notifications). */
  redact?: <T>(value: T) => T
}

/** The option kinds whose answer the broker keeps as a persistent rule. */
const REMEMBERED_KINDS: ReadonlySet<string> = new Set(['allow_always', 'reject_always'])

export interface PermissionsService extends IDisposable {
  broker: PermissionBroker
  rules: RuleStore
  attention: AttentionService
  audit: AuditLog
  handlers: PermissionCallHandlers
  /** The Electron shell reports focus changes here (the web host uses the `reportWindowState` call). */
  windowStateChanged(state: { focused: boolean; visible: boolean }): void
  /**
   * Resolves when every audit record and rule write issued so far is on disk. Call it after `dispose()`
   * (which answers what is still pending, and audits that): quit awaits it so no decision is lost.
   */
  flush(): Promise<void>
}

export function fileSettingsStore(home: string, log: Logger): NotificationSettingsStore {
  const path = join(home, 'notification-settings.json')
  // A file read only in part is copied aside before a save replaces it; one that cannot be read is never replaced.
  const guard = new ReplaceGuard(path)
  return {
    async load() {
      const read = await readSettingsFile(path)
      if (read.kind === 'missing') return undefined
      if (read.kind === 'unreadable') {
        guard.unreadableBecause(read.message)
        log.warn(`cannot read notification settings: ${read.message}`)
        return undefined
      }
      let value: unknown
      try {
        value = JSON.parse(read.text) as unknown
      } catch (error) {
        guard.partlyRead()
        log.warn('cannot read notification settings', error)
        return undefined
      }
      const parsed = notificationSettingsSchema.safeParse(value)
      if (parsed.success) {
        // Fields this Bosun does not know (a newer one's) are left out of what it saves.
        if (!isDeepStrictEqual(parsed.data, value)) guard.partlyRead()
        return parsed.data
      }
      // A newer Bosun's field, or one bad value, does not lose the person's other settings: each one that reads is kept.
      guard.partlyRead()
      const fields = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {}
      const kept = Object.fromEntries(Object.keys(defaultNotificationSettings).flatMap((key) => (typeof fields[key] === 'boolean' ? [[key, fields[key]]] : [])))
      log.warn(`notification settings partly unreadable; kept ${Object.keys(kept).join(', ') || 'none'} of them`)
      return Object.keys(kept).length > 0 ? { ...defaultNotificationSettings, ...kept } : undefined
    },
    async save(settings) {
      const allowed = await guard.beforeReplace()
      if (!allowed.ok) throw new Error(allowed.message)
      if (allowed.aside) log.warn(`notification settings held what this Bosun cannot use; kept a copy at ${allowed.aside}`)
      await writeFileAtomic(path, JSON.stringify(settings, null, 2) + '\n')
    },
  }
}

export async function createPermissionsService(options: PermissionsServiceOptions): Promise<PermissionsService> {
  const log = options.log ?? createLogger('permissions')
  const store = new DisposableStore()
  const settingsStore = options.settingsStore ?? fileSettingsStore(options.home, log)

  const rules = store.add(new RuleStore(options.home, log.child('rules')))
  await rules.load()
  // A hand edit of permission-rules.json while Bosun runs is taken at once (and never overwritten unread).
  store.add(rules.watch())
  const audit = new AuditLog(options.home, log.child('audit'))
  const settings = (await settingsStore.load()) ?? defaultNotificationSettings

  let reported = { focused: true, visible: true }
  const isWindowFocused = options.isWindowFocused ?? (() => reported.focused && reported.visible)
  const events = options.events
  const output: AttentionOutput = {
    show(notification, onClick) {
      if (options.notifier) options.notifier.show(notification, onClick)
      else events?.emit('notify', notification)
    },
    setBadgeCount(count) {
      options.notifier?.setBadgeCount(count)
      events?.emit('badge', { count })
    },
    withdraw(requestId) {
      if (options.notifier) options.notifier.withdraw?.(requestId)
      else events?.emit('notificationWithdrawn', { requestId })
    },
  }
  const attention = store.add(
    new AttentionService({
      output,
      isWindowFocused,
      focusRequest: options.focusRequest,
      focusSession: options.focusSession,
      scheduler: options.scheduler,
      settings,
    }),
  )

  const broker = store.add(
    new PermissionBroker({
      sink: options.sink,
      sessions: options.sessions,
      rules,
      audit,
      now: options.now,
      log: log.child('broker'),
      ...(options.redact ? { redact: options.redact } : {}),
    }),
  )
  store.add(
    broker.onDidRequest((view) => {
      const sessionTitle = options.describeSession?.(view.sessionId)?.title ?? null
      attention.requestArrived({ requestId: view.requestId, agentName: view.agentName, title: view.title, kind: 'permission', sessionTitle })
    }),
  )
  store.add(broker.onDidResolve((view) => attention.requestResolved(view.requestId)))
  if (events) store.add(rules.onDidChange((list) => events.emit('rulesChanged', { rules: [...list] })))

  const windowStateChanged = (state: { focused: boolean; visible: boolean }) => {
    reported = state
    attention.windowStateChanged({ focused: state.focused && state.visible })
  }

  const confirmation = options.confirmation ?? refuseAllConfirmation(log)

  /**
   * How much of a request's title and an option's name main's dialog quotes: what Bosun will do, said after them, and
   * the command stay in view (a 1 MB option name made the question a wall of text with its meaning at the end).
   */
  const MAX_QUOTED_TITLE_CHARS = 200
  const MAX_QUOTED_OPTION_CHARS = 200
  /** Describes a request's subject for the dialog, quoted exactly (its title cut). */
  const subjectLines = (view: PermissionRequestView): string[] => {
    const lines = [`Request: ${quoteCut(view.title, MAX_QUOTED_TITLE_CHARS)}`]
    const subject = view.subject
    // The folder before the command, whose end a dialog's bound may cut (and then says so).
    if (subject.type === 'command') lines.push(`In folder: ${quoteExact(subject.cwd)}`, `Command: ${quoteExact(subject.command)}`)
    return lines
  }

  /** Requests whose answer main is asking the person to confirm: one question per request at a time (a double click asks once). */
  const confirming = new Set<string>()
  const handlers: PermissionCallHandlers = {
    async respondPermission({ requestId, optionId }) {
      if (confirming.has(requestId)) return fail({ kind: 'busy', message: 'Bosun is already asking you to confirm an answer to this request.' })
      const confirm = async (request: Parameters<typeof confirmation.confirm>[0]) => {
        confirming.add(requestId)
        try {
          return await confirmation.confirm(request)
        } finally {
          confirming.delete(requestId)
        }
      }
      const view = optionId === null ? undefined : broker.pending().find((v) => v.requestId === requestId)
      const option = view?.options.find((o) => o.optionId === optionId)
      const kept = view && option && REMEMBERED_KINDS.has(option.kind) ? broker.remembers(requestId, option.optionId) : false
      if (view && option && kept) {
        // A remembered rule answers future requests without the person: main asks itself, the renderer cannot.
        const allow = option.kind === 'allow_always'
        const session = options.describeSession?.(view.sessionId)
        const answer = await confirm({
          kind: 'remember-decision',
          title: allow ? 'Always allow' : 'Always reject',
          message: `Remember ${quoteCut(option.name, MAX_QUOTED_OPTION_CHARS)} for ${quoteExact(view.agentName)}? Bosun will ${allow ? 'allow' : 'reject'} matching requests without asking you, ${limitedToSession(option.name) ? 'for the rest of this session' : 'until you revoke the rule in Settings'}.`,
          detail: boundDetail(
            [
              ...(session ? [`Session folder: ${quoteExact(session.cwd)}`] : []),
              'Where Bosun cannot tell such requests apart, the rule only lasts for this session.',
              // The agent is answered the option chosen: one that keeps an "always" of its own (claude-agent-acp writes it
              // to a .claude/settings.local.json) is not asked again, and Bosun's Forget cannot take that back.
              'The agent is told this answer too and may keep a rule of its own, which Forget in Settings does not remove.',
              ...subjectLines(view),
            ].join('\n'),
          ),
          confirmLabel: allow ? 'Always allow' : 'Always reject',
        })
        if (!answer.confirmed) {
          return fail({ kind: 'not-confirmed', message: 'Nothing was remembered; the request is still waiting for your answer.' })
        }
      } else if (view && option && option.kind === 'allow_always') {
        // An "always allow" Bosun keeps no rule for (a mode switch, a request it cannot tell apart) still tells the agent
        // "always": the agent may act without asking from now on (claude-agent-acp's "Yes, and bypass permissions").
        // That widens what runs unasked, so main confirms it, as it does a rule; an "always reject" widens nothing.
        const answer = await confirm({
          kind: 'remember-decision',
          title: 'Always allow',
          message: `Answer ${quoteCut(option.name, MAX_QUOTED_OPTION_CHARS)} to ${quoteExact(view.agentName)}? Bosun keeps no rule for it, but the agent may take it as leave to act without asking you from now on.`,
          detail: boundDetail(subjectLines(view).join('\n')),
          confirmLabel: 'Allow',
        })
        if (!answer.confirmed) return fail({ kind: 'not-confirmed', message: 'Nothing was answered; the request is still waiting for your answer.' })
      }
      return broker.respond(requestId, optionId)
    },
    async listPendingPermissions() {
      return ok(broker.pending())
    },
    async listRules() {
      // A hand edit the watch missed (or could not see) is shown when the person opens the list.
      await rules.reloadIfChanged()
      return ok([...rules.list()])
    },
    async revokeRule({ ruleId }) {
      try {
        const existed = await rules.revoke(ruleId)
        return existed ? ok(undefined) : fail({ kind: 'not-found', message: 'No such rule.' })
      } catch (error) {
        return fail(toFailure(error))
      }
    },
    async setAutoApprove({ sessionId, value }) {
      if (value && !broker.isAutoApprove(sessionId)) {
        const session = options.describeSession ? options.describeSession(sessionId) : { agentName: 'the agent', cwd: '', title: null }
        if (!session) return fail({ kind: 'not-found', message: 'There is no such session.' })
        const answer = await confirmation.confirm({
          kind: 'auto-approve',
          title: 'Turn on auto-approve',
          message: `Let ${quoteExact(session.agentName)} act without asking in this session? Bosun will answer its permission requests with "Allow once" (when offered) until you turn auto-approve off or close the session.`,
          detail: [`Session: ${quoteExact(session.title ?? (session.cwd ? untitledName(session.cwd) : sessionId))}`, ...(session.cwd ? [`Folder: ${quoteExact(session.cwd)}`] : [])].join('\n'),
          confirmLabel: 'Turn on',
        })
        if (!answer.confirmed) return fail({ kind: 'not-confirmed', message: 'Auto-approve stays off: it was not confirmed.' })
        // The session may have closed while the dialog was open: what it answers now would wait for a session of that id.
        if (options.describeSession && !options.describeSession(sessionId)) return fail({ kind: 'not-found', message: 'The session closed before auto-approve was confirmed.' })
      }
      broker.setAutoApprove(sessionId, value)
      return ok(undefined)
    },
    async getNotificationSettings() {
      return ok(attention.settings)
    },
    async setNotificationSettings(patch) {
      const next = attention.updateSettings(patch)
      try {
        await settingsStore.save(next)
      } catch (error) {
        log.error('cannot save notification settings', error)
        // The window says 'Could not save the notification settings:' before this; the change is in force meanwhile.
        const why = (error as Error).message.replace(/\.$/, '')
        return fail({ kind: 'io-error', message: `${why}. The change applies until Bosun quits.` })
      }
      return ok(next)
    },
    async reportWindowState(state) {
      windowStateChanged(state)
      return ok(undefined)
    },
  }

  return {
    broker,
    rules,
    attention,
    audit,
    handlers,
    windowStateChanged,
    flush: async () => {
      await Promise.all([audit.flush(), rules.flush()])
    },
    dispose: () => store.dispose(),
  }
}
