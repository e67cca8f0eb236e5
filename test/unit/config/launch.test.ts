import { describe, expect, it } from 'vitest'
import type { AgentDefinition } from '../../../main/config/agent-definitions'
import { resolveLaunch, scrubEnv } from '../../../main/config/launch'
import { launchIdentityHash } from '../../../main/trust/launch-trust'

/** What an agent may inherit: the allow-list and the LC_/XDG_ prefixes. */
const allowed: NodeJS.ProcessEnv = {
  PATH: '/usr/bin:/bin',
  HOME: '/home/ada',
  USER: 'ada',
  LANG: 'en_GB.UTF-8',
  LC_ALL: 'en_GB.UTF-8',
  TERM: 'xterm-256color',
  SHELL: '/bin/zsh',
  TMPDIR: '/tmp',
  XDG_RUNTIME_DIR: '/run/user/1000',
  XDG_CONFIG_HOME: '/home/ada/.config',
  HTTPS_PROXY: 'http://proxy:3128',
}
const base: NodeJS.ProcessEnv = {
  ...allowed,
  // Everything below must not reach an agent.
  ANTHROPIC_API_KEY: 'sk-ant-bosuns-own',
  OPENAI_API_KEY: 'sk-openai-bosuns-own',
  GITHUB_TOKEN: 'ghp_unrelated',
  AWS_SECRET_ACCESS_KEY: 'aws-secret',
  BOSUN_HOME: '/home/ada/.bosun',
  ELECTRON_RUN_AS_NODE: '1',
  NODE_OPTIONS: '--require /evil.js',
  npm_config_token: 'npm-token',
  MY_PATH: '/not/allowed',
}

const agent = (over: Partial<AgentDefinition> = {}): AgentDefinition => ({
  id: 'a-1',
  name: 'A',
  command: 'npx',
  args: ['-y', 'pkg'],
  env: {},
  secretEnv: [],
  ...over,
})

describe('scrubEnv', () => {
  it('keeps only the allow-list and the LC_/XDG_ prefixes', () => {
    expect(scrubEnv(base, 'linux')).toEqual(allowed)
  })

  it('matches Windows names case-insensitively, and only on Windows', () => {
    const env = { Path: 'C:\\Windows', SYSTEMROOT: 'C:\\Windows', GH_TOKEN: 'x' }
    expect(scrubEnv(env, 'win32')).toEqual({ Path: 'C:\\Windows', SYSTEMROOT: 'C:\\Windows' })
    expect(scrubEnv(env, 'linux')).toEqual({})
  })
})

describe('resolveLaunch', () => {
  it('builds the complete env: scrubbed base, then plain env, then this agent’s secrets', () => {
    const def = agent({ env: { LANG: 'C', GOOSE_PROVIDER: 'anthropic' }, secretEnv: ['ANTHROPIC_API_KEY'], defaultCwd: '/work' })
    const spec = resolveLaunch(def, { ANTHROPIC_API_KEY: 'sk-ant-agent-a' }, base, 'linux')
    expect(spec).toEqual({
      command: 'npx',
      args: ['-y', 'pkg'],
      cwd: '/work',
      env: { ...scrubEnv(base, 'linux'), LANG: 'C', GOOSE_PROVIDER: 'anthropic', ANTHROPIC_API_KEY: 'sk-ant-agent-a' },
      // What runs, without the secret values: a running agent's view compares it with the saved definition.
      launchIdentity: launchIdentityHash(def),
    })
  })

  it('never passes Bosun’s own secrets, even for an agent wanting the same name that has none set', () => {
    const spec = resolveLaunch(agent({ secretEnv: ['ANTHROPIC_API_KEY'] }), {}, base, 'linux')
    expect(spec.env.ANTHROPIC_API_KEY).toBeUndefined()
    const values = Object.values(spec.env)
    for (const leaked of ['sk-ant-bosuns-own', 'sk-openai-bosuns-own', 'ghp_unrelated', 'aws-secret', 'npm-token', '--require /evil.js'])
      expect(values).not.toContain(leaked)
  })

  it('uses only secrets the definition names', () => {
    const spec = resolveLaunch(agent({ secretEnv: ['A_KEY'] }), { A_KEY: 'mine', B_KEY: 'someone-elses' }, base, 'linux')
    expect(spec.env.A_KEY).toBe('mine')
    expect(spec.env.B_KEY).toBeUndefined()
  })

  it('starts in HOME without a default folder, and copies args', () => {
    const def = agent()
    const spec = resolveLaunch(def, {}, base, 'linux')
    expect(spec.cwd).toBe('/home/ada')
    spec.args.push('mutated')
    expect(def.args).toEqual(['-y', 'pkg'])
  })
})
