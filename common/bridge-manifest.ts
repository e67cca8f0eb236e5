/**
 * How the sandboxed preload learns the contract's names without bundling zod (≈450 kB) into every window:
 * main builds this manifest from `calls`/`events` (still the one list) and passes it on the preload's
 * command line (`webPreferences.additionalArguments`, which lands in the renderer's `process.argv`).
 * No runtime imports here: this file is bundled into the preload.
 */

/** Call name → its IPC channel; subscription name (`onFoo`) → its event channel. */
export interface BridgeManifest {
  calls: Record<string, string>
  events: Record<string, string>
}

export const BRIDGE_ARG_PREFIX = '--bosun-bridge='

const CALL_PREFIX = 'bosun:call:'
const EVENT_PREFIX = 'bosun:event:'

export function encodeBridgeManifest(manifest: BridgeManifest): string {
  return BRIDGE_ARG_PREFIX + encodeURIComponent(JSON.stringify(manifest))
}

/** The manifest from argv, or null when it is missing or malformed (every channel must carry our prefix). */
export function decodeBridgeManifest(argv: readonly string[]): BridgeManifest | null {
  const arg = argv.find((a) => a.startsWith(BRIDGE_ARG_PREFIX))
  if (arg === undefined) return null
  let value: unknown
  try {
    value = JSON.parse(decodeURIComponent(arg.slice(BRIDGE_ARG_PREFIX.length)))
  } catch {
    return null
  }
  if (typeof value !== 'object' || value === null) return null
  const { calls, events } = value as Partial<BridgeManifest>
  const valid = (map: unknown, prefix: string): map is Record<string, string> =>
    typeof map === 'object' &&
    map !== null &&
    Object.entries(map).every(([name, channel]) => name.length > 0 && typeof channel === 'string' && channel.startsWith(prefix))
  return valid(calls, CALL_PREFIX) && valid(events, EVENT_PREFIX) ? { calls, events } : null
}
