/**
 * As-you-type validation of the add/edit agent form, and the conversion of a valid draft into an
 * {@link AgentDefinition}. Everything is reported as `field → message` so the form can show each message
 * beside its field; nothing here throws for bad input.
 */
import { promises as fs } from 'node:fs'
import { delimiter, isAbsolute, join, resolve } from 'node:path'
import type { AgentDraft, AgentFieldErrors } from '../../common/contract/agents'
import { ENV_NAME_PATTERN, type AgentDefinition } from './agent-definitions'
import { splitArgs } from './split-args'
import { isExecutableFile, unrunnableReason } from './unrunnable'
import { KNOWN_AGENTS, RENAMED_AGENT_COMMANDS } from './known-agents'

export interface ValidationContext {
  /** The saved definitions (for unique names). */
  existing: readonly AgentDefinition[]
  /** Where PATH comes from; Bosun's own environment by default. */
  env?: NodeJS.ProcessEnv
  platform?: NodeJS.Platform
}

export interface DraftValidation {
  errors: AgentFieldErrors
  /** The split arguments, null when they do not split. */
  argv: string[] | null
}

export async function validateDraft(draft: AgentDraft, context: ValidationContext): Promise<DraftValidation> {
  const errors: AgentFieldErrors = {}
  const name = draft.name.trim()
  if (!name) errors.name = 'Give the agent a name'
  else if (name.length > 200) errors.name = 'Keep the name under 200 characters'
  else if (context.existing.some((d) => d.id !== draft.id && d.name.trim().toLocaleLowerCase() === name.toLocaleLowerCase()))
    errors.name = 'Another agent already has this name'

  const split = splitArgs(draft.argsText)
  if (!split.ok) errors.args = split.message

  const cwd = draft.defaultCwd.trim()
  let cwdOk = false
  if (cwd) {
    if (!isAbsolute(cwd)) errors.defaultCwd = 'Use an absolute path'
    else if (!(await isDirectory(cwd))) errors.defaultCwd = 'This folder does not exist'
    else cwdOk = true
  }

  const commandError = await checkCommand(draft.command.trim(), cwdOk ? cwd : null, context)
  if (commandError) errors.command = commandError

  const plainNames = new Map<string, number>()
  draft.env.forEach((row, i) => {
    const rowName = row.name.trim()
    if (!rowName && !row.value) return // an empty row the form keeps for typing into
    if (!rowName) errors[`env.${i}`] = 'Name this variable'
    else if (!ENV_NAME_PATTERN.test(rowName)) errors[`env.${i}`] = 'Use letters, digits and _, not starting with a digit'
    else if (plainNames.has(rowName)) errors[`env.${i}`] = `${rowName} is already set above`
    else plainNames.set(rowName, i)
  })

  const secretNames = new Set<string>()
  draft.secretEnv.forEach((raw, i) => {
    const secretName = raw.trim()
    if (!secretName) return
    if (!ENV_NAME_PATTERN.test(secretName)) errors[`secretEnv.${i}`] = 'Use letters, digits and _, not starting with a digit'
    else if (secretNames.has(secretName)) errors[`secretEnv.${i}`] = `${secretName} is already listed`
    else if (plainNames.has(secretName)) errors[`secretEnv.${i}`] = `${secretName} is also a plain variable; keep it in one place`
    secretNames.add(secretName)
  })

  return { errors, argv: split.ok ? split.argv : null }
}

/** Checks that the secrets to store are named in the draft (a value for an unknown name would be orphaned). */
export function validateSecretNames(draft: AgentDraft, secrets: Record<string, string> | undefined): AgentFieldErrors {
  const errors: AgentFieldErrors = {}
  const names = new Set(draft.secretEnv.map((n) => n.trim()))
  for (const key of Object.keys(secrets ?? {})) {
    if (!names.has(key)) errors[`secrets.${key}`] = `${key} is not one of this agent's secret variables`
  }
  return errors
}

/** The definition a valid draft describes (call only when {@link validateDraft} found no errors). */
export function draftToDefinition(draft: AgentDraft, id: string, argv: string[]): AgentDefinition {
  const env: Record<string, string> = {}
  for (const row of draft.env) if (row.name.trim()) env[row.name.trim()] = row.value
  const def: AgentDefinition = {
    id,
    name: draft.name.trim(),
    command: draft.command.trim(),
    args: argv,
    env,
    secretEnv: [...new Set(draft.secretEnv.map((n) => n.trim()).filter(Boolean))],
  }
  if (draft.defaultCwd.trim()) def.defaultCwd = draft.defaultCwd.trim()
  if (draft.protocolVersion !== undefined) def.protocolVersion = draft.protocolVersion
  if (draft.defaultMode) def.defaultMode = draft.defaultMode
  if (draft.defaultConfigOptions) def.defaultConfigOptions = draft.defaultConfigOptions
  if (draft.presetId) def.presetId = draft.presetId
  return def
}

