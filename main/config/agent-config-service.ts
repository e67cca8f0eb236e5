/**
 * The agents-configuration service for the composition root: the definition store, the keychain-backed
 * secrets, the spawn parameters for the supervisor, and the IPC handlers of `preload/contract/agents.ts`.
 *
 * Secrets flow one way. The renderer may send a value (saveAgentDefinition) and learns only whether a
 * name is set; values come back out of the keychain only in {@link AgentConfigService.launchSpec}, for
 * that agent, at spawn time.
 *
 * Later work plugs in beside these handlers (check connection, login, protocol inspector): they need
 * `launchSpec` and `definitions.get`, nothing else from here.
 */
import type { CallHandlers, EventSink } from '../../common/contract'
import type { AgentDefinitionView, AgentDraft, AgentFieldErrors, agentsCalls, AgentPresetView } from '../../common/contract/agents'
import { fail, ok, type Result } from '../base/errors'
import { Emitter, type Event } from '../base/event'
import { DisposableStore } from '../base/lifecycle'
import { createLogger, type Logger } from '../base/log'
import { createKeytarSecretStore, type SecretStore } from '../secrets/secret-store'
import { refuseAllConfirmation, quoteExact, type ConfirmationService } from '../trust/confirmation'
import { changedParts, describeLaunch, describeLaunchChanges, launchIdentityHash, LaunchTrustStore, sameLaunch } from '../trust/launch-trust'
import { AgentDefinitionStore, type AgentDefinition } from './agent-definitions'
import { resolveLaunch, type LaunchSpec } from './launch'
import { AGENT_PRESETS } from './presets'
import { joinArgs } from './split-args'
import { draftToDefinition, validateDraft, validateSecretNames } from './validate'
import { confirmUnattendedMode, unattendedDefault, type UnattendedChoice } from '../trust/unattended-mode'

export type AgentConfigHandlers = Pick<CallHandlers, keyof typeof agentsCalls>

export interface AgentConfigServiceOptions {
  /** Bosun's home folder; `agents.json` lives here. */
  home: string
  /** Defaults to keytar (service "Bosun"). */
  secretStore?: SecretStore
  /** Where `agentDefinitionsChanged` goes. */
  events?: EventSink
  /** Bosun's environment: PATH for validation, the base for the scrubbed child env. Defaults to process.env. */
  baseEnv?: NodeJS.ProcessEnv
  logger?: Logger
  /**
   * Main's confirmation with the person (native dialog in Electron, the owner in the browser host). Asked
   * before a definition whose command, arguments or environment changed is saved, and before an agent
   * whose launch was never confirmed is started. Defaults to refusing everything (fail closed).
   */
  confirmation?: ConfirmationService
}

export interface AgentConfigService {
  definitions: AgentDefinitionStore
  secrets: SecretStore
  /**
   * Everything needed to spawn agent `agentId`: the complete child env (scrubbed base + plain env + this
   * agent's secrets only). Every start goes through here: when this exact command, arguments and
   * environment were never confirmed for this agent (a new or changed definition, written by hand, by the
   * registry or by a login), main asks the person first and fails `not-confirmed` without it. Fails
   * `not-found`. When the agent has secret names but the keychain cannot be read, it starts without them and the
   * spec says so (`withoutKeys`): a preset such as Claude's lists a key that is often left unset in favour of a
   * login, and a machine without a Secret Service must still be able to run it.
   */
  launchSpec(agentId: string): Promise<Result<LaunchSpec>>
  /** The values of this agent's keychain secrets (for redaction only; never starts anything, never asks). */
  secretValues(agentId: string): Promise<Result<Record<string, string>>>
  /**
   * A secret of `agentId` was stored or removed outside `save` (a login's key): the listing's "set" / "not set" is
   * sent again, and a running agent started with the earlier value says it runs that one.
   */
  secretsChanged(agentId: string): void
  /**
   * What a running agent's `launchIdentity` (from {@link launchSpec}) is compared with to tell whether it runs what
   * is saved now: the definition's command, arguments, environment and secret names, and every change of its secrets'
   * values since Bosun started (a key corrected after a wrong one reaches the agent only when it restarts).
   */
  launchIdentity(agentId: string): string | undefined
  /**
   * What the saved definition changed since a running agent started from `running` ("the new arguments", "2 changed
   * environment variables", "the key values you changed"); undefined when it runs what is saved.
   */
  launchChanges(agentId: string, running: Pick<LaunchSpec, 'launchIdentity' | 'started'>): string[] | undefined
  /** A secret of this agent was stored or removed. */
  onDidChangeSecrets: Event<string>
  /**
   * Creates or updates a definition (the `saveAgentDefinition` call, and the way every other writer should
   * go): a new definition, or one whose command, arguments or environment changed, is saved only after main
   * confirmed it with the person (showing exactly what will run), and is then trusted to start.
   */
  save(draft: AgentDraft, secrets?: Record<string, string>): Promise<Result<{ agent: AgentDefinitionView }>>
  handlers: AgentConfigHandlers
  /** Resolves once pending change events were sent (tests). */
  flush(): Promise<void>
  dispose(): void
}

