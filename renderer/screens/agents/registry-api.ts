/**
 * The registry and first-run calls (`common/contract/registry.ts`) as the Agents screen uses them. Like
 * {@link agentTools}, a host (or a test fake) without them answers `not-available` instead of throwing.
 */
import type { BosunApi } from '../../../common/contract'

export type { DetectedAgent, InstallProgressView, RegistryAgentView, RegistryListing } from '../../../common/contract/registry'

const CALLS = [
  'getRegistry',
  'getRegistryIcon',
  'installRegistryAgent',
  'cancelRegistryInstall',
  'uninstallRegistryAgent',
  'getRegistrySettings',
  'setRegistrySettings',
  'detectAgents',
  'addDetectedAgent',
] as const
const EVENTS = ['onRegistryInstallProgress'] as const

export type RegistryApi = Pick<BosunApi, (typeof CALLS)[number] | (typeof EVENTS)[number]>

export function registryApi(api: BosunApi): RegistryApi {
  const source = api as unknown as Record<string, unknown>
  const out: Record<string, unknown> = {}
  for (const name of CALLS) {
    const fn = source[name]
    out[name] =
      typeof fn === 'function'
        ? (arg: unknown) => (fn as (a: unknown) => Promise<unknown>).call(api, arg)
        : () => Promise.resolve({ ok: false, error: { kind: 'not-available', message: 'This version of Bosun has no agent registry.' } })
  }
  for (const name of EVENTS) {
    const fn = source[name]
    out[name] = typeof fn === 'function' ? (listener: unknown) => (fn as (l: unknown) => () => void).call(api, listener) : () => () => undefined
  }
  return out as unknown as RegistryApi
}
