/**
 * The registry and first-run calls of `common/contract/registry.ts` for the composition root: the
 * registry client (fetch, cache, offline copy), the installer, icons, and the detected agents.
 */
import type { CallHandlers, EventSink } from '../../common/contract'
import type { AgentDraft } from '../../common/contract/agents'
import type { registryCalls, RegistryAgentView } from '../../common/contract/registry'
import { fail, ok } from '../base/errors'
import { DisposableStore, type IDisposable } from '../base/lifecycle'
import type { Logger } from '../base/log'
import { AgentDetector, KNOWN_AGENTS, type DetectedAgentInfo } from '../agents/detect'
import type { AgentConfigService } from '../config/agent-config-service'
import { findPreset } from '../config/presets'
import { joinArgs } from '../config/split-args'
import { downloadToBuffer } from './download'
import type { ExtractLimits } from './extract'
import { RegistryInstaller } from './installer'
import { RegistryClient, defaultRegistryUrl } from './registry-client'
import { compareVersions, safeDownloadUrl, type DistributionKind, type RegistryAgent } from './registry-schema'
import { quoteExact, type ConfirmationService } from '../trust/confirmation'

export type RegistryHandlers = Pick<CallHandlers, keyof typeof registryCalls>

export interface RegistryServiceOptions {
  home: string
  config: AgentConfigService
  events?: EventSink
  logger: Logger
  baseEnv?: NodeJS.ProcessEnv
  /** Main's own question to the person: another registry is a new source of programs to install. None: refused. */
  confirmation?: ConfirmationService
  /** Tests: smaller limits. */
  maxDownloadBytes?: number
  extractLimits?: ExtractLimits
  detectTimeoutMs?: number
}

export interface RegistryService extends IDisposable {
  handlers: RegistryHandlers
  installer: RegistryInstaller
  client: RegistryClient
}

const ICON_MAX_BYTES = 64 * 1024
const ICON_CACHE = 200

