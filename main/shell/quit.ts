/**
 * Quit runs through one gate: the first `before-quit` is held back, every service is disposed under one
 * deadline (agents get a graceful stop, then SIGKILL, inside `dispose`), and then the app really quits.
 */
import { app } from 'electron'
import type { Logger } from '../base/log'

export interface QuitOptions {
  dispose: () => Promise<void>
  deadlineMs?: number
  log: Logger
}

export const DEFAULT_QUIT_DEADLINE_MS = 8_000

export function installQuitHandler(options: QuitOptions): void {
  const deadlineMs = options.deadlineMs ?? DEFAULT_QUIT_DEADLINE_MS
  let state: 'running' | 'disposing' | 'done' = 'running'
  app.on('before-quit', (event) => {
    if (state === 'done') return
    event.preventDefault()
    if (state === 'disposing') return
    state = 'disposing'
    let timer: ReturnType<typeof setTimeout> | undefined
    const deadline = new Promise<'timeout'>((done) => {
      timer = setTimeout(() => done('timeout'), deadlineMs)
    })
    const disposed = options.dispose().then(
      () => 'disposed' as const,
      (error: unknown) => {
        options.log.error('dispose failed during quit', error)
        return 'failed' as const
      },
    )
    void Promise.race([disposed, deadline]).then((outcome) => {
      clearTimeout(timer)
      if (outcome === 'timeout') options.log.error(`services did not dispose within ${deadlineMs} ms; quitting anyway`)
      state = 'done'
      app.quit()
    })
  })
}
