/**
 * Issue 15: registry content is untrusted. Valid entries are kept, invalid ones skipped with a reason (never
 * the whole file), strings bounded, unsafe URLs, packages, commands and environment variables refused.
 */
import { describe, expect, it } from 'vitest'
import { compareVersions, currentPlatformTarget, normaliseCmd, parseRegistry, safeDownloadUrl } from '../../../main/registry/registry-schema'
import { DEFAULT_REGISTRY_URL, defaultRegistryUrl } from '../../../main/registry/registry-client'

const base = 'https://cdn.example.org/registry/v1/latest/registry.json'
const entry = (over: Record<string, unknown> = {}) => ({
  id: 'good',
  name: 'Good',
  version: '1.2.3',
  description: 'A good agent',
  distribution: { npx: { package: '@acme/good@1.2.3', args: ['--acp'] } },
  ...over,
})
const parse = (agents: unknown[]) => {
  const result = parseRegistry(JSON.stringify({ version: '1.0.0', agents, extensions: [] }), base)
  if (!result.ok) throw new Error(result.message)
  return result.value
}

describe('parseRegistry', () => {
  it('reads the documented format, ignoring unknown fields and platforms, resolving a relative icon', () => {
    const { agents, skipped } = parse([
      entry({
        authors: ['A', ' ', 'B'],
        license: 'MIT',
        icon: 'good.svg',
        repository: 'https://github.com/acme/good',
        futureField: { x: 1 },
        distribution: {
          npx: { package: '@acme/good@1.2.3', args: ['--acp'], env: { GOOD_MODE: '1' } },
          binary: {
            'linux-x86_64': { archive: 'https://dl.example.org/good.tar.gz', cmd: './bin/good', sha256: 'A'.repeat(64) },
            'plan9-mips': { archive: 'https://dl.example.org/x', cmd: 'x' },
          },
          somethingNew: {},
        },
      }),
    ])
    expect(skipped).toEqual([])
    expect(agents[0]).toEqual({
      id: 'good',
      name: 'Good',
      version: '1.2.3',
      description: 'A good agent',
      authors: ['A', 'B'],
      license: 'MIT',
      repository: 'https://github.com/acme/good',
      icon: 'https://cdn.example.org/registry/v1/latest/good.svg',
      distribution: {
        npx: { package: '@acme/good@1.2.3', args: ['--acp'], env: { GOOD_MODE: '1' } },
        binary: { 'linux-x86_64': { archive: 'https://dl.example.org/good.tar.gz', cmd: 'bin/good', args: [], env: {}, sha256: 'a'.repeat(64) } },
      },
    })
  })

  it('skips bad entries with a reason and keeps the rest', () => {
    const { agents, skipped } = parse([
      entry({ id: '../evil' }),
      entry({ id: 'noversion', version: '../../1' }),
      entry({ id: 'dup' }),
      entry({ id: 'dup' }),
      entry({ id: 'optpkg', distribution: { npx: { package: '--registry=https://evil.example' } } }),
      entry({ id: 'httpbin', distribution: { binary: { 'linux-x86_64': { archive: 'http://evil.example/x.tar.gz', cmd: 'x' } } } }),
      entry({ id: 'abscmd', distribution: { binary: { 'linux-x86_64': { archive: 'https://ok.example/x.tar.gz', cmd: '/bin/sh' } } } }),
      'not an object',
      entry({ id: 'fine' }),
    ])
    expect(agents.map((a) => a.id)).toEqual(['dup', 'fine'])
    expect(skipped.map((s) => [s.id, s.reason.split(':')[0]])).toEqual([
      ['../evil', 'id'],
      ['noversion', 'version'],
      ['dup', 'duplicate id'],
      ['optpkg', 'no usable distribution'],
      ['httpbin', 'no usable distribution'],
      ['abscmd', 'no usable distribution'],
      [undefined, 'entry'],
    ])
  })

  it('drops variables that change how programs load, and unsafe links', () => {
    const [agent] = parse([
      entry({
        repository: 'javascript:alert(1)',
        icon: 'data:image/svg+xml,<svg onload=alert(1)>',
        distribution: { npx: { package: 'good', env: { LD_PRELOAD: '/tmp/x.so', NODE_OPTIONS: '--require x', PATH: '/tmp', 'BAD NAME': '1', OK: 'yes' } } },
      }),
    ]).agents
    expect(agent!.distribution.npx!.env).toEqual({ OK: 'yes' })
    expect(agent!.repository).toBeUndefined()
    expect(agent!.icon).toBeUndefined()
  })

  it('refuses a file that is not a registry, too large, or not JSON', () => {
    expect(parseRegistry('{', base)).toMatchObject({ ok: false, message: expect.stringMatching(/not valid JSON/) })
    expect(parseRegistry('{"version":"1.0.0"}', base)).toMatchObject({ ok: false, message: expect.stringMatching(/no "agents"/) })
    expect(parseRegistry(' '.repeat(5 * 1024 * 1024), base)).toMatchObject({ ok: false, message: expect.stringMatching(/larger than/) })
  })

  it('bounds texts', () => {
    const { agents, skipped } = parse([entry({ description: 'x'.repeat(5000) })])
    expect(agents).toEqual([])
    expect(skipped[0]!.reason).toMatch(/description/)
  })
})

