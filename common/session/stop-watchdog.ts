/**
 * The Stop watchdog's notice (issue 13): main adds it when an agent has not ended the turn a few seconds
 * after Stop; the session screen then offers "Stop the agent". Shared so both sides agree on it.
 */
export const STOP_OVERDUE_TITLE = 'The agent has not stopped'

/**
 * Marks a notice update as Bosun's own (main sets it; main removes it from every agent update, since `notice` is
 * an ACP update an agent may send with any title). The reducer keeps it as `fromBosun` on the notice.
 */
export const FROM_BOSUN = 'fromBosun'

/** Whether a notice (or a notice update) is the Stop watchdog's, and not an agent's that looks like it. */
export function isStopOverdueNotice(notice: { title?: unknown; fromBosun?: unknown }): boolean {
  return notice.fromBosun === true && notice.title === STOP_OVERDUE_TITLE
}

/**
 * Main's notice that the agent reads none of its input (its pipe full of Bosun's bytes for a few seconds): what the
 * person sends, Stop included, waits there. Taken back once it reads again; the session screen offers a restart.
 */
export const INPUT_STALL_TITLE = 'The agent is not reading its input'

/** Whether a notice is main's {@link INPUT_STALL_TITLE}, and not an agent's that looks like it. */
export function isInputStallNotice(notice: { title?: unknown; fromBosun?: unknown }): boolean {
  return notice.fromBosun === true && notice.title === INPUT_STALL_TITLE
}

/**
 * A notice of Bosun's own, as a session update: the window draws it as Bosun's words, where an agent's notice (any
 * title it likes: "Bosun: auto-approve is on") is drawn as the agent's.
 */
export function bosunNotice(severity: 'info' | 'warning' | 'error', title: string, description: string): { sessionUpdate: 'notice'; fromBosun: true; severity: 'info' | 'warning' | 'error'; title: string; description: string } {
  return { sessionUpdate: 'notice', [FROM_BOSUN]: true, severity, title, description }
}
