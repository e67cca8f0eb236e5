/**
 * Appending to a file Bosun keeps in its home (agent logs, the permission audit, the confirmation record) without
 * trusting what is at its path: opened without blocking and written only when it is a regular file. A FIFO put there
 * would otherwise hold the append, every flush that waits for it, and Bosun's quit, until something read it.
 */
import { constants, promises as fs } from 'node:fs'

export async function appendToFile(path: string, text: string, mode = 0o600): Promise<void> {
  const handle = await fs.open(path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NONBLOCK, mode)
  try {
    if (!(await handle.stat()).isFile()) throw new Error(`${path} is not a regular file`)
    await handle.writeFile(text)
  } finally {
    await handle.close()
  }
}
