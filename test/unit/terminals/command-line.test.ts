import { describe, expect, it } from 'vitest'
import { quoteWindowsArg, terminalCommand, type CommandContext } from '../../../main/terminals/command-line'

/** A context whose file system holds exactly `files` (names in any case on Windows, as there). */
const on = (platform: NodeJS.Platform, env: Record<string, string>, cwd: string, files: string[]): CommandContext => ({
  platform,
  env,
  cwd,
  isRunnable: (path) => files.some((file) => (platform === 'win32' ? file.toLowerCase() === path.toLowerCase() : file === path)),
})

describe('terminalCommand on POSIX', () => {
  const linux = on('linux', { PATH: '/usr/local/bin:/usr/bin:relative/bin' }, '/work/app', ['/usr/bin/git', '/work/app/scripts/build.sh', '/work/app/relative/bin/evil'])

  /** How the shell runs a line, and execs a program, with stdin at its end. */
  const line = (text: string) => ({ file: '/bin/sh', args: ['-c', `exec </dev/null\n${text}`] })
  const argv = (...args: string[]) => ({ file: '/bin/sh', args: ['-c', 'exec "$@" </dev/null', 'sh', ...args] })

  it('a shell line, or a name found nowhere, runs through /bin/sh -c', () => {
    expect(terminalCommand('echo hi && echo there', [], linux)).toEqual(line('echo hi && echo there'))
    expect(terminalCommand('nosuch', [], linux)).toEqual(line('nosuch'))
  })

  it('a program on PATH, or a path from the terminal’s folder, starts as argv', () => {
    expect(terminalCommand('git', [], linux)).toEqual(argv('git'))
    expect(terminalCommand('./scripts/build.sh', [], linux)).toEqual(argv('./scripts/build.sh'))
    expect(terminalCommand('git', ['log', '--oneline'], linux)).toEqual(argv('git', 'log', '--oneline'))
  })

  it('a relative PATH entry is not searched', () => {
    expect(terminalCommand('evil', [], linux)).toEqual(line('evil'))
  })

  it('never uses cmd.exe, whatever the environment says', () => {
    expect(terminalCommand('dir', [], on('darwin', { ComSpec: 'C:\\Windows\\system32\\cmd.exe', PATH: '/usr/bin' }, '/w', []))).toEqual(line('dir'))
  })
})

describe('terminalCommand on Windows', () => {
  const env = { ComSpec: 'C:\\Windows\\system32\\cmd.exe', Path: 'C:\\Windows\\system32;"C:\\Program Files\\nodejs";C:\\Program Files\\Git\\cmd', PATHEXT: '.COM;.EXE;.BAT;.CMD' }
  const files = ['C:\\Program Files\\Git\\cmd\\git.exe', 'C:\\Program Files\\nodejs\\npx.cmd', 'C:\\work\\app\\tools\\run.exe', 'C:\\work\\app\\git.exe']
  const windows = on('win32', env, 'C:\\work\\app', files)

  it('a shell line runs through %ComSpec% /d /s /c, the line inside one pair of quotes', () => {
    expect(terminalCommand('echo hi && echo there', [], windows)).toEqual({ file: 'C:\\Windows\\system32\\cmd.exe', args: '/d /s /c "echo hi && echo there"' })
  })

  it('without ComSpec, cmd.exe', () => {
    expect(terminalCommand('dir /b', [], on('win32', { PATH: 'C:\\Windows\\system32' }, 'C:\\w', []))).toEqual({ file: 'cmd.exe', args: '/d /s /c "dir /b"' })
  })

  it('a bare name is found on PATH with PATHEXT’s extensions (names of variables in any case), not in the terminal’s folder', () => {
    expect(terminalCommand('git', ['status'], windows)).toEqual({ file: 'C:\\Program Files\\Git\\cmd\\git.exe', args: ['status'] })
    expect(terminalCommand('git.exe', [], windows)).toEqual({ file: 'C:\\Program Files\\Git\\cmd\\git.exe', args: [] })
    expect(terminalCommand('GIT', [], on('win32', { PATH: env.Path, pathext: '.EXE' }, 'C:\\w', files))).toEqual({ file: 'C:\\Program Files\\Git\\cmd\\GIT.exe', args: [] })
  })

  it('a path is found from the terminal’s folder', () => {
    expect(terminalCommand('tools\\run', ['-v'], windows)).toEqual({ file: 'C:\\work\\app\\tools\\run.exe', args: ['-v'] })
    expect(terminalCommand('.\\tools\\run.exe', [], windows)).toEqual({ file: 'C:\\work\\app\\tools\\run.exe', args: [] })
  })

  it('a batch file runs through cmd.exe with its arguments quoted', () => {
    expect(terminalCommand('npx', ['tsc', '--outDir', 'out dir'], windows)).toEqual({
      file: 'C:\\Windows\\system32\\cmd.exe',
      args: '/d /s /c ""C:\\Program Files\\nodejs\\npx.cmd" tsc --outDir "out dir""',
    })
  })

  it('a cmd.exe built-in with arguments runs through cmd.exe', () => {
    expect(terminalCommand('echo', ['a & b'], windows)).toEqual({ file: 'C:\\Windows\\system32\\cmd.exe', args: '/d /s /c "echo "a & b""' })
  })

  it('without PATHEXT, .COM .EXE .BAT .CMD', () => {
    expect(terminalCommand('npx', [], on('win32', { PATH: 'C:\\Program Files\\nodejs' }, 'C:\\w', files))).toEqual({ file: 'cmd.exe', args: '/d /s /c ""C:\\Program Files\\nodejs\\npx.cmd""' })
  })
})

describe('quoteWindowsArg', () => {
  it('quotes what the C runtime would split, doubling backslashes before a quote', () => {
    expect(quoteWindowsArg('plain')).toBe('plain')
    expect(quoteWindowsArg('')).toBe('""')
    expect(quoteWindowsArg('two words')).toBe('"two words"')
    expect(quoteWindowsArg('say "hi"')).toBe('"say \\"hi\\""')
    expect(quoteWindowsArg('C:\\dir with space\\')).toBe('"C:\\dir with space\\\\"')
    expect(quoteWindowsArg('a\\"b')).toBe('"a\\\\\\"b"')
  })
})
