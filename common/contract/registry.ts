import { z } from 'zod'
import { call, event } from './define'
import { agentDefinitionViewSchema } from './agents'

/**
 * Calls and events of the ACP Registry and first run: browse the registry (fetched, validated and cached in
 * main), install / update / uninstall its agents, the agents found already installed on this computer.
 *
 * Registry text is untrusted: main bounds it, and the renderer shows it as text. Icons cross only as
 * `data:` URLs of images main fetched and checked, for an `<img>`, never as markup.
 */

export const distributionKindSchema = z.enum(['binary', 'npx', 'uvx'])
export type DistributionKindView = z.infer<typeof distributionKindSchema>

export const registryAgentViewSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  version: z.string(),
  description: z.string(),
  license: z.string().optional(),
  authors: z.array(z.string()),
  repository: z.string().optional(),
  website: z.string().optional(),
  hasIcon: z.boolean(),
  /** Every distribution the entry lists. */
  distributions: z.array(distributionKindSchema),
  /** The ones this computer can use, best first (empty: nothing fits this OS/CPU). */
  usable: z.array(distributionKindSchema),
  installed: z
    .strictObject({
      agentId: z.string(),
      version: z.string(),
      kind: distributionKindSchema,
      /** The registry lists a newer version. */
      updateAvailable: z.boolean(),
    })
    .nullable(),
})
export type RegistryAgentView = z.infer<typeof registryAgentViewSchema>

export const registryListingSchema = z.strictObject({
  url: z.string(),
  /** Epoch ms of the copy shown. */
  fetchedAt: z.number(),
  /** `cache`: the registry could not be reached (`offlineReason`); this is the last copy. */
  source: z.enum(['network', 'cache']),
  offlineReason: z.string().optional(),
  agents: z.array(registryAgentViewSchema),
  /** Entries left out as invalid. */
  skipped: z.number(),
})
export type RegistryListing = z.infer<typeof registryListingSchema>

export const detectedAgentSchema = z.strictObject({
  /** The known agent (`claude`, `codex`, `gemini`, `goose`, `opencode`). */
  key: z.string(),
  name: z.string(),
  /** Where it was found on PATH. */
  path: z.string(),
  /** The command line a definition would use. */
  commandLine: z.string(),
  /** First line of `--version`, null when it did not answer in time (or is still being read). */
  version: z.string().nullable(),
  /** Its `--version` is still being read: ask again with `waitForVersions` for it. */
  versionPending: z.boolean().optional(),
  /** An agent definition already runs this command. */
  added: z.boolean(),
  /** What it needs before it works (a login or a key). */
  needs: z.array(z.string()),
})
export type DetectedAgent = z.infer<typeof detectedAgentSchema>

export const installProgressSchema = z.strictObject({
  registryId: z.string(),
  phase: z.enum(['checking', 'downloading', 'verifying', 'extracting', 'saving']),
  received: z.number().optional(),
  total: z.number().nullable().optional(),
})
export type InstallProgressView = z.infer<typeof installProgressSchema>

const registryId = z.string().min(1).max(64).regex(/^[a-z][a-z0-9-]*$/)

export const registryCalls = {
  /** The registry (network, else the cached copy). Fails only when there is neither. */
  getRegistry: call(z.strictObject({ refresh: z.boolean().optional() }), registryListingSchema),
  /** An entry's icon as a `data:image/…` URL (SVG or PNG, at most 64 KiB), null when it has none or it failed. */
  getRegistryIcon: call(z.strictObject({ registryId }), z.strictObject({ dataUrl: z.string().nullable() })),
  /**
   * Installs (or, when installed, updates in place) one registry agent; progress arrives as
   * `registryInstallProgress`. Refusals carry `data.reason`: `runner-missing`, `unsupported-platform`,
   * `no-distribution`, `download-failed`, `too-large`, `checksum-mismatch`, `unsafe-archive`,
   * `definition-refused`, `busy`; a cancel fails with kind `cancelled`.
   */
  installRegistryAgent: call(
    z.strictObject({ registryId, kind: distributionKindSchema.optional() }),
    z.strictObject({ agentId: z.string(), version: z.string(), kind: distributionKindSchema, updated: z.boolean() }),
  ),
  cancelRegistryInstall: call(z.strictObject({ registryId }), z.undefined()),
  /** Removes the definition (and its secrets) and the installed files. */
  uninstallRegistryAgent: call(z.strictObject({ registryId }), z.undefined()),
  getRegistrySettings: call(z.undefined(), z.strictObject({ url: z.string(), defaultUrl: z.string() })),
  /** Empty `url` = the default. Fails `invalid-argument` for anything but https (http only on this machine). */
  setRegistrySettings: call(z.strictObject({ url: z.string().max(4096) }), z.strictObject({ url: z.string() })),
  /**
   * Known agents found on PATH (each asked `--version` with a timeout and a scrubbed environment). Answers at once
   * with the versions read within a second (the others `versionPending`); `waitForVersions` waits for them.
   */
  detectAgents: call(z.strictObject({ waitForVersions: z.boolean().optional() }).optional(), z.strictObject({ agents: z.array(detectedAgentSchema) })),
  /** Adds a detected agent as a ready definition (offering ACP v1, which these agents speak). */
  addDetectedAgent: call(z.strictObject({ key: z.string().max(64) }), z.strictObject({ agent: agentDefinitionViewSchema })),
} as const

export const registryEvents = {
  registryInstallProgress: event(installProgressSchema),
} as const
