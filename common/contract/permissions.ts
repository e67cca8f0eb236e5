import { z } from 'zod'
import { absolutePath, call, event, id } from './define'
import { permissionRequestViewShape } from './shapes'

/**
 * Calls and events of the permissions domain: answering permission requests, remembered decisions
 * ("always allow/reject" rules), the per-session auto-approve switch and attention (notifications, badge).
 *
 * Every input schema is strict: main parses the renderer's argument from unknown and refuses extra keys.
 */

/** How a remembered decision narrows what it matches. `prefix` matches whole leading words only (see rules.ts). */
export const commandPatternSchema = z
  .object({
    type: z.enum(['exact', 'prefix']),
    value: z.string().min(1).max(8192),
  })
  .strict()

/** A path pattern: `exact` (one file) or `under` (a folder and everything below it, at segment boundaries). */
export const pathPatternSchema = z
  .object({
    type: z.enum(['exact', 'under']),
    value: z.string().min(1).max(4096),
  })
  .strict()

/**
 * A remembered decision: agent × working folder × tool kind, plus the command or paths where there were
 * some. `decision` is the option kind Bosun picks among the offered options of the next matching request.
 */
export const permissionRuleSchema = z
  .object({
    ruleId: id,
    agentId: id,
    /** Display name of the agent when the rule was made. */
    agentName: z.string().max(512),
    /** The session's working folder. */
    cwd: absolutePath,
    /** ACP tool kind (`edit`, `execute`, …), or the unknown kind as sent; `null` when the request had none. */
    toolKind: z.string().max(256).nullable(),
    decision: z.enum(['allow_always', 'reject_always']),
    command: commandPatternSchema.nullable(),
    paths: z.array(pathPatternSchema).max(64).nullable(),
    /**
     * Format 2 (issue 10): the rule stores the identity of what was approved, per kind of subject. Rules
     * without it are migrated (or retired) when loaded.
     */
    format: z.literal(2).optional(),
    /** An exact argv (the agent sent an array); `command` is then null. */
    argv: z.array(z.string().max(8192)).min(1).max(256).nullable().optional(),
    /** The command's working folder; absent = the rule's `cwd`. */
    workdir: absolutePath.nullable().optional(),
    /** A fetch's origin (`https://host:port`), or the whole URL for other schemes. */
    origin: z.string().min(1).max(8192).nullable().optional(),
    /** Any other tool: its own name and title (`null` where the agent gave none). */
    tool: z.object({ name: z.string().max(1024).nullable(), title: z.string().max(1024).nullable() }).strict().nullable().optional(),
    /** Raw-input fields Bosun does not understand: a request must repeat them exactly (hash of their JSON). */
    extras: z.object({ digest: z.string().regex(/^[0-9a-f]{64}$/), keys: z.array(z.string().max(256)).max(64) }).strict().nullable().optional(),
    /** Kept only for this Bosun session (not written to disk): nothing told this request apart from others. */
    sessionId: z.string().min(1).max(512).nullable().optional(),
    /** A rule of an older format that would now cover more than was approved: kept to be seen, never applied. */
    retired: z.object({ reason: z.string().max(1024) }).strict().nullable().optional(),
    /** Human description shown in settings and in the transcript ("allowed by rule …"). */
    label: z.string().max(1024),
    /** Epoch ms. */
    createdAt: z.number().int().nonnegative(),
  })
  .strict()
export type PermissionRule = z.infer<typeof permissionRuleSchema>

export const notificationSettingsSchema = z
  .object({
    /** Notify about waiting approvals while the window is not focused. */
    enabled: z.boolean(),
    /** Also notify when a turn ends while the window is not focused. */
    notifyOnTurnEnd: z.boolean(),
  })
  .strict()
export type NotificationSettings = z.infer<typeof notificationSettingsSchema>

export const defaultNotificationSettings: NotificationSettings = { enabled: true, notifyOnTurnEnd: false }

/** The longest option id a window can answer with; main refuses a request offering a longer one (it could not be chosen). */
export const MAX_PERMISSION_OPTION_ID_CHARS = 1024

export const permissionsCalls = {
  /** Answer a pending request: an offered `optionId`, or `null` to dismiss (answered `cancelled`). */
  respondPermission: call(
    z.object({ requestId: id, optionId: z.string().min(1).max(MAX_PERMISSION_OPTION_ID_CHARS).nullable() }).strict(),
    z.undefined(),
  ),
  /** Every pending permission request of every session, oldest first. */
  listPendingPermissions: call(z.undefined(), z.array(permissionRequestViewShape)),
  listRules: call(z.undefined(), z.array(permissionRuleSchema)),
  revokeRule: call(z.object({ ruleId: id }).strict(), z.undefined()),
  /** Per-session auto-approve (off by default): picks `allow_once` when offered, never unknown kinds. */
  setAutoApprove: call(z.object({ sessionId: id, value: z.boolean() }).strict(), z.undefined()),
  getNotificationSettings: call(z.undefined(), notificationSettingsSchema),
  /** Partial update; answers the settings now in force. */
  setNotificationSettings: call(notificationSettingsSchema.partial().strict(), notificationSettingsSchema),
  /** The browser host's page reports its focus/visibility (Electron knows it from the window). */
  reportWindowState: call(z.object({ focused: z.boolean(), visible: z.boolean() }).strict(), z.undefined()),
} as const

export const permissionsEvents = {
  /** The browser host's page shows this as a Web Notification (Electron shows an OS notification instead). */
  notify: event(
    z.object({
      title: z.string().max(512),
      body: z.string().max(4096),
      /** Clicking opens this request… */
      requestId: z.string().optional(),
      /** …or this session ("turn ended"). */
      sessionId: z.string().optional(),
    }),
  ),
  /**
   * The page's notification carrying this `requestId` names no request that still waits (answered, withdrawn, its
   * session or agent gone): the page closes it (Electron closes its OS notification itself).
   */
  notificationWithdrawn: event(z.object({ requestId: z.string() })),
  /** Count of requests waiting for the person (app badge / tab title). */
  badge: event(z.object({ count: z.number().int().nonnegative() })),
  rulesChanged: event(z.object({ rules: z.array(permissionRuleSchema) })),
  /** Main asks the renderer to show a session, e.g. after a "turn ended" notification click (Electron). */
  focusSession: event(z.object({ sessionId: z.string() })),
} as const
