import { z } from 'zod'
import { absolutePath, call, id } from './define'

/**
 * Tool-call locations (issue 14 §5): a file a tool call names opens in the person's editor, through main.
 * Main checks that the session's tool calls name the path, confines it to the session's folders (symlinks
 * and `..` resolved) and opens only regular files that cannot run as a program; the renderer decides nothing.
 */
export const locationsCalls = {
  /**
   * Opens `path` with the system's default application (Electron `shell.openPath`). `line` is the tool
   * call's, kept for the record (the default application takes no line). Failures are values: `not-found`,
   * `invalid-argument` with `data.reason` (`outside-roots`, `not-a-file`, `not-a-location`, `not-openable`),
   * `unsupported` in the browser host (it cannot open a local editor: copy the path instead).
   */
  openLocation: call(
    z.object({ sessionId: id, path: absolutePath, line: z.number().int().nonnegative().max(2 ** 31).nullable().optional() }),
    z.object({ path: z.string() }),
  ),
} as const

export const locationsEvents = {} as const
