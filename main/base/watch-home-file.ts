/**
 * One file in a folder, watched for other programs' edits (a hand edit, another Bosun): the folder is watched, since
 * an atomic write replaces the file and a watch on the file itself would go blind. `reload` runs 100 ms after the
 * file's last event. Where the folder cannot be watched (no inotify instance left, a file system without events, a
 * watch that fails later) `onBlind` is told once and `reload` runs every `pollMs` instead. Disposing ends all of it.
 */
import { watch, type FSWatcher } from 'node:fs'
import { toDisposable, type IDisposable } from './lifecycle'

/** How often a file is read when its folder cannot be watched. */
export const BLIND_POLL_MS = 2_000

export function watchHomeFile(options: {
  folder: string
  fileName: string
  reload: () => void
  onBlind: (error: unknown) => void
  pollMs?: number
}): IDisposable {
  const { folder, fileName, reload, onBlind, pollMs = BLIND_POLL_MS } = options
  let timer: ReturnType<typeof setTimeout> | undefined
  let poll: ReturnType<typeof setInterval> | undefined
  let watcher: FSWatcher | undefined
  let told = false
  let disposed = false
  const blind = (error: unknown) => {
    watcher?.close()
    watcher = undefined
    if (!poll && !disposed) {
      poll = setInterval(reload, pollMs)
      poll.unref?.()
    }
    if (told) return
    told = true
    onBlind(error)
  }
  try {
    watcher = watch(folder, { persistent: false }, (_event, name) => {
      if (name !== null && name !== fileName) return
      clearTimeout(timer)
      timer = setTimeout(reload, 100)
    })
    watcher.on('error', blind)
  } catch (error) {
    blind(error)
  }
  return toDisposable(() => {
    disposed = true
    clearTimeout(timer)
    clearInterval(poll)
    watcher?.close()
  })
}
