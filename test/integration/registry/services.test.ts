/**
 * Issue 15 through the composition root's calls: browse the fixture registry, install, start a session
 * (one start: registry agents are offered v1 first), the update badge, uninstall, the offline copy, icons
 * only as checked data: URLs; and no double start for an unknown agent whose command already settled on v1.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest'
import { agentScript, binaryEntry, makeTarGz, startFixtureRegistry, type FixtureRegistry } from '../../support/fixture-registry'
import { must, servicesPerTest } from '../../support/services'

const startServices = servicesPerTest()
let registry: FixtureRegistry

beforeEach(async () => {
  registry = await startFixtureRegistry()
})
afterEach(async () => {
  await registry.close()
})

const starts = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').length : 0)

async function start() {
  const t = await startServices([], (home) => {
    mkdirSync(join(home.home, 'registry'), { recursive: true })
    writeFileSync(join(home.home, 'registry', 'settings.json'), JSON.stringify({ url: registry.url }))
  })
  return t
}

function publish(version: string, startsFile: string, extra: Record<string, unknown> = {}) {
  const path = `/dl/fixture-${version}.tar.gz`
  registry.put(
    path,
    makeTarGz([
      { path: 'bin/', type: 'dir' },
      { path: 'bin/agent', body: agentScript({ startsFile }), mode: 0o755 },
    ]),
  )
  registry.setRegistry({
    version: '1.0.0',
    agents: [
      { ...binaryEntry('fixture-agent', version, registry.origin + path, { name: 'Fixture Agent', icon: 'icons/fixture.svg' }), ...extra },
      { id: 'broken', name: 'Broken' },
    ],
    extensions: [],
  })
}

describe('the registry through the composition root', () => {
  it('browses, installs, starts a session with a single start, shows an update, updates and uninstalls', async () => {
    const { handlers, workspace, testHome } = await start()
    const logs = mkdtempSync(join(tmpdir(), 'bosun-starts-'))
    onTestFinished(() => rmSync(logs, { recursive: true, force: true }))
    const startsFile = join(logs, 'starts.log')
    publish('1.0.0', startsFile)

    const listing = must(await handlers.getRegistry({}))
    expect(listing).toMatchObject({ url: registry.url, source: 'network', skipped: 1 })
    expect(listing.agents).toEqual([
      expect.objectContaining({ id: 'fixture-agent', name: 'Fixture Agent', version: '1.0.0', license: 'MIT', authors: ['Bosun tests'], hasIcon: true, usable: ['binary'], installed: null }),
    ])

    const installed = must(await handlers.installRegistryAgent({ registryId: 'fixture-agent' }))
    const { sessionId } = must(await handlers.newSession({ agentId: installed.agentId, cwd: workspace }))
    expect(sessionId).toBeTruthy()
    expect(starts(startsFile)).toBe(1)

    publish('1.2.0', startsFile)
    const refreshed = must(await handlers.getRegistry({ refresh: true }))
    expect(refreshed.agents[0]!.installed).toEqual({ agentId: installed.agentId, version: '1.0.0', kind: 'binary', updateAvailable: true })
    must(await handlers.installRegistryAgent({ registryId: 'fixture-agent' }))
    expect(must(await handlers.getRegistry({})).agents[0]!.installed).toMatchObject({ version: '1.2.0', updateAvailable: false })

    must(await handlers.uninstallRegistryAgent({ registryId: 'fixture-agent' }))
    expect(must(await handlers.listAgentDefinitions(undefined)).agents).toEqual([])
    expect(existsSync(join(testHome.home, 'agents', 'fixture-agent'))).toBe(false)
    expect(must(await handlers.getRegistry({})).agents[0]!.installed).toBeNull()
  })

  it('shows the last copy with its date when the registry cannot be reached', async () => {
    const { handlers } = await start()
    publish('1.0.0', '/dev/null')
    const online = must(await handlers.getRegistry({}))
    await registry.close()
    const offline = must(await handlers.getRegistry({ refresh: true }))
    expect(offline).toMatchObject({ source: 'cache', fetchedAt: online.fetchedAt, offlineReason: expect.stringMatching(/Could not reach 127\.0\.0\.1/) })
    expect(offline.agents.map((a) => a.id)).toEqual(['fixture-agent'])
  })

  it('fails with the reason when there is neither a registry nor a copy', async () => {
    const { handlers } = await start()
    const result = await handlers.getRegistry({})
    expect(result).toMatchObject({ ok: false, error: { kind: 'io-error', message: expect.stringMatching(/HTTP 404/) } })
  })

  it('gives icons only as data: URLs of checked SVG or PNG, never other content', async () => {
    const { handlers } = await start()
    publish('1.0.0', '/dev/null')
    const svg = '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><rect width="16" height="16"/></svg>'
    registry.put('/icons/fixture.svg', svg, 'image/svg+xml')
    const { dataUrl } = must(await handlers.getRegistryIcon({ registryId: 'fixture-agent' }))
    expect(dataUrl).toBe(`data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`)
  })

  it('fetches an icon once however many calls ask for it at once', async () => {
    const { handlers } = await start()
    publish('1.0.0', '/dev/null')
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"/>'
    registry.put('/icons/fixture.svg', svg, 'image/svg+xml')
    const answers = await Promise.all(Array.from({ length: 30 }, () => handlers.getRegistryIcon({ registryId: 'fixture-agent' })))
    for (const answer of answers) expect(must(answer).dataUrl).toBe(`data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`)
    // One download, not one per call: the renderer's calls must not set the number of downloads.
    expect(registry.hits.filter((path) => path === '/icons/fixture.svg')).toHaveLength(1)
  })

  it('does not follow an icon redirect to another origin (J2), and follows one within the registry', async () => {
    const { handlers } = await start()
    publish('1.0.0', '/dev/null')
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"/>'
    const elsewhere = await startFixtureRegistry()
    onTestFinished(() => elsewhere.close())
    elsewhere.put('/fixture.svg', svg, 'image/svg+xml')
    registry.redirect('/icons/fixture.svg', `${elsewhere.origin}/fixture.svg`)
    expect(must(await handlers.getRegistryIcon({ registryId: 'fixture-agent' }))).toEqual({ dataUrl: null })
    expect(elsewhere.hits).toEqual([])

    // A new agent whose icon moved within the registry's own origin.
    registry.put('/icons/moved.svg', svg, 'image/svg+xml')
    registry.redirect('/icons/old.svg', '/icons/moved.svg')
    registry.setRegistry({ version: '1.0.0', agents: [binaryEntry('moved-agent', '1.0.0', `${registry.origin}/dl/x.tar.gz`, { name: 'Moved', icon: 'icons/old.svg' })], extensions: [] })
    must(await handlers.getRegistry({ refresh: true }))
    expect(must(await handlers.getRegistryIcon({ registryId: 'moved-agent' })).dataUrl).toBe(`data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`)
  })

  it('refuses an icon that is not an image', async () => {
    const { handlers } = await start()
    publish('1.0.0', '/dev/null')
    registry.put('/icons/fixture.svg', '<html><script>alert(1)</script></html>', 'image/svg+xml')
    expect(must(await handlers.getRegistryIcon({ registryId: 'fixture-agent' }))).toEqual({ dataUrl: null })
  })

  it('keeps the registry URL as a setting and refuses plain http to another machine', async () => {
    const { handlers } = await start()
    expect(must(await handlers.getRegistrySettings(undefined))).toMatchObject({ url: registry.url })
    expect(await handlers.setRegistrySettings({ url: 'http://example.com/registry.json' })).toMatchObject({ ok: false, error: { kind: 'invalid-argument' } })
    must(await handlers.setRegistrySettings({ url: '' }))
    // Empty means the default: the official registry, which the tests' BOSUN_REGISTRY_URL replaces (no network here).
    const settings = must(await handlers.getRegistrySettings(undefined))
    expect(settings.url).toBe(settings.defaultUrl)
    expect(settings.defaultUrl).toBe(process.env.BOSUN_REGISTRY_URL)
  })
})

describe('no double start', () => {
  it('an unknown agent answering 1 to a v2 offer starts once, without client capabilities; every later start offers it 1', async () => {
    const { handlers, workspace } = await start()
    // Outside the workspace and the home, like an installed agent; removed with the test.
    const bin = mkdtempSync(join(tmpdir(), 'bosun-bin-'))
    onTestFinished(() => rmSync(bin, { recursive: true, force: true }))
    const startsFile = join(bin, 'starts.log')
    const script = join(bin, 'my-agent')
    writeFileSync(script, agentScript({ startsFile }), { mode: 0o755 })
    const draft = (name: string) => ({ name, command: script, argsText: '', env: [], secretEnv: [], defaultCwd: '' })

    const first = must(await handlers.saveAgentDefinition({ draft: draft('Mine') })).agent
    must(await handlers.newSession({ agentId: first.id, cwd: workspace }))
    expect(starts(startsFile)).toBe(1) // offered 2, answered 1: this run goes on without Bosun's files and terminals
    const [view] = must(await handlers.getSnapshot(undefined)).agents.filter((a) => a.agentId === first.id)
    expect(view).toMatchObject({ status: 'ready', protocolVersion: 1, withoutClientCapabilities: true })
    // The definition now says 1: a restart offers it, once.
    must(await handlers.restartAgent({ agentId: first.id }))
    expect(starts(startsFile)).toBe(2)
    const [restarted] = must(await handlers.getSnapshot(undefined)).agents.filter((a) => a.agentId === first.id)
    expect(restarted).toMatchObject({ status: 'ready', protocolVersion: 1 })
    expect(restarted).not.toHaveProperty('withoutClientCapabilities')

    const second = must(await handlers.saveAgentDefinition({ draft: draft('Mine again') })).agent
    expect(second.protocolVersion).toBeUndefined()
    must(await handlers.newSession({ agentId: second.id, cwd: workspace }))
    expect(starts(startsFile)).toBe(3) // remembered for this command line: one start, offering 1
  })
})
