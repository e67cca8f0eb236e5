/**
 * What `terminal/create`'s `command` and `args` start (checklist G28). Many agents put a whole shell line in
 * `command` and no `args`: when that is not a program found as such, it runs through the platform's shell
 * (`/bin/sh -c`; on Windows `%ComSpec% /d /s /c`, as Node's `shell: true` does). A program is looked up as the
 * platform would: PATH on both, plus PATHEXT's extensions on Windows, where a batch file (`npx.cmd`) can only run
 * through cmd.exe. Pure apart from the file probe it is given, so both platforms are tested anywhere.
 * On Windows stdin stays the console's (nothing there is written to it either).
 */
import { posix, win32 } from 'node:path'

export interface TerminalCommand {
  file: string
  /** argv; on Windows possibly one command line already quoted for `file` (node-pty passes a string as is). */
  args: string[] | string
}

export interface CommandContext {
  platform: NodeJS.Platform
  /** The terminal's environment: PATH, and on Windows PATHEXT and ComSpec (names there in any case). */
  env: Readonly<Record<string, string | undefined>>
  /** The terminal's folder: a relative program path is found from it. */
  cwd: string
  /** Whether `path` is a file that can be run (POSIX: an executable regular file; Windows: a file). */
  isRunnable: (path: string) => boolean
}

const DEFAULT_PATHEXT = '.COM;.EXE;.BAT;.CMD'

export function terminalCommand(command: string, args: readonly string[], context: CommandContext): TerminalCommand {
  return context.platform === 'win32' ? windowsCommand(command, args, context) : posixCommand(command, args, context)
}

/**
 * On POSIX the command reads from /dev/null, as in Zed: nobody can type into an agent's terminal (Bosun's view of
 * it is read-only and ACP has no request for input), so a command that reads stdin (`read x`, a prompt, `cat`)
 * gets end-of-file at once instead of waiting until it is killed. Its output still goes to the terminal. A
 * program started as argv goes through `exec`, so it keeps the pid Bosun signals.
 */
function posixCommand(command: string, args: readonly string[], context: CommandContext): TerminalCommand {
  if (args.length === 0 && !findPosixProgram(command, context)) return { file: '/bin/sh', args: ['-c', `exec </dev/null\n${command}`] }
  return { file: '/bin/sh', args: ['-c', 'exec "$@" </dev/null', 'sh', command, ...args] }
}

/** A program path as given (from the terminal's folder), or a bare name on PATH. */
function findPosixProgram(command: string, { env, cwd, isRunnable }: CommandContext): string | undefined {
  if (command.includes('/')) {
    const path = posix.resolve(cwd, command)
    return isRunnable(path) ? path : undefined
  }
  return pathDirs(env.PATH, posix.delimiter)
    .filter((dir) => posix.isAbsolute(dir))
    .map((dir) => posix.join(dir, command))
    .find(isRunnable)
}

function windowsCommand(command: string, args: readonly string[], context: CommandContext): TerminalCommand {
  const shell = envValue(context.env, 'ComSpec') ?? 'cmd.exe'
  const program = findWindowsProgram(command, context)
  const viaShell = (line: string): TerminalCommand => ({ file: shell, args: `/d /s /c "${line}"` })
  // A shell line, or a cmd.exe built-in (`echo`, `dir`) with arguments.
  if (!program) return viaShell(args.length === 0 ? command : [command, ...args].map(quoteWindowsArg).join(' '))
  // CreateProcess starts no batch file: cmd.exe runs it, with each argument quoted.
  if (/\.(bat|cmd)$/i.test(program)) return viaShell([program, ...args].map(quoteWindowsArg).join(' '))
  return { file: program, args: [...args] }
}

/** `command` as given or with one of PATHEXT's extensions: from the terminal's folder if it names a folder, else on PATH. */
function findWindowsProgram(command: string, { env, cwd, isRunnable }: CommandContext): string | undefined {
  // Windows file names ignore case: `.EXE` finds `git.exe`.
  const extensions = (envValue(env, 'PATHEXT') ?? DEFAULT_PATHEXT).split(';').map((ext) => ext.trim().toLowerCase()).filter((ext) => ext.startsWith('.'))
  const hasExtension = extensions.some((ext) => command.toLowerCase().endsWith(ext))
  const names = [...(hasExtension ? [command] : []), ...extensions.map((ext) => command + ext)]
  const dirs = /[\\/:]/.test(command) ? [cwd] : pathDirs(envValue(env, 'PATH'), win32.delimiter).filter((dir) => win32.isAbsolute(dir))
  for (const dir of dirs) {
    const found = names.map((name) => win32.resolve(dir, name)).find(isRunnable)
    if (found) return found
  }
  return undefined
}

function pathDirs(path: string | undefined, delimiter: string): string[] {
  // Windows allows a PATH entry in quotes.
  return (path ?? '').split(delimiter).map((dir) => dir.replace(/^"(.*)"$/, '$1')).filter(Boolean)
}

/** Windows variable names are case-insensitive (`Path`, `PATH`); the exact spelling wins over another. */
function envValue(env: CommandContext['env'], name: string): string | undefined {
  if (env[name] !== undefined) return env[name]
  const key = Object.keys(env).find((k) => k.toUpperCase() === name.toUpperCase() && env[k] !== undefined)
  return key === undefined ? undefined : env[key]
}

/**
 * One argument as the C runtime splits a command line (quotes, and backslashes before a quote doubled). Inside
 * the quotes cmd.exe leaves `&`, `|`, `<`, `>` alone; it still expands `%NAME%`.
 */
export function quoteWindowsArg(arg: string): string {
  if (arg !== '' && !/[\s"]/.test(arg)) return arg
  return `"${arg.replace(/(\\*)"/g, '$1$1\\"').replace(/(\\+)$/, '$1$1')}"`
}
