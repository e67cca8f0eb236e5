/**
 * The permissions domain assembled for the composition root: broker, remembered rules, audit log,
 * attention (notifications and badge) and the IPC call handlers of `preload/contract/permissions.ts`.
 */
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import type { Notifier } from '../app/services'
import { writeFileAtomic } from '../base/atomic-write'
import { fail, ok, toFailure } from '../base/errors'
import { DisposableStore, type IDisposable } from '../base/lifecycle'
import { createLogger, type Logger } from '../base/log'
import type { CallHandlers, EventSink } from '../../common/contract'
import { defaultNotificationSettings, notificationSettingsSchema, type NotificationSettings } from '../../common/contract/permissions'
import type { SessionAction } from '../../common/session/types'
import { AttentionService, type AttentionOutput, type Scheduler } from './attention'
import { AuditLog } from './audit-log'
import { PermissionBroker, type PermissionSessionLookup } from './broker'
import { RuleStore } from './rule-store'

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
  /** Secret values hidden from every request before the broker keeps it (pending list, audit, notifications). */
  redact?: <T>(value: T) => T
}

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
  return {
    async load() {
      try {
        const parsed = notificationSettingsSchema.safeParse(JSON.parse(await fs.readFile(path, 'utf8')))
        return parsed.success ? parsed.data : undefined
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') log.warn('cannot read notification settings', error)
        return undefined
      }
    },
    save: (settings) => writeFileAtomic(path, JSON.stringify(settings, null, 2) + '\n'),
  }
}

export async function createPermissionsService(options: PermissionsServiceOptions): Promise<PermissionsService> {
  const log = options.log ?? createLogger('permissions')
  const store = new DisposableStore()
  const settingsStore = options.settingsStore ?? fileSettingsStore(options.home, log)

  const rules = store.add(new RuleStore(options.home, log.child('rules')))
  await rules.load()
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
  store.add(broker.onDidRequest((view) => attention.requestArrived({ requestId: view.requestId, agentName: view.agentName, title: view.title, kind: 'permission' })))
  store.add(broker.onDidResolve((view) => attention.requestResolved(view.requestId)))
  if (events) store.add(rules.onDidChange((list) => events.emit('rulesChanged', { rules: [...list] })))

  const windowStateChanged = (state: { focused: boolean; visible: boolean }) => {
    reported = state
    attention.windowStateChanged({ focused: state.focused && state.visible })
  }

  const handlers: PermissionCallHandlers = {
    async respondPermission({ requestId, optionId }) {
      return broker.respond(requestId, optionId)
    },
    async listPendingPermissions() {
      return ok(broker.pending())
    },
    async listRules() {
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
        return fail({ kind: 'io-error', message: 'The notification settings could not be saved.' })
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
