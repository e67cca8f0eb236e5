/**
 * Opening a tool call's location (issue 14 §5) in the person's editor. The renderer only names a session
 * and a path; main decides: the session's tool calls must name that path (a compromised renderer cannot
 * open any file it likes), the path is confined to the session's folders exactly as the agent's file
 * requests are (`realpath`, symlinks, `..`), and only a regular file that cannot run as a program when
 * opened goes to the shell (`shell.openPath` would launch an executable, a `.desktop` or a `.bat` file).
 */
import { promises as fs } from 'node:fs'
import { extname } from 'node:path'
import { fail, ok, type Failure, type Result } from '../base/errors'
import type { Logger } from '../base/log'
import type { CallHandlers } from '../../common/contract'
import type { Entry } from '../../common/session/types'
import { confinePath } from '../fs/confine'
import { createBurstLimit } from '../base/burst-limit'

export interface LocationsDeps {
  /** The session's folders (cwd first) and the paths its tool calls name; undefined for an unknown session. */
  session(sessionId: string): { roots: string[]; locationPaths(): Iterable<string> } | undefined
  /**
   * Opens a file with the system's default application and resolves to an error message, `''` on success
   * (Electron `shell.openPath`). Absent: this host cannot (the browser host).
   */
  openPath?: ((path: string) => Promise<string>) | undefined
  log?: Logger
  /** Which platform's launchers to refuse (default: this one). */
  platform?: NodeJS.Platform
  /** The clock of the open bound (tests). */
  now?: () => number
}

/** Files opened in a burst, at most; then one more every {@link OPEN_REFILL_MS} (as addresses: `open-external.ts`). */
export const OPEN_BURST = 5
export const OPEN_REFILL_MS = 2_000

export type LocationsCallHandlers = Pick<CallHandlers, 'openLocation'>

/**
 * Extensions the platform's default handler runs instead of showing (beyond the executable bit):
 * Windows by `PATHEXT` and script hosts (`.js` runs in WSH there), macOS bundles and shell documents,
 * Linux desktop launchers and AppImages.
 */
const LAUNCHERS: Partial<Record<NodeJS.Platform, ReadonlySet<string>>> = {
  win32: new Set([
    '.exe', '.com', '.bat', '.cmd', '.ps1', '.psm1', '.vbs', '.vbe', '.js', '.jse', '.wsf', '.wsh', '.msc', '.msi',
    '.msp', '.scr', '.pif', '.lnk', '.url', '.reg', '.hta', '.cpl', '.jar', '.appref-ms', '.application', '.settingcontent-ms',
  ]),
  darwin: new Set(['.app', '.command', '.tool', '.terminal', '.webloc', '.inetloc', '.fileloc', '.workflow', '.action', '.pkg', '.mpkg', '.scpt', '.jar']),
  linux: new Set(['.desktop', '.appimage', '.jar']),
}

const refused = (reason: string, message: string): Result<never> => fail({ kind: 'invalid-argument', message, data: { reason } })

export function createLocationsService(deps: LocationsDeps): { handlers: LocationsCallHandlers } {
  const platform = deps.platform ?? process.platform
  const launchers = LAUNCHERS[platform] ?? new Set<string>()
  const opens = createBurstLimit(OPEN_BURST, OPEN_REFILL_MS, deps.now)
  return {
    handlers: {
      openLocation: async ({ sessionId, path }) => {
        const session = deps.session(sessionId)
        if (!session) return fail({ kind: 'not-found', message: `No session ${sessionId}.` })
        if (!named(session.locationPaths(), path)) {
          return refused('not-a-location', 'Bosun opens only files that a tool call of this session names.')
        }
        const openPath = deps.openPath
        if (!openPath) return fail({ kind: 'unsupported', message: 'The browser cannot open files in your editor. Copy the path instead.' })
        const confined = await confinePath(path, session.roots)
        if (!confined.ok) return refused(confined.reason, confined.message)
        if (!confined.exists) return fail({ kind: 'not-found', message: `${path} does not exist.` })
        let stat
        try {
          stat = await fs.stat(confined.realPath)
        } catch (error) {
          return fail(ioFailure(error, path))
        }
        if (!stat.isFile()) return refused('not-a-file', `${path} is not a file; Bosun opens files only.`)
        if ((platform !== 'win32' && (stat.mode & 0o111) !== 0) || launchers.has(extname(confined.realPath).toLowerCase())) {
          return refused('not-openable', `${path} could run as a program when opened, so Bosun does not open it. Copy the path instead.`)
        }
        if (!opens.take()) return fail({ kind: 'busy', message: 'Bosun opened several files just now; wait a moment, then open this one again.' })
        const problem = await openPath(confined.realPath).catch((error: unknown) => (error instanceof Error ? error.message : String(error)))
        if (problem) {
          deps.log?.warn(`could not open ${confined.realPath}: ${problem}`)
          return fail({ kind: 'io-error', message: `Could not open ${path}: ${problem}` })
        }
        deps.log?.info(`opened ${confined.realPath}`)
        return ok({ path: confined.realPath })
      },
    },
  }
}

function named(paths: Iterable<string>, path: string): boolean {
  for (const candidate of paths) if (candidate === path) return true
  return false
}

function ioFailure(error: unknown, path: string): Failure {
  const code = (error as { code?: string } | undefined)?.code
  if (code === 'ENOENT') return { kind: 'not-found', message: `${path} does not exist.` }
  return { kind: 'io-error', message: `${path}: ${error instanceof Error ? error.message : String(error)}` }
}

/** Every path the tool calls of `entries` name, newest first (what {@link LocationsDeps.session} lists). */
export function* locationPathsOf(entries: readonly Entry[]): Iterable<string> {
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i]!
    if (entry.kind === 'tool_call') for (const location of entry.locations) yield location.path
  }
}
