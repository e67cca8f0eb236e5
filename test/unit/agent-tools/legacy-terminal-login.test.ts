/**
 * The older terminal login (`_meta["terminal-auth"]`, as OpenCode sends it): read only when it names the agent's own
 * configured program, and then only its args and env are taken; Bosun runs its configured program with them.
 */
import { describe, expect, it } from 'vitest'
import type { AuthMethodSummary } from '../../../main/acp/types'
import { commandLine, legacyTerminalLogin, terminalSpec } from '../../../main/agents-tools/auth-terminal'

const method = (meta: unknown, type = 'agent'): AuthMethodSummary => ({ id: 'm', name: 'Login', type, raw: { id: 'm', name: 'Login', _meta: { 'terminal-auth': meta } } })
const OPENCODE = { command: 'opencode', args: ['auth', 'login'], label: 'OpenCode Login' }

describe('legacyTerminalLogin', () => {
  it('takes the args (in place of the configured ones) when the command names the configured program, by name', () => {
    expect(legacyTerminalLogin(method(OPENCODE), 'opencode')).toEqual({ args: ['auth', 'login'], wholeArgs: true })
    expect(legacyTerminalLogin(method(OPENCODE), '/usr/local/bin/opencode')).toEqual({ args: ['auth', 'login'], wholeArgs: true })
    expect(legacyTerminalLogin(method({ ...OPENCODE, command: '/home/a/.opencode/bin/opencode' }), 'opencode')).toEqual({ args: ['auth', 'login'], wholeArgs: true })
    expect(legacyTerminalLogin(method({ ...OPENCODE, command: 'C:\\Tools\\OpenCode.exe' }), 'opencode.cmd')).toEqual({ args: ['auth', 'login'], wholeArgs: true })
    expect(legacyTerminalLogin(method({ command: 'opencode' }), 'opencode')).toEqual({ args: [], wholeArgs: true })
    expect(legacyTerminalLogin(method({ ...OPENCODE, env: { A: '1', B: 2 } }), 'opencode')).toEqual({ args: ['auth', 'login'], env: { A: '1' }, wholeArgs: true })
  })

  it('another program, a malformed entry, or a method that is not agent-driven: nothing', () => {
    expect(legacyTerminalLogin(method({ ...OPENCODE, command: 'sh' }), 'opencode')).toBeUndefined()
    expect(legacyTerminalLogin(method({ ...OPENCODE, command: '/tmp/opencode-evil' }), 'opencode')).toBeUndefined()
    // Case matters where file names do.
    expect(legacyTerminalLogin(method({ ...OPENCODE, command: 'OpenCode' }), 'opencode')).toBeUndefined()
    expect(legacyTerminalLogin(method({ ...OPENCODE, command: '' }), 'opencode')).toBeUndefined()
    expect(legacyTerminalLogin(method({ ...OPENCODE, args: 'auth login' }), 'opencode')).toBeUndefined()
    expect(legacyTerminalLogin(method({ ...OPENCODE, args: ['auth', 7] }), 'opencode')).toBeUndefined()
    expect(legacyTerminalLogin(method({ ...OPENCODE, args: Array.from({ length: 65 }, () => 'x') }), 'opencode')).toBeUndefined()
    expect(legacyTerminalLogin(method({ ...OPENCODE, args: ['x'.repeat(4097)] }), 'opencode')).toBeUndefined()
    expect(legacyTerminalLogin(method(null), 'opencode')).toBeUndefined()
    expect(legacyTerminalLogin(method(['opencode']), 'opencode')).toBeUndefined()
    expect(legacyTerminalLogin(method(OPENCODE, 'terminal'), 'opencode')).toBeUndefined()
    expect(legacyTerminalLogin({ id: 'm', name: 'Login', type: 'agent', raw: { _meta: 'terminal-auth' } }, 'opencode')).toBeUndefined()
  })

  it('runs the configured program with those args; a standard terminal method appends its args instead', () => {
    const launch = { agentId: 'o', name: 'OpenCode', command: '/usr/local/bin/opencode', args: ['acp'], env: { PATH: '/bin' }, cwd: '/w' }
    const legacy = legacyTerminalLogin(method(OPENCODE), launch.command)!
    expect(terminalSpec(launch, legacy)).toMatchObject({ command: '/usr/local/bin/opencode', args: ['auth', 'login'], env: { PATH: '/bin' } })
    expect(terminalSpec(launch, { args: ['--login'] })).toMatchObject({ command: '/usr/local/bin/opencode', args: ['acp', '--login'] })
  })
})

describe('commandLine', () => {
  it('quotes what a shell would split or expand', () => {
    expect(commandLine('opencode', ['auth', 'login'])).toBe('opencode auth login')
    expect(commandLine('node', ['/a b/agent.js', "it's", '', '$HOME', '--x=1'])).toBe(`node '/a b/agent.js' 'it'\\''s' '' '$HOME' --x=1`)
  })
})
