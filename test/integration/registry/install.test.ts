/**
 * Issue 15, the registry installer against a fixture registry on loopback with real archives: good ones
 * (tar.gz and zip) install and start, bad ones (checksum, `../`, absolute paths, links out, devices, an
 * oversized archive) are refused with the reason and nothing is written outside the agent's folder;
 * update in place keeps the person's settings; uninstall removes the files; cancel stops a download.
 */
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createAgentConfigService, type AgentConfigService } from '../../../main/config/agent-config-service'
import { RecordingConfirmation } from '../../support/confirmations'
import { createMemoryLogger } from '../../../main/base/log'
import { RegistryInstaller, type InstallProgress } from '../../../main/registry/installer'
import { RegistryClient } from '../../../main/registry/registry-client'
import type { RegistryAgent } from '../../../main/registry/registry-schema'
import { agentScript, binaryEntry, makeTarGz, makeZip, sha256, startFixtureRegistry, type ArchiveEntry, type FixtureRegistry } from '../../support/fixture-registry'
import { must } from '../../support/must'
import { createMemorySecretStore } from '../../unit/secrets/memory-secret-store'

let root: string
let home: string
let registry: FixtureRegistry
let config: AgentConfigService
let installer: RegistryInstaller
let confirmation: RecordingConfirmation
let client: RegistryClient
let progress: InstallProgress[]
/** Called with each progress report (await one without polling). */
let onProgress: ((p: InstallProgress) => void) | undefined

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'bosun-registry-'))
  home = join(root, 'home')
  registry = await startFixtureRegistry()
  // The person confirms the new definition in main's dialog (the trust merge: a registry agent is asked about like any other).
  confirmation = new RecordingConfirmation()
  config = await createAgentConfigService({ home, secretStore: createMemorySecretStore(), baseEnv: { PATH: process.env.PATH ?? '' }, confirmation })
  progress = []
  onProgress = undefined
  installer = new RegistryInstaller({
    home,
    config,
    baseEnv: { PATH: process.env.PATH ?? '' },
    logger: createMemoryLogger(),
    extractLimits: { maxBytes: 1024 * 1024, maxEntries: 50 },
    maxDownloadBytes: 512 * 1024,
    onProgress: (p) => {
      progress.push(p)
      onProgress?.(p)
    },
  })
  client = new RegistryClient({ home })
  expect(await client.setUrl(registry.url)).toEqual({ ok: true, url: registry.url })
})

afterEach(async () => {
  config.dispose()
  await registry.close()
  rmSync(root, { recursive: true, force: true })
})

const goodEntries = (): ArchiveEntry[] => [
  { path: 'bin/', type: 'dir' },
  // No executable bit in the archive: the installer sets it.
  { path: 'bin/agent', body: agentScript(), mode: 0o644 },
  { path: 'README.txt', body: 'a test agent' },
]

/** Serves `archive` and a registry listing it; returns the parsed entry. */
async function publish(id: string, version: string, archive: Buffer, options: Parameters<typeof binaryEntry>[3] = {}, ext = 'tar.gz'): Promise<RegistryAgent> {
  const path = `/dl/${id}-${version}.${ext}`
  registry.put(path, archive)
  registry.setRegistry({ version: '1.0.0', agents: [binaryEntry(id, version, registry.origin + path, options)], extensions: [] })
  const loaded = await client.load({ refresh: true })
  if (!loaded.ok) throw new Error(loaded.message)
  return loaded.value.agents.find((a) => a.id === id)!
}

/** Every path under `root` except the agent's own folder and the registry's bookkeeping. */
function outside(agentId: string): string[] {
  const out: string[] = []
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name)
      const rel = relative(root, path)
      if (rel === join('home', 'agents', agentId) || rel.startsWith(join('home', 'registry'))) continue
      out.push(rel)
      if (statSync(path, { throwIfNoEntry: false })?.isDirectory()) walk(path)
    }
  }
  walk(root)
  return out.sort()
}