export function createRegistryService(options: RegistryServiceOptions): RegistryService {
  const { config, logger: log } = options
  const baseEnv = options.baseEnv ?? process.env
  const store = new DisposableStore()
  const client = new RegistryClient({ home: options.home })
  const installer = new RegistryInstaller({
    home: options.home,
    config,
    baseEnv,
    logger: log,
    ...(options.maxDownloadBytes !== undefined ? { maxDownloadBytes: options.maxDownloadBytes } : {}),
    ...(options.extractLimits ? { extractLimits: options.extractLimits } : {}),
    onProgress: (progress) => options.events?.emit('registryInstallProgress', progress),
  })
  /** Icons by URL, as the download in flight or done: calls at once for one icon share one download. */
  const icons = new Map<string, Promise<string | null>>()
  /**
   * The detections running now, quick and waiting for versions: each looks every known agent up on PATH (and asks a
   * new or changed program `--version`), and the renderer is not trusted to ask once. Calls while one runs share its
   * answer; the next call after it detects again (versions of unchanged programs are kept, {@link AgentDetector}).
   */
  const detector = new AgentDetector({ env: baseEnv, ...(options.detectTimeoutMs ? { timeoutMs: options.detectTimeoutMs } : {}) })
  const detecting = new Map<boolean, Promise<DetectedAgentInfo[]>>()
  const detectOnce = (waitForVersions: boolean): Promise<DetectedAgentInfo[]> => {
    let running = detecting.get(waitForVersions)
    if (!running) {
      running = detector.detect({ waitForVersions }).finally(() => detecting.delete(waitForVersions))
      detecting.set(waitForVersions, running)
    }
    return running
  }

  // An installed agent removed from the Agents list takes its files with it.
  store.add(
    config.definitions.onDidChange((change) => {
      if (change.removed && change.changedId) void installer.definitionRemoved(change.changedId).catch((error) => log.warn('could not remove installed files', error))
    }),
  )
  store.add({ dispose: () => installer.cancelAll() })

  const findAgent = async (registryId: string): Promise<RegistryAgent | undefined> => {
    const loaded = await client.load()
    return loaded.ok ? loaded.value.agents.find((a) => a.id === registryId) : undefined
  }

  const handlers: RegistryHandlers = {
    getRegistry: async ({ refresh }) => {
      const loaded = await client.load({ refresh: refresh === true })
      if (!loaded.ok) return fail({ kind: 'io-error', message: loaded.message })
      const installed = await installer.installed()
      const agents: RegistryAgentView[] = loaded.value.agents.map((agent) => {
        const record = installed[agent.id]
        const view: RegistryAgentView = {
          id: agent.id,
          name: agent.name,
          version: agent.version,
          description: agent.description,
          authors: agent.authors,
          hasIcon: agent.icon !== undefined,
          distributions: (['binary', 'npx', 'uvx'] as const).filter((k) => agent.distribution[k] !== undefined),
          usable: installer.usableKinds(agent),
          installed: record ? { ...record, updateAvailable: compareVersions(agent.version, record.version) > 0 } : null,
        }
        if (agent.license) view.license = agent.license
        if (agent.repository) view.repository = agent.repository
        if (agent.website) view.website = agent.website
        return view
      })
      const { url, fetchedAt, source, offlineReason } = loaded.value
      return ok({ url, fetchedAt, source, ...(offlineReason ? { offlineReason } : {}), agents, skipped: loaded.value.skipped.length })
    },
    getRegistryIcon: async ({ registryId }) => {
      const agent = await findAgent(registryId)
      if (!agent?.icon) return ok({ dataUrl: null })
      let icon = icons.get(agent.icon)
      if (!icon) {
        // Bounded: at most ICON_CACHE icons of ICON_MAX_BYTES each stay in memory.
        if (icons.size >= ICON_CACHE) icons.delete(icons.keys().next().value!)
        icon = fetchIcon(agent.icon, log)
        icons.set(agent.icon, icon)
      }
      return ok({ dataUrl: await icon })
    },
    installRegistryAgent: async ({ registryId, kind }) => {
      const agent = await findAgent(registryId)
      if (!agent) return fail({ kind: 'not-found', message: `The registry has no agent ${registryId}` })
      return installer.install(agent, kind as DistributionKind | undefined)
    },
    cancelRegistryInstall: async ({ registryId }) => {
      installer.cancel(registryId)
      return ok(undefined)
    },
    uninstallRegistryAgent: async ({ registryId }) => {
      const removed = await installer.uninstall(registryId)
      return removed.ok ? ok(undefined) : removed
    },
    getRegistrySettings: async () => ok({ url: await client.getUrl(), defaultUrl: defaultRegistryUrl() }),
    setRegistrySettings: async ({ url }) => {
      const asked = url.trim()
      const current = await client.getUrl()
      // Another registry lists other programs under the names the person knows: the person says so in main's dialog,
      // not the page (the default, or the one in use, asks nothing).
      if (asked && asked !== current && asked !== defaultRegistryUrl()) {
        if (!safeDownloadUrl(asked)) return fail({ kind: 'invalid-argument', message: 'Use an https address (http only for this machine)' })
        const answer = await (options.confirmation?.confirm({
          kind: 'registry-source',
          title: 'Use another agent registry',
          message: 'Install agents from another registry? Bosun will list the agents it offers, and download the ones you install from where it says.',
          detail: `Registry: ${quoteExact(asked)}\nInstead of: ${quoteExact(current)}`,
          confirmLabel: 'Use this registry',
        }) ?? Promise.resolve({ confirmed: false }))
        if (!answer.confirmed) return fail({ kind: 'not-confirmed', message: 'The registry was not changed: it was not confirmed.' })
      }
      const set = await client.setUrl(url)
      return set.ok ? ok({ url: set.url }) : fail({ kind: 'invalid-argument', message: set.message })
    },
    detectAgents: async (input) => {
      const found = await detectOnce(input?.waitForVersions === true)
      const defs = config.definitions.list()
      return ok({
        agents: found.map(({ agent, path, version, versionPending }) => ({
          key: agent.key,
          name: agent.name,
          path,
          commandLine: joinArgs([agent.command, ...agent.args]),
          version,
          ...(versionPending ? { versionPending } : {}),
          added: defs.some((d) => (d.command === agent.command || d.command === path) && d.args.join('\0') === agent.args.join('\0')),
          // It is installed: only what it still needs (a login, a key).
          needs: findPreset(agent.presetId)?.needs.filter((n) => n.kind === 'login' || n.kind === 'key').map((n) => n.text) ?? [],
        })),
      })
    },
    addDetectedAgent: async ({ key }) => {
      const agent = KNOWN_AGENTS.find((a) => a.key === key)
      if (!agent) return fail({ kind: 'not-found', message: `No known agent ${key}` })
      const preset = findPreset(agent.presetId)
      const taken = new Set(config.definitions.list().map((d) => d.name.trim().toLocaleLowerCase()))
      let name = agent.name
      for (let n = 2; taken.has(name.toLocaleLowerCase()); n++) name = `${agent.name} ${n}`
      const draft: AgentDraft = {
        name,
        command: agent.command,
        argsText: joinArgs(agent.args),
        env: Object.entries(preset?.env ?? {}).map(([n, value]) => ({ name: n, value })),
        secretEnv: [...(preset?.secretEnv ?? [])],
        defaultCwd: '',
        protocolVersion: 1,
        presetId: agent.presetId,
      }
      return config.handlers.saveAgentDefinition({ draft })
    },
  }

  return { handlers, installer, client, dispose: () => store.dispose() }
}

/**
 * An icon as a data: URL: SVG (shown only through `<img>`, where it cannot run scripts) or PNG, bounded. Fetched
 * without credentials, and not through a redirect to another scheme or origin (J2).
 */
async function fetchIcon(url: string, log: Logger): Promise<string | null> {
  try {
    const { body } = await downloadToBuffer(url, { maxBytes: ICON_MAX_BYTES, idleTimeoutMs: 10_000, accept: 'image/svg+xml,image/png', redirects: 'same-origin' })
    if (body.length >= 8 && body.readUInt32BE(0) === 0x89504e47) return `data:image/png;base64,${body.toString('base64')}`
    const head = body.subarray(0, 1024).toString('utf8').replace(/^\uFEFF/, '').trimStart()
    if (/^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE svg[^>]*>\s*)?<svg[\s>]/i.test(head)) return `data:image/svg+xml;base64,${body.toString('base64')}`
    return null
  } catch (error) {
    log.info(`icon ${url.slice(0, 200)} not loaded: ${(error as Error).message}`)
    return null
  }
}
