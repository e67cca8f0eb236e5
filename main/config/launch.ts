/**
 * What to spawn for an agent definition: command, argv, cwd and the *complete* environment.
 *
 * The environment is built, not inherited: a scrubbed copy of Bosun's own environment (the allow-list
 * below), then the definition's plain `env`, then this agent's keychain secrets. Anything else Bosun
 * was started with — other API keys, tokens, `BOSUN_*`, `ELECTRON_*`, `NODE_OPTIONS` — stays out, so an
 * agent only sees what it was given. The result goes straight to the child process; it must never be
 * logged, sent to the renderer, or reused for another agent or a terminal.
 */
import { homedir } from 'node:os'
import { launchIdentityHash, type LaunchIdentity } from '../trust/launch-trust'
import type { AgentDefinition } from './agent-definitions'

/**
 * Variables passed through from Bosun's environment, exactly as named:
 * - the user and their shell: PATH, HOME, USER, LOGNAME, SHELL, TERM, COLORTERM, TZ
 * - language: LANG, LANGUAGE (and every `LC_*`)
 * - temp and desktop folders: TMPDIR, TMP, TEMP (and every `XDG_*`)
 * - the desktop session, so an agent can open a login page or use its own keychain entry:
 *   DISPLAY, WAYLAND_DISPLAY, DBUS_SESSION_BUS_ADDRESS
 * - SSH_AUTH_SOCK (a socket, not a key: agents run `git` over ssh)
 * - network settings agents need behind a proxy or a corporate CA: HTTP(S)_PROXY, ALL_PROXY, NO_PROXY
 *   (both cases), NODE_EXTRA_CA_CERTS, SSL_CERT_FILE, SSL_CERT_DIR
 * - Windows essentials: SystemRoot, SystemDrive, windir, ComSpec, PATHEXT, USERPROFILE, APPDATA,
 *   LOCALAPPDATA, ProgramData, ProgramFiles, ProgramFiles(x86), HOMEDRIVE, HOMEPATH, USERNAME, NUMBER_OF_PROCESSORS
 */
export const ENV_ALLOW_LIST: readonly string[] = [
  'PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'TERM', 'COLORTERM', 'TZ',
  'LANG', 'LANGUAGE',
  'TMPDIR', 'TMP', 'TEMP',
  'DISPLAY', 'WAYLAND_DISPLAY', 'DBUS_SESSION_BUS_ADDRESS',
  'SSH_AUTH_SOCK',
  'HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY', 'NO_PROXY', 'http_proxy', 'https_proxy', 'all_proxy', 'no_proxy',
  'NODE_EXTRA_CA_CERTS', 'SSL_CERT_FILE', 'SSL_CERT_DIR',
  'SystemRoot', 'SystemDrive', 'windir', 'ComSpec', 'PATHEXT', 'USERPROFILE', 'APPDATA', 'LOCALAPPDATA',
  'ProgramData', 'ProgramFiles', 'ProgramFiles(x86)', 'HOMEDRIVE', 'HOMEPATH', 'USERNAME', 'NUMBER_OF_PROCESSORS',
]

/** Prefixes passed through: locale categories and the XDG base/runtime folders. */
export const ENV_ALLOW_PREFIXES: readonly string[] = ['LC_', 'XDG_']

export interface LaunchSpec {
  command: string
  args: string[]
  /** The complete environment for the child (do not merge it with process.env). */
  env: Record<string, string>
  cwd: string
  /**
   * The keys the agent's definition lists (`secretEnv`) that it starts without, because the keychain could not be
   * read, and what the keychain said. Its sessions say so (an agent can often sign in another way).
   */
  withoutKeys?: { names: string[]; reason: string }
  /** The definition's command, arguments, environment and secret names, hashed: what a saved change is compared with. */
  launchIdentity?: string
  /**
   * The definition's parts that {@link launchIdentity} hashes, as they were at this start, and how many times its keys
   * were set or removed before it: what a saved change is described against ("the new arguments").
   */
  started?: LaunchIdentity & { readonly keyRevision: number }
}

/** The allow-listed part of `baseEnv`. Windows names compare case-insensitively, as Windows does. */
export function scrubEnv(baseEnv: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): Record<string, string> {
  const allowed = new Set(platform === 'win32' ? ENV_ALLOW_LIST.map((n) => n.toUpperCase()) : ENV_ALLOW_LIST)
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(baseEnv)) {
    if (value === undefined) continue
    const key = platform === 'win32' ? name.toUpperCase() : name
    if (allowed.has(key) || ENV_ALLOW_PREFIXES.some((p) => key.startsWith(p))) out[name] = value
  }
  return out
}

/**
 * The spawn parameters for `def`. `secrets` must be this agent's own (from
 * `SecretStore.resolveEnv(def.id, def.secretEnv)`); only names listed in `def.secretEnv` are used.
 */
export function resolveLaunch(
  def: AgentDefinition,
  secrets: Readonly<Record<string, string>>,
  baseEnv: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): LaunchSpec {
  const env = scrubEnv(baseEnv, platform)
  Object.assign(env, def.env)
  for (const name of def.secretEnv) {
    // Own properties only: a secret named `constructor` must not read Object.prototype's.
    const value = Object.hasOwn(secrets, name) ? secrets[name] : undefined
    if (typeof value === 'string') Object.defineProperty(env, name, { value: value, enumerable: true, writable: true, configurable: true })
  }
  const cwd = def.defaultCwd ?? baseEnv.HOME ?? baseEnv.USERPROFILE ?? homedir()
  return { command: def.command, args: [...def.args], env, cwd, launchIdentity: launchIdentityHash(def) }
}