describe('installing a binary distribution', () => {
  it.each([
    ['tar.gz', (e: ArchiveEntry[]) => makeTarGz(e)],
    ['zip', (e: ArchiveEntry[]) => makeZip(e)],
  ])('a good %s with the right checksum installs, is executable, and starts as an ACP agent', async (ext, make) => {
    const archive = make(goodEntries())
    const agent = await publish('good-agent', '1.0.0', archive, { sha256: sha256(archive), args: ['--acp'] }, ext)
    const result = must(await installer.install(agent))
    expect(result).toMatchObject({ version: '1.0.0', kind: 'binary', updated: false })
    expect(confirmation.of('agent-definition').map((r) => r.title)).toEqual(['Add an agent'])

    const dir = join(home, 'agents', 'good-agent', '1.0.0')
    const command = join(dir, 'bin', 'agent')
    expect(statSync(command).mode & 0o111).toBe(0o111)
    expect(readdirSync(join(home, 'agents', 'good-agent'))).toEqual(['1.0.0']) // no download or temp folder left
    const def = config.definitions.get(result.agentId)!
    expect(def).toMatchObject({ name: 'Agent good-agent', command, args: ['--acp'], protocolVersion: 1, presetId: 'registry:good-agent' })
    expect(progress.map((p) => p.phase)).toEqual(expect.arrayContaining(['checking', 'downloading', 'verifying', 'extracting', 'saving']))
    const lastDownload = progress.filter((p) => p.phase === 'downloading').at(-1)!
    expect(lastDownload).toMatchObject({ received: archive.length, total: archive.length })

    // It starts and answers initialize (the definition's own launch spec, as a session would spawn it).
    const { AgentHost } = await import('../../../main/agents/agent-host')
    const { createAcpConnection } = await import('../../../main/acp/connection')
    const spec = must(await config.launchSpec(result.agentId))
    const host = new AgentHost({
      spec: { agentId: result.agentId, name: def.name, ...spec },
      createConnection: ({ input, output, logger }) => createAcpConnection({ input, output, logger, clientInfo: { name: 'Bosun', version: 'test' } }),
      logger: createMemoryLogger(),
      autoRestart: false,
      preferredProtocolVersion: 1,
    })
    try {
      const handshake = must(await host.start())
      expect(handshake).toMatchObject({ protocolVersion: 1, offeredVersion: 1, agentInfo: { name: 'scripted' } })
    } finally {
      await host.stop({ deadlineMs: 3000 })
      host.dispose()
    }
    // Confirmed when saved, it started without asking again; the launch it was confirmed for is on record.
    expect(confirmation.asked).toHaveLength(1)
    expect(outside('good-agent')).toEqual(['home', join('home', 'agents'), join('home', 'agents.json'), join('home', 'trusted-agents.json')])
  })

  const hostile: [string, () => Buffer, RegExp][] = [
    ['a `../` path (tar.gz)', () => makeTarGz([...goodEntries(), { path: '../../../escaped.txt', body: 'x' }]), /leaves the folder/],
    ['a `../` path (zip)', () => makeZip([...goodEntries(), { path: '../../../escaped.txt', body: 'x' }]), /leaves the folder|unsafe/],
    ['an absolute path (tar.gz)', () => makeTarGz([...goodEntries(), { path: `${tmpdir()}/bosun-escaped.txt`, body: 'x' }]), /absolute path/],
    ['an absolute path (zip)', () => makeZip([...goodEntries(), { path: `${tmpdir()}/bosun-escaped.txt`, body: 'x' }]), /absolute path|unsafe/],
    ['a symbolic link out (tar.gz)', () => makeTarGz([...goodEntries(), { path: 'bin/passwd', type: 'symlink', linkpath: '../../../../../../etc/passwd' }]), /link that points outside/],
    ['an absolute symbolic link (tar.gz)', () => makeTarGz([...goodEntries(), { path: 'etc', type: 'symlink', linkpath: '/etc' }]), /link that points outside/],
    [
      'chained links that only leave when resolved, and a file written through them (tar.gz)',
      () =>
        makeTarGz([
          ...goodEntries(),
          { path: 's', type: 'symlink', linkpath: '.' },
          { path: 'dir/', type: 'dir' },
          { path: 'dir/link', type: 'symlink', linkpath: '../s/..' },
          { path: 'dir/link/escaped-through-link.txt', body: 'x' },
        ]),
      /link/,
    ],
    ['a hard link out (tar.gz)', () => makeTarGz([...goodEntries(), { path: 'bin/h', type: 'hardlink', linkpath: '../outside' }]), /link that points outside/],
    ['a link (zip)', () => makeZip([...goodEntries(), { path: 'bin/passwd', type: 'symlink', linkpath: '/etc/passwd' }]), /link/],
    ['a device file (tar.gz)', () => makeTarGz([...goodEntries(), { path: 'dev-null', type: 'chardev' }]), /CharacterDevice/],
    ['too many entries (tar.gz)', () => makeTarGz([...goodEntries(), ...Array.from({ length: 60 }, (_, i) => ({ path: `f${i}`, body: 'x' }))]), /more than 50 entries/],
    ['an oversized archive (tar.gz)', () => makeTarGz([...goodEntries(), { path: 'big.bin', body: Buffer.alloc(2 * 1024 * 1024) }]), /unpacks to more than 1\.0 MiB/],
    ['an oversized archive (zip)', () => makeZip([...goodEntries(), { path: 'big.bin', body: Buffer.alloc(2 * 1024 * 1024) }]), /unpacks to more than 1\.0 MiB/],
    ['not an archive', () => Buffer.from('#!/bin/sh\necho hi\n'), /not a tar\.gz or zip/],
  ]

  it.each(hostile)('an archive with %s is refused with the reason, and nothing is written outside its folder', async (_label, make, reason) => {
    const agent = await publish('bad-agent', '1.0.0', make())
    const result = await installer.install(agent)
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.error.message).toMatch(reason)
    expect(result.error.data).toEqual({ reason: expect.stringMatching(/unsafe-archive/) })
    expect(config.definitions.list()).toEqual([])
    // The agent folder holds nothing (no version, no temp folder, no download); nothing anywhere else.
    expect(readdirSync(join(home, 'agents', 'bad-agent'))).toEqual([])
    expect(outside('bad-agent')).toEqual(['home', join('home', 'agents')])
    expect(existsSync(join(tmpdir(), 'bosun-escaped.txt'))).toBe(false)
  })

  it('a wrong checksum is refused before extraction', async () => {
    const archive = makeTarGz(goodEntries())
    const agent = await publish('sum-agent', '1.0.0', archive, { sha256: sha256(Buffer.from('something else')) })
    const result = await installer.install(agent)
    expect(result).toMatchObject({ ok: false, error: { data: { reason: 'checksum-mismatch' }, message: expect.stringMatching(/does not match the registry's checksum/) } })
    expect(progress.map((p) => p.phase)).not.toContain('extracting')
    expect(readdirSync(join(home, 'agents', 'sum-agent'))).toEqual([])
  })

  it('a download larger than the limit is refused', async () => {
    const archive = makeTarGz([...goodEntries(), { path: 'noise.bin', body: randomBytes(700 * 1024) }])
    const agent = await publish('huge-agent', '1.0.0', archive)
    const result = await installer.install(agent)
    expect(result).toMatchObject({ ok: false, error: { data: { reason: 'too-large' } } })
    expect(readdirSync(join(home, 'agents', 'huge-agent'))).toEqual([])
  })

  it('a command outside the archive is refused when the registry is read', async () => {
    registry.setRegistry({ version: '1.0.0', agents: [binaryEntry('evil', '1.0.0', `${registry.origin}/x.tar.gz`, { cmd: '../../bin/sh' })] })
    const loaded = await client.load({ refresh: true })
    if (!loaded.ok) throw new Error(loaded.message)
    expect(loaded.value.agents).toEqual([])
    expect(loaded.value.skipped).toEqual([expect.objectContaining({ id: 'evil', reason: 'no usable distribution' })])
  })

  it('cancel stops a download in progress and leaves nothing behind', async () => {
    const archive = makeTarGz(goodEntries())
    const agent = await publish('slow-agent', '1.0.0', archive)
    const stall = registry.stall('/dl/slow-agent-1.0.0.tar.gz')
    // The download has started once the first bytes are reported.
    const started = new Promise<void>((resolve) => (onProgress = (p) => p.phase === 'downloading' && (p.received ?? 0) > 0 && resolve()))
    const pending = installer.install(agent)
    await started
    expect(installer.cancel('slow-agent')).toBe(true)
    const result = await pending
    stall.release()
    expect(result).toMatchObject({ ok: false, error: { kind: 'cancelled' } })
    expect(readdirSync(join(home, 'agents', 'slow-agent'))).toEqual([])
    expect(config.definitions.list()).toEqual([])
  })
})

describe('update and uninstall', () => {
  it('updates in place keeping the person’s settings, then removes the old version; uninstall removes the files and the definition', async () => {
    const v1 = await publish('up-agent', '1.0.0', makeTarGz(goodEntries()), { env: { MODE: 'fast' } })
    const installed = must(await installer.install(v1))
    // The person renames it and sets a folder and a variable.
    const def = config.definitions.get(installed.agentId)!
    must(
      await config.handlers.saveAgentDefinition({
        draft: {
          id: def.id,
          name: 'My agent',
          command: def.command,
          argsText: '',
          env: [
            { name: 'MODE', value: 'careful' },
            { name: 'EXTRA', value: '1' },
          ],
          secretEnv: [],
          defaultCwd: root,
          protocolVersion: 1,
          defaultMode: 'code',
        },
      }),
    )

    const v2 = await publish('up-agent', '1.1.0', makeZip(goodEntries()), { env: { MODE: 'fast', NEW_VAR: 'yes' } }, 'zip')
    const updated = must(await installer.install(v2))
    expect(updated).toMatchObject({ agentId: installed.agentId, version: '1.1.0', updated: true })
    const after = config.definitions.get(installed.agentId)!
    expect(after).toMatchObject({
      name: 'My agent',
      command: join(home, 'agents', 'up-agent', '1.1.0', 'bin', 'agent'),
      env: { MODE: 'careful', EXTRA: '1', NEW_VAR: 'yes' },
      defaultCwd: root,
      defaultMode: 'code',
    })
    expect(readdirSync(join(home, 'agents', 'up-agent'))).toEqual(['1.1.0'])
    expect(await installer.installed()).toEqual({ 'up-agent': { agentId: installed.agentId, version: '1.1.0', kind: 'binary' } })

    must(await installer.uninstall('up-agent'))
    expect(existsSync(join(home, 'agents', 'up-agent'))).toBe(false)
    expect(config.definitions.list()).toEqual([])
    expect(await installer.installed()).toEqual({})
  })

  it('installing the version it runs again, from another archive, never changes the files behind the confirmed command unasked (hostile12)', async () => {
    const first = makeTarGz(goodEntries())
    const installed = must(await installer.install(await publish('same-agent', '1.0.0', first)))
    const command = config.definitions.get(installed.agentId)!.command
    const before = readFileSync(command, 'utf8')
    // The same id and version with other contents (another registry, or the same one changed): the launch was the same
    // path, so nothing was asked, and the program the person confirmed was replaced in place.
    const other = makeTarGz([{ path: 'bin/', type: 'dir' }, { path: 'bin/agent', body: '#!/bin/sh\necho replaced\n', mode: 0o755 }])
    confirmation.answer = false
    const refused = await installer.install(await publish('same-agent', '1.0.0', other))
    expect(refused).toMatchObject({ ok: false })
    expect(confirmation.of('agent-definition').map((r) => r.title)).toEqual(['Add an agent', 'Change an agent'])
    expect(config.definitions.get(installed.agentId)!.command).toBe(command)
    expect(readFileSync(command, 'utf8')).toBe(before)
    expect(readdirSync(join(home, 'agents', 'same-agent'))).toEqual(['1.0.0'])
    // Confirmed, it runs the new files, and the old folder goes.
    confirmation.answer = true
    must(await installer.install(await publish('same-agent', '1.0.0', other)))
    const now = config.definitions.get(installed.agentId)!.command
    expect(now).not.toBe(command)
    expect(readFileSync(now, 'utf8')).toContain('echo replaced')
    expect(existsSync(command)).toBe(false)
    expect(readdirSync(join(home, 'agents', 'same-agent'))).toHaveLength(1)
  })

  it('an install index this Bosun cannot read is listed as empty, untouched, and copied aside before an install replaces it', async () => {
    const index = join(home, 'registry', 'installed.json')
    mkdirSync(join(home, 'registry'), { recursive: true })
    writeFileSync(index, '{"version": 2, "installs": "a newer format"}')
    // Reading (the list) leaves the file as it is and keeps no copy.
    expect(await installer.installed()).toEqual({})
    expect(readdirSync(join(home, 'registry')).filter((name) => name.startsWith('installed.json.corrupt-'))).toEqual([])
    must(await installer.install(await publish('kept-agent', '1.0.0', makeTarGz(goodEntries()))))
    const copies = readdirSync(join(home, 'registry')).filter((name) => name.startsWith('installed.json.corrupt-'))
    expect(copies).toHaveLength(1)
    expect(readFileSync(join(home, 'registry', copies[0]!), 'utf8')).toBe('{"version": 2, "installs": "a newer format"}')
    expect(Object.keys(await installer.installed())).toEqual(['kept-agent'])
  })

  it('removing the definition from the Agents list also removes its files', async () => {
    const agent = await publish('rm-agent', '2.0.0', makeTarGz(goodEntries()))
    const { agentId } = must(await installer.install(agent))
    must(await config.handlers.removeAgentDefinition({ agentId }))
    await installer.definitionRemoved(agentId)
    expect(existsSync(join(home, 'agents', 'rm-agent'))).toBe(false)
  })
})

describe('npx and uvx', () => {
  const packageEntry = (kind: 'npx' | 'uvx') => ({
    id: `${kind}-agent`,
    name: `${kind} agent`,
    version: '0.3.0',
    description: 'runs through a package runner',
    distribution: { [kind]: { package: kind === 'npx' ? '@acme/agent@0.3.0' : 'acme-agent==0.3.0', args: ['--acp'] } },
  })

  it('writes the runner command when the runner is on PATH, and says how to get it when not', async () => {
    const bin = join(root, 'bin')
    const { mkdirSync } = await import('node:fs')
    mkdirSync(bin)
    writeFileSync(join(bin, 'npx'), '#!/bin/sh\nexit 0\n', { mode: 0o755 })
    registry.setRegistry({ version: '1.0.0', agents: [packageEntry('npx'), packageEntry('uvx')] })
    const loaded = await client.load({ refresh: true })
    if (!loaded.ok) throw new Error(loaded.message)
    const withRunner = new RegistryInstaller({ home, config, baseEnv: { PATH: bin }, logger: createMemoryLogger() })
    const npx = must(await withRunner.install(loaded.value.agents.find((a) => a.id === 'npx-agent')!))
    expect(config.definitions.get(npx.agentId)).toMatchObject({ command: 'npx', args: ['-y', '@acme/agent@0.3.0', '--acp'], protocolVersion: 1 })

    const uvx = await withRunner.install(loaded.value.agents.find((a) => a.id === 'uvx-agent')!)
    expect(uvx).toMatchObject({ ok: false, error: { data: { reason: 'runner-missing' }, message: expect.stringMatching(/uvx was not found.*install uv/) } })
    expect(readFileSync(join(home, 'agents.json'), 'utf8')).not.toContain('uvx')
  })
})