/** Whether `command` names a file by its path (a folder in it), not a program to find on PATH. */
export const hasPathSeparator = (command: string, platform: NodeJS.Platform = process.platform): boolean =>
  command.includes('/') || (platform === 'win32' && command.includes('\\'))

/** Null when the command can be run, else what is wrong with it. */
async function checkCommand(command: string, cwd: string | null, context: ValidationContext): Promise<string | null> {
  if (!command) return 'Enter the program to run'
  if (/\s/.test(command) && !(await isExecutableFile(command))) return 'Put arguments in the arguments field, not here'
  const platform = context.platform ?? process.platform
  if (hasPathSeparator(command, platform)) {
    let full = command
    if (!isAbsolute(command)) {
      if (!cwd) return 'Use an absolute path, or set a default folder for a relative one'
      full = resolve(cwd, command)
    }
    if (!(await exists(full))) return `No file at ${full}`
    if (!(await isExecutableFile(full))) return `${full} is not an executable file`
    return platform === 'win32' ? null : sentence(await unrunnableReason(full))
  }
  const env = context.env ?? process.env
  const found = await findOnPath(command, env, platform)
  if (found) return platform === 'win32' ? null : sentence(await unrunnableReason(found))
  const likely = await likelyAgentCommand(command, env, platform)
  return likely ? `${command} was not found on PATH. Did you mean ${likely.command}? It is at ${likely.path}` : `${command} was not found on PATH`
}

/**
 * A known agent's command on PATH that the person probably meant by one that is not there: the name it has now for
 * a name it had before (`claude-code-acp`), or one a slip of the keyboard away (`opencod`, `gemnii`). Null when
 * none is installed, so the form never suggests a program this computer does not have.
 */
export async function likelyAgentCommand(command: string, env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): Promise<{ command: string; path: string } | null> {
  const name = command.toLowerCase()
  const renamed = Object.hasOwn(RENAMED_AGENT_COMMANDS, name) ? RENAMED_AGENT_COMMANDS[name] : undefined
  const candidates = renamed ? [renamed] : KNOWN_AGENTS.map((agent) => agent.command).filter((known) => name.length >= 4 && editDistance(name, known, 2) <= 2)
  for (const candidate of candidates) {
    const path = await findOnPath(candidate, env, platform)
    if (path) return { command: candidate, path }
  }
  return null
}

/**
 * Levenshtein distance with adjacent swaps counted as one edit (optimal string alignment), capped at `limit + 1`: it
 * stops as soon as a whole row is over `limit` (no later row can come back under it), and at once for lengths that
 * differ by more than `limit` or names longer than 64 characters.
 */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit || a.length > 64 || b.length > 64) return limit + 1
  let before: number[] = []
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let best = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, before[j - 2]! + 1)
      current.push(best)
    }
    if (Math.min(...current) > limit) return limit + 1
    before = previous
    previous = current
  }
  return Math.min(previous[b.length]!, limit + 1)
}

/** The first executable named `command` in the PATH entries of `env`, or null. */
export async function findOnPath(command: string, env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): Promise<string | null> {
  const pathValue = env.PATH ?? env.Path ?? ''
  const extensions = platform === 'win32' ? ['', ...(env.PATHEXT ?? '.EXE;.CMD;.BAT;.COM').split(';').filter(Boolean)] : ['']
  for (const dir of pathValue.split(platform === 'win32' ? ';' : delimiter)) {
    if (!dir || !isAbsolute(dir)) continue // a relative PATH entry depends on the cwd: ignore, as a careful shell would
    for (const ext of extensions) {
      const candidate = join(dir, command + ext)
      if (await isExecutableFile(candidate)) return candidate
    }
  }
  return null
}

const sentence = (text: string | null): string | null => (text ? text[0]!.toUpperCase() + text.slice(1) : null)

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await fs.stat(path)).isDirectory()
  } catch {
    return false
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await fs.stat(path)
    return true
  } catch {
    return false
  }
}
