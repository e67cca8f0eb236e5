import { z } from 'zod'
import { boundedRecord, call, event, id } from './define'

/**
 * Calls and events of the agents domain: agent definitions, presets, keychain-held secrets.
 *
 * Secrets are write-only across this boundary: the renderer sends a value once (`saveAgentDefinition`'s
 * `secrets`) and only ever gets back whether a name is set (`secretsSet`), never the value.
 */

const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/).max(256)
const protocolVersion = z.union([z.literal(1), z.literal(2)])
/**
 * The most default config options one agent definition keeps. The one bound for both sides: the renderer's save
 * is checked against it here, and `main/config/agent-definitions.ts` applies it to what it reads from `agents.json`,
 * so a definition that loads can always be saved again from the editor.
 */
export const MAX_DEFAULT_CONFIG_OPTIONS = 200
const configOptions = boundedRecord(z.string().max(512), z.union([z.string().max(4096), z.boolean()]), MAX_DEFAULT_CONFIG_OPTIONS)

/**
 * The add/edit form as typed, before validation: arguments are one text (split with shell-like quoting in
 * main), env is rows (so a duplicate or half-typed row can be reported by position). `id` absent = new agent.
 */
export const agentDraftSchema = z.strictObject({
  id: id.optional(),
  name: z.string().max(1000),
  command: z.string().max(4096),
  argsText: z.string().max(65536),
  env: z.array(z.strictObject({ name: z.string().max(256), value: z.string().max(65536) })).max(200),
  secretEnv: z.array(z.string().max(256)).max(100),
  /** Empty = none. */
  defaultCwd: z.string().max(4096),
  protocolVersion: protocolVersion.optional(),
  defaultMode: z.string().max(512).optional(),
  defaultConfigOptions: configOptions.optional(),
  presetId: z.string().max(128).optional(),
})
export type AgentDraft = z.infer<typeof agentDraftSchema>

/**
 * Validation messages by field: `name`, `command`, `args`, `defaultCwd`, `env.<row>` (row index),
 * `secretEnv.<row>`, `secrets.<NAME>`; `_` for the form as a whole.
 */
export const fieldErrorsSchema = z.record(z.string(), z.string())
export type AgentFieldErrors = z.infer<typeof fieldErrorsSchema>

/** A saved definition as the renderer sees it: never a secret value, only whether each one is set. */
export const agentDefinitionViewSchema = z.strictObject({
  id,
  name: z.string(),
  command: z.string(),
  args: z.array(z.string()),
  /** `args` quoted back into one text that splits to exactly `args` (for the edit form). */
  argsText: z.string(),
  env: z.record(z.string(), z.string()),
  secretEnv: z.array(z.string()),
  secretsSet: z.record(z.string(), z.boolean()),
  defaultCwd: z.string().optional(),
  protocolVersion: protocolVersion.optional(),
  defaultMode: z.string().optional(),
  defaultConfigOptions: configOptions.optional(),
  presetId: z.string().optional(),
})
export type AgentDefinitionView = z.infer<typeof agentDefinitionViewSchema>

export const agentPresetSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  command: z.string(),
  args: z.array(z.string()),
  argsText: z.string(),
  env: z.record(z.string(), z.string()),
  secretEnv: z.array(z.string()),
  docsUrl: z.string().optional(),
  /** The ACP version a definition from this preset offers first. */
  protocolVersion: protocolVersion.optional(),
  /** What it needs before it works (`runtime`, `install`, `login`, `key`); text with `code spans`. */
  needs: z.array(z.strictObject({ kind: z.string(), text: z.string() })).optional(),
})
export type AgentPresetView = z.infer<typeof agentPresetSchema>

/** A problem found loading `agents.json` (kept aside as `backupPath`), for a banner. */
export const definitionsLoadWarningSchema = z.strictObject({
  status: z.enum(['corrupt', 'partial']),
  message: z.string(),
  backupPath: z.string().nullable(),
})
export type DefinitionsLoadWarning = z.infer<typeof definitionsLoadWarningSchema>

export const keychainStatusSchema = z.strictObject({
  available: z.boolean(),
  /** Why not, when unavailable (e.g. no Secret Service on the session bus). */
  message: z.string().optional(),
})
export type KeychainStatus = z.infer<typeof keychainStatusSchema>

const definitionsList = z.strictObject({
  agents: z.array(agentDefinitionViewSchema),
  warning: definitionsLoadWarningSchema.nullable(),
})

export const agentsCalls = {
  listAgentDefinitions: call(z.undefined(), definitionsList),
  listPresets: call(z.undefined(), z.array(agentPresetSchema)),
  /**
   * Creates or updates a definition. `secrets` (write-only) stores values for names in `draft.secretEnv`.
   * Invalid drafts fail with `invalid-argument` and `data: AgentFieldErrors`; secrets with no keychain fail
   * with `keychain-unavailable` and nothing is saved.
   */
  saveAgentDefinition: call(
    z.strictObject({ draft: agentDraftSchema, secrets: boundedRecord(envName, z.string().min(1).max(65536), 100).optional() }),
    z.strictObject({ agent: agentDefinitionViewSchema }),
  ),
  /** Removes the definition and every secret stored for it. */
  removeAgentDefinition: call(z.strictObject({ agentId: id }), z.undefined()),
  /** As-you-type checks (PATH lookup, quoting, names, folder). `argv` is the split arguments, null if they do not split. */
  validateAgentDefinition: call(
    z.strictObject({ draft: agentDraftSchema }),
    z.strictObject({ errors: fieldErrorsSchema, argv: z.array(z.string()).nullable() }),
  ),
  /** Unsets one secret; the name stays in `secretEnv`. */
  deleteAgentSecret: call(z.strictObject({ agentId: id, name: envName }), z.undefined()),
  getKeychainStatus: call(z.undefined(), keychainStatusSchema),
} as const

export const agentsEvents = {
  /** The definitions changed (saved, removed, reloaded, a secret set or unset). */
  agentDefinitionsChanged: event(definitionsList),
} as const