describe('helpers', () => {
  it('normaliseCmd keeps a command inside its archive', () => {
    expect(normaliseCmd('./codex-acp')).toBe('codex-acp')
    expect(normaliseCmd('bin\\agent.exe')).toBe('bin/agent.exe')
    expect(normaliseCmd('../x')).toBeNull()
    expect(normaliseCmd('/bin/sh')).toBeNull()
    expect(normaliseCmd('C:\\x.exe')).toBeNull()
    expect(normaliseCmd('./')).toBeNull()
  })

  it('safeDownloadUrl allows https, and http only on loopback', () => {
    expect(safeDownloadUrl('https://x.example/a')).toBe('https://x.example/a')
    expect(safeDownloadUrl('http://127.0.0.1:9/a')).toBe('http://127.0.0.1:9/a')
    expect(safeDownloadUrl('http://[::1]:9/a')).toBe('http://[::1]:9/a')
    expect(safeDownloadUrl('http://x.example/a')).toBeNull()
    expect(safeDownloadUrl('file:///etc/passwd')).toBeNull()
    expect(safeDownloadUrl('https://user:pw@x.example/a')).toBeNull()
  })

  it('compareVersions orders semantic versions', () => {
    expect(compareVersions('1.10.0', '1.9.9')).toBeGreaterThan(0)
    expect(compareVersions('1.0.0', '1.0.0')).toBe(0)
    expect(compareVersions('1.0.0-beta.1', '1.0.0')).toBeLessThan(0)
    expect(compareVersions('0.9.2', '0.27.3')).toBeLessThan(0)
  })

  it('currentPlatformTarget maps OS and CPU to registry keys', () => {
    expect(currentPlatformTarget('linux', 'x64')).toBe('linux-x86_64')
    expect(currentPlatformTarget('darwin', 'arm64')).toBe('darwin-aarch64')
    expect(currentPlatformTarget('win32', 'arm64')).toBe('windows-aarch64')
    expect(currentPlatformTarget('freebsd', 'x64')).toBeNull()
    expect(currentPlatformTarget('linux', 'ia32')).toBeNull()
  })
})

describe('the default registry', () => {
  it('is the official one unless BOSUN_REGISTRY_URL names another safe address', () => {
    const saved = process.env.BOSUN_REGISTRY_URL
    try {
      delete process.env.BOSUN_REGISTRY_URL
      expect(defaultRegistryUrl()).toBe(DEFAULT_REGISTRY_URL)
      process.env.BOSUN_REGISTRY_URL = 'http://127.0.0.1:9/registry.json'
      expect(defaultRegistryUrl()).toBe('http://127.0.0.1:9/registry.json')
      // Plain http to another machine is refused here as everywhere: the official one stays.
      process.env.BOSUN_REGISTRY_URL = 'http://example.com/registry.json'
      expect(defaultRegistryUrl()).toBe(DEFAULT_REGISTRY_URL)
    } finally {
      if (saved === undefined) delete process.env.BOSUN_REGISTRY_URL
      else process.env.BOSUN_REGISTRY_URL = saved
    }
  })
})