export async function createAgentConfigService(options: AgentConfigServiceOptions): Promise<AgentConfigService> {
  const log = options.logger ?? createLogger('agents-config')
  const baseEnv = options.baseEnv ?? process.env
  const secrets = options.secretStore ?? createKeytarSecretStore()
  const disposables = new DisposableStore()
  const confirmation = options.confirmation ?? refuseAllConfirmation(log)
  const launchTrust = new LaunchTrustStore(options.home, log.child('trust'))
  await launchTrust.load()
  const definitions = disposables.add(
    new AgentDefinitionStore({
      home: options.home,
      // Hand edits and another Bosun's saves are picked up while this one runs.
      watch: true,
      onWatchFailed: (error) => log.warn(`cannot watch ${options.home} for edits of agents.json (it is read every 2 s instead)`, error),
      deleteSecrets: async (agentId) => {
        const removed = await secrets.deleteAll(agentId)
        if (!removed.ok) log.warn(`could not delete the secrets of ${agentId}: ${removed.error.message}`)
      },
    }),
  )

  /** How often each agent's secrets were stored or removed since Bosun started (part of its launch identity). */
  const secretRevisions = new Map<string, number>()
  const secretsEmitter = disposables.add(new Emitter<string>())
  const secretsWritten = (agentId: string) => {
    secretRevisions.set(agentId, (secretRevisions.get(agentId) ?? 0) + 1)
    secretsEmitter.fire(agentId)
  }
  const identityOf = (def: AgentDefinition) => `${launchIdentityHash(def)}#${secretRevisions.get(def.id) ?? 0}`
  disposables.add(
    definitions.onDidChange(() => {
      for (const id of secretRevisions.keys()) if (!definitions.get(id)) secretRevisions.delete(id)
    }),
  )

  const report = await definitions.load()
  if (report.status === 'corrupt' || report.status === 'partial') log.warn(`${report.message} (backup: ${report.backupPath ?? 'none'})`)

  async function secretsSetOf(def: AgentDefinition): Promise<Record<string, boolean>> {
    const set: Record<string, boolean> = {}
    for (const name of def.secretEnv) {
      const has = await secrets.has(def.id, name)
      Object.defineProperty(set, name, { value: has.ok && has.value, enumerable: true, writable: true, configurable: true })
    }
    return set
  }

  async function toView(def: AgentDefinition): Promise<AgentDefinitionView> {
    // Field by field: unknown fields from a newer Bosun stay in main.
    const view: AgentDefinitionView = {
      id: def.id,
      name: def.name,
      command: def.command,
      args: [...def.args],
      argsText: joinArgs(def.args),
      env: { ...def.env },
      secretEnv: [...def.secretEnv],
      secretsSet: await secretsSetOf(def),
    }
    if (def.defaultCwd !== undefined) view.defaultCwd = def.defaultCwd
    if (def.protocolVersion !== undefined) view.protocolVersion = def.protocolVersion
    if (def.defaultMode !== undefined) view.defaultMode = def.defaultMode
    if (def.defaultConfigOptions !== undefined) view.defaultConfigOptions = { ...def.defaultConfigOptions }
    if (def.presetId !== undefined) view.presetId = def.presetId
    return view
  }

  async function listing() {
    const last = definitions.lastLoadReport
    const warning =
      last.status === 'corrupt' || last.status === 'partial' ? { status: last.status, message: last.message, backupPath: last.backupPath } : null
    const agents: AgentDefinitionView[] = []
    for (const def of definitions.list()) agents.push(await toView(def))
    return { agents, warning }
  }

  // Change events are computed asynchronously (secretsSet asks the keychain); a chain keeps them in order.
  let emitting: Promise<void> = Promise.resolve()
  const emitChanged = () => {
    if (!options.events || disposables.isDisposed) return
    const events = options.events
    emitting = emitting.then(async () => {
      if (disposables.isDisposed) return
      try {
        events.emit('agentDefinitionsChanged', await listing())
      } catch (error) {
        log.error('could not publish agentDefinitionsChanged', error)
      }
    })
  }
  disposables.add(definitions.onDidChange(() => emitChanged()))
  // A removed agent's confirmation goes with it: a new agent reusing the id is asked about again.
  disposables.add(
    definitions.onDidChange((change) => {
      if (change.removed) void launchTrust.retain(new Set(change.definitions.map((d) => d.id)))
    }),
  )

  const presets: AgentPresetView[] = AGENT_PRESETS.map((p) => ({
    id: p.id,
    name: p.name,
    description: p.description,
    command: p.command,
    args: [...p.args],
    argsText: joinArgs(p.args),
    env: { ...p.env },
    secretEnv: [...p.secretEnv],
    ...(p.docsUrl ? { docsUrl: p.docsUrl } : {}),
    ...(p.protocolVersion ? { protocolVersion: p.protocolVersion } : {}),
    needs: p.needs.map((n) => ({ ...n })),
  }))

  const invalid = (errors: AgentFieldErrors) =>
    fail({ kind: 'invalid-argument', message: Object.values(errors)[0] ?? 'The agent definition is invalid', data: errors })

  async function save(draft: AgentDraft, values: Record<string, string> | undefined): Promise<Result<{ agent: AgentDefinitionView }>> {
    const existing = definitions.list()
    const previous = draft.id !== undefined ? existing.find((d) => d.id === draft.id) : undefined
    if (draft.id !== undefined && !previous) return fail({ kind: 'not-found', message: `No agent with id ${draft.id}` })
    const checked = await validateDraft(draft, { existing, env: baseEnv })
    const errors = { ...checked.errors, ...validateSecretNames(draft, values) }
    if (Object.keys(errors).length > 0 || !checked.argv) return invalid(errors)

    const id = previous?.id ?? definitions.newId(draft.name)
    const def = draftToDefinition(draft, id, checked.argv)
    const toStore = Object.entries(values ?? {})
    if (toStore.length > 0) {
      // Check first: with no keychain nothing is saved at all (a definition without its key would mislead).
      const status = await secrets.status()
      if (!status.available) return fail({ kind: 'keychain-unavailable', message: status.message })
    }
    // What runs is new or changed: main shows it exactly and the person confirms, or nothing is saved.
    const launchChanged = !previous || !sameLaunch(previous, def)
    if (launchChanged) {
      const changed = previous ? changedParts(previous, def) : []
      const answer = await confirmation.confirm({
        kind: 'agent-definition',
        title: previous ? 'Change an agent' : 'Add an agent',
        message: previous
          ? `Save the new ${changed.join(', ')} of the agent ${quoteExact(def.name)}? Bosun will run exactly this when it starts the agent.`
          : `Add the agent ${quoteExact(def.name)}? Bosun will run exactly this when it starts the agent.`,
        detail: describeLaunch({ ...def, cwd: def.defaultCwd }),
        confirmLabel: previous ? 'Save changes' : 'Add agent',
      })
      if (!answer.confirmed) return fail({ kind: 'not-confirmed', message: 'Not saved: the command was not confirmed.' })
    }
    // A default mode that lets the agent act without asking, new here, would set every session it starts so.
    // (A value so named, any value but off of an option so named, or an option so named turned on.)
    const unattended = (d: AgentDefinition | undefined): UnattendedChoice[] =>
      [...(d?.defaultMode !== undefined ? [[undefined, d.defaultMode] as const] : []), ...Object.entries(d?.defaultConfigOptions ?? {})]
        .map(([configId, value]) => unattendedDefault(configId, value))
        .filter((choice) => choice !== null)
    const previousDefaults = new Set(unattended(previous).map((c) => c.id))
    for (const choice of unattended(def)) {
      if (previousDefaults.has(choice.id)) continue
      if (!(await confirmUnattendedMode(confirmation, choice, { agentName: def.name }))) {
        return fail({ kind: 'not-confirmed', message: 'Not saved: the default mode was not confirmed.' })
      }
    }
    const stored: string[] = []
    for (const [name, value] of toStore) {
      const result = await secrets.set(id, name, value)
      if (!result.ok) {
        if (!previous) for (const done of stored) await secrets.delete(id, done)
        return result
      }
      stored.push(name)
    }
    if (previous && stored.length > 0) secretsWritten(id)
    const saved = await definitions.save(def)
    if (!saved.ok) {
      if (!previous) await secrets.deleteAll(id)
      return saved
    }
    if (launchChanged) await launchTrust.trust(id, saved.value)
    // A name dropped from secretEnv would otherwise leave its value orphaned in the keychain.
    for (const name of previous?.secretEnv ?? []) {
      if (!def.secretEnv.includes(name)) await secrets.delete(id, name)
    }
    // The store's own change event raced the secret writes for an update; publish the final state too.
    if (previous && toStore.length > 0) emitChanged()
    return ok({ agent: await toView(saved.value) })
  }

  /** `Result<void>` as the contract's `undefined` answer. */
  const done = (result: Result<void>): Result<undefined> => (result.ok ? ok(undefined) : result)

  const handlers: AgentConfigHandlers = {
    listAgentDefinitions: async () => {
      await definitions.refresh()
      return ok(await listing())
    },
    listPresets: async () => ok(presets.map((p) => structuredClone(p))),
    saveAgentDefinition: async ({ draft, secrets: values }) => save(draft, values),
    removeAgentDefinition: async ({ agentId }) => done(await definitions.remove(agentId)),
    validateAgentDefinition: async ({ draft }) => {
      const checked = await validateDraft(draft, { existing: definitions.list(), env: baseEnv })
      return ok({ errors: checked.errors, argv: checked.argv })
    },
    deleteAgentSecret: async ({ agentId, name }) => {
      const def = definitions.get(agentId)
      if (!def) return fail({ kind: 'not-found', message: `No agent with id ${agentId}` })
      const removed = await secrets.delete(agentId, name)
      if (removed.ok) {
        secretsWritten(agentId)
        emitChanged()
      }
      return done(removed)
    },
    getKeychainStatus: async () => {
      const status = await secrets.status()
      // The reason only: the views say in their own words that the keychain is not available, and said it twice with the whole message.
      return ok(status.available ? { available: true } : { available: false, message: status.reason ?? status.message })
    },
  }

  /** Asks before the first start of a launch the person never confirmed for this agent. */
  async function confirmLaunch(def: AgentDefinition): Promise<Result<void>> {
    if (launchTrust.isTrusted(def.id, def)) return ok(undefined)
    const answer = await confirmation.confirm({
      kind: 'agent-start',
      title: 'Start an agent',
      message: `Start the agent ${quoteExact(def.name)}? Bosun has not run this command for it before (new, changed, or edited outside Bosun).`,
      detail: describeLaunch({ ...def, cwd: def.defaultCwd }),
      confirmLabel: 'Start agent',
    })
    if (!answer.confirmed) return fail({ kind: 'not-confirmed', message: `${def.name} was not started: its command was not confirmed.` })
    // The definition may have changed while the dialog was up: what was confirmed is what may run, nothing else.
    const current = definitions.get(def.id)
    if (!current || !sameLaunch(current, def)) return fail({ kind: 'not-confirmed', message: `${def.name} changed while Bosun asked; not started.` })
    await launchTrust.trust(def.id, def)
    return ok(undefined)
  }

  return {
    definitions,
    secrets,
    async launchSpec(agentId) {
      const def = definitions.get(agentId)
      if (!def) return fail({ kind: 'not-found', message: `No agent with id ${agentId}` })
      const confirmed = await confirmLaunch(def)
      if (!confirmed.ok) return confirmed
      // Before the keychain is read: a secret written meanwhile counts as not reaching this start.
      const launchIdentity = identityOf(def)
      const started = { command: def.command, args: [...def.args], env: { ...def.env }, secretEnv: [...def.secretEnv], keyRevision: secretRevisions.get(def.id) ?? 0 }
      const resolved = await secrets.resolveEnv(def.id, def.secretEnv)
      if (!resolved.ok && resolved.error.kind === 'keychain-unavailable' && def.secretEnv.length > 0) {
        log.warn(`${def.name} starts without ${def.secretEnv.join(', ')}: ${resolved.error.message}`)
        return ok({ ...resolveLaunch(def, {}, baseEnv), launchIdentity, started, withoutKeys: { names: [...def.secretEnv], reason: resolved.error.message } })
      }
      if (!resolved.ok) return resolved
      return ok({ ...resolveLaunch(def, resolved.value, baseEnv), launchIdentity, started })
    },
    launchIdentity(agentId) {
      const def = definitions.get(agentId)
      return def ? identityOf(def) : undefined
    },
    launchChanges(agentId, running) {
      const def = definitions.get(agentId)
      if (!def || running.launchIdentity === undefined || running.launchIdentity === identityOf(def)) return undefined
      const { started } = running
      return started ? describeLaunchChanges(started, def, started.keyRevision !== (secretRevisions.get(def.id) ?? 0)) : []
    },
    onDidChangeSecrets: secretsEmitter.event,
    async secretValues(agentId) {
      const def = definitions.get(agentId)
      if (!def) return fail({ kind: 'not-found', message: `No agent with id ${agentId}` })
      return secrets.resolveEnv(def.id, def.secretEnv)
    },
    secretsChanged: (agentId) => {
      secretsWritten(agentId)
      emitChanged()
    },
    save: (draft, values) => save(draft, values),
    handlers,
    flush: async () => {
      // Loop: an emission may have been queued while we waited.
      let seen: Promise<void>
      do {
        seen = emitting
        await seen
      } while (seen !== emitting)
      // The trusted launches (trusted-agents.json) reach the disk too.
      await launchTrust.flush()
    },
    dispose: () => disposables.dispose(),
  }
}
