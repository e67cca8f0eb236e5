/**
 * The identity of what a permission request asks for, per kind of subject: what an "always" rule stores
 * and what a later request must repeat to be answered by it (issue 10 §1).
 *
 * - Commands: the exact argv (or the exact string, where the agent sent a string) and the working folder.
 * - File operations (`read`, `edit`, `delete`, `move`, `search`): every path the request names (tool call
 *   locations and diffs, any path-valued raw-input field at any depth, file headers of patch text, path-looking
 *   object keys), resolved against the session folder, `..` removed and symlinks followed (`realpath`).
 * - Fetches: the origin of the URL.
 * - Any other tool (MCP tools arrive as `other`): its own name and title, never only its kind.
 *
 * Raw-input fields Bosun does not understand for that kind are not dropped: their canonical JSON is hashed
 * into `extras`, which a rule must repeat exactly. They can make a request miss a rule, never widen one.
 * Where no distinguishing fact can be extracted, `remember` says the rule can only be kept for this session.
 */
import { createHash } from 'node:crypto'
import { realpathSync } from 'node:fs'
import { basename, dirname, isAbsolute, join, normalize, resolve, sep } from 'node:path'
import type { PermissionFacts } from './normalize'

export type SubjectClass = 'command' | 'files' | 'fetch' | 'tool'

export type CommandIdentity = { type: 'string'; value: string } | { type: 'argv'; value: string[] }

export interface SubjectIdentity {
  toolKind: string | null
  subjectClass: SubjectClass
  command: CommandIdentity | null
  /** Resolved working folder of a command (the session folder when the request names none). */
  workdir: string | null
  /** Resolved paths, sorted, unique. A path Bosun could not resolve is kept as `unresolved:<raw>`. */
  paths: string[]
  /** `scheme://host:port` of a fetch (the whole URL for other schemes). */
  origin: string | null
  /** Tool identity of the `tool` class. */
  tool: { name: string | null; title: string | null } | null
  /** Hash and names of the raw-input fields not understood for this kind; `null` when there are none. */
  extras: { digest: string; keys: string[] } | null
  /**
   * How an "always" answer can be remembered: as a rule for this agent and folder, only for this session
   * (no distinguishing fact), or not at all (too large to store); `note` says why, in words for the dialog.
   */
  remember: { scope: 'rule' } | { scope: 'session' | 'never'; note: string }
}

export type RealPath = (path: string) => string

/** Limits: beyond them a request is not remembered (a truncated identity would cover more than was shown). */
export const IDENTITY_LIMITS = { paths: 64, path: 4096, argv: 256, text: 8192, name: 1024, kind: 256, nodes: 5000, depth: 32 } as const

const FILE_KINDS = new Set(['read', 'edit', 'delete', 'move', 'search'])
const UNRESOLVED = 'unresolved:'

export function subjectClassOf(toolKind: string | null): SubjectClass {
  if (toolKind === 'execute') return 'command'
  if (toolKind !== null && FILE_KINDS.has(toolKind)) return 'files'
  if (toolKind === 'fetch') return 'fetch'
  return 'tool'
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** Keys whose string values (or arrays of strings) are paths, at any depth. */
const PATH_KEY =
  /^(?:path|paths|file|files|filename|filenames|target|targets|source|sources|src|dest|destination|from|to|dir|dirs|directory|folder|root|cwd|workdir|working_directory)$|(?:path|paths|file|files|dir|directory|folder|_root|destination)$/i
const WORKDIR_KEYS = new Set(['cwd', 'workdir', 'working_directory', 'workingDirectory'])
const COMMAND_KEYS = ['command', 'cmd', 'argv']
/** Fields understood for every kind: prose and limits that do not change what is done. */
const PROSE_KEYS = new Set(['description', 'explanation', 'reason', 'justification', 'timeout', 'timeout_ms', 'timeoutMs'])
/** Fields understood for file operations besides paths: the content written or the range read. */
const FILE_KEYS = new Set([
  'content', 'contents', 'text', 'new_string', 'old_string', 'new_text', 'old_text', 'newText', 'oldText', 'newString', 'oldString',
  'replace_all', 'replaceAll', 'edits', 'changes', 'patch', 'diff', 'input', 'offset', 'limit', 'line', 'start_line', 'end_line',
  'encoding', 'pattern', 'query', 'glob', 'recursive',
])
const FETCH_KEYS = new Set(['url', 'uri', 'prompt'])
const TOOL_NAME_KEYS = ['tool_name', 'toolName']

/** Extracts the identity. `sessionCwd` is the session's absolute folder; `realpath` is injectable for tests. */
export function subjectIdentity(facts: PermissionFacts, sessionCwd: string, realpath: RealPath = realpathSync.native): SubjectIdentity {
  const toolKind = facts.toolKind
  const subjectClass = facts.commandSubject ? 'command' : subjectClassOf(toolKind)
  const raw = facts.rawInput
  const input: Record<string, unknown> = raw === undefined ? {} : isRecord(raw) ? raw : { '': raw }
  const understood = new Set<string>(PROSE_KEYS)
  let unrememberable: string | null = null
  const pathsRaw: string[] = [...facts.locations]

  // Every path the request names, wherever it is (paths in a command string are part of the exact command).
  const walk = walkPaths(input, subjectClass === 'command' ? new Set(COMMAND_KEYS) : new Set(), pathsRaw)
  // The tool call's diffs (v1 `path`, v2 `changes[].path`, patch text) name the files it changes.
  const diffs = facts.content.filter((item) => isRecord(item) && item.type === 'diff')
  const walkDiffs = diffs.length > 0 ? walkPaths({ diffs }, new Set(), pathsRaw) : 'ok'
  if (walk === 'too-large' || walkDiffs === 'too-large') unrememberable = 'its input is too large to remember exactly'

  let command: CommandIdentity | null = null
  let workdir: string | null = null
  let origin: string | null = null
  let tool: SubjectIdentity['tool'] = null

  if (subjectClass === 'command') {
    if (facts.commandSubject) {
      command = { type: 'string', value: facts.commandSubject.command }
      if (facts.commandSubject.cwd !== '') workdir = facts.commandSubject.cwd
    }
    if (command === null) {
      const parsed = commandOf(input)
      command = parsed.command
      for (const key of parsed.keys) understood.add(key)
    } else {
      // The subject's command is what the dialog shows; a raw input naming another command makes it ambiguous.
      const parsed = commandOf(input)
      if (parsed.command !== null && (parsed.command.type !== 'string' || parsed.command.value !== command.value)) {
        unrememberable = 'its command subject and its tool call name different commands'
      }
      for (const key of parsed.keys) understood.add(key)
    }
    for (const key of WORKDIR_KEYS) {
      const value = input[key]
      if (typeof value === 'string' && value !== '') {
        // A workdir named twice (subject and raw input, or two keys) must agree, else the request is ambiguous.
        if (workdir !== null && workdir !== value) unrememberable ??= 'it names two different working folders'
        workdir ??= value
        understood.add(key)
      }
    }
    workdir = resolvePath(workdir ?? sessionCwd, sessionCwd, realpath)
    // The working folder is the command's own fact, not one of its paths.
    removeOnce(pathsRaw, facts.commandSubject?.cwd)
    for (const key of WORKDIR_KEYS) if (typeof input[key] === 'string') removeOnce(pathsRaw, input[key] as string)
    if (command?.type === 'argv' && command.value.length > IDENTITY_LIMITS.argv) unrememberable = 'its command has too many arguments to remember'
    if (command?.type === 'string' && command.value === '') unrememberable = 'its command is empty'
    // No command to go by (Gemini CLI sends it only as the tool call's title): the title and name the person saw are
    // kept, so the session's rule answers that request again, not every command the agent runs in the session.
    if (command === null) tool = { name: facts.toolName, title: facts.toolTitle }
    if (command && (command.type === 'string' ? command.value.length : command.value.join(' ').length) > IDENTITY_LIMITS.text) {
      unrememberable = 'its command is too long to remember'
    }
  } else if (subjectClass === 'files') {
    for (const key of FILE_KEYS) if (key in input) understood.add(key)
  } else if (subjectClass === 'fetch') {
    for (const key of FETCH_KEYS) if (key in input) understood.add(key)
    const url = typeof input.url === 'string' ? input.url : typeof input.uri === 'string' ? input.uri : null
    if (url !== null) origin = originOf(url)
    if (typeof input.url === 'string' && typeof input.uri === 'string' && originOf(input.uri) !== origin) unrememberable ??= 'it names two different addresses'
  } else {
    let name = facts.toolName
    for (const key of TOOL_NAME_KEYS) {
      const value = input[key]
      if (typeof value === 'string' && value !== '') {
        understood.add(key)
        name = name === null || name === value ? value : `${name} / ${value}`
      }
    }
    tool = { name, title: facts.toolTitle }
  }

  // Path-valued fields are understood: their values are part of the identity.
  for (const key of Object.keys(input)) if (PATH_KEY.test(key) && isPathValue(input[key])) understood.add(key)

  const paths = [...new Set(pathsRaw.map((p) => resolvePath(p, sessionCwd, realpath)))].sort()
  if (paths.length > IDENTITY_LIMITS.paths) unrememberable = 'it names too many paths to remember'
  if (paths.some((p) => p.length > IDENTITY_LIMITS.path)) unrememberable = 'it names a path too long to remember'
  if (workdir !== null && isUnresolved(workdir)) unrememberable = 'Bosun cannot tell which folder the command runs in'
  if (workdir !== null && workdir.length > IDENTITY_LIMITS.path) unrememberable = 'its folder is too long to remember'
  if ((tool?.name?.length ?? 0) > IDENTITY_LIMITS.name || (tool?.title?.length ?? 0) > IDENTITY_LIMITS.name) unrememberable = 'its tool name or title is too long to remember'
  if ((toolKind?.length ?? 0) > IDENTITY_LIMITS.kind) unrememberable = 'its tool kind is too long to remember'

  const extraKeys = Object.keys(input).filter((key) => !understood.has(key)).sort()
  let extras: SubjectIdentity['extras'] = null
  if (extraKeys.length > 0) {
    const canonical = canonicalJson(Object.fromEntries(extraKeys.map((k) => [k, input[k]])), 0)
    if (canonical === null) unrememberable = 'its input is too deeply nested to remember exactly'
    else extras = { digest: createHash('sha256').update(canonical).digest('hex'), keys: extraKeys.slice(0, 64).map((k) => k.slice(0, 256)) }
  }

  // A mode switch's options (claude-agent-acp's plan approval: "Yes, and use auto mode", kind allow_always) choose
  // how the agent works from now on; they are not a decision to repeat for later requests.
  if (toolKind === 'switch_mode') unrememberable ??= 'it switches the agent’s mode, which is chosen each time'

  const vague = vagueness(subjectClass, { command, paths, origin, tool })
  const remember: SubjectIdentity['remember'] = unrememberable
    ? { scope: 'never', note: `“Always” will not be remembered for this request: ${unrememberable}. It answers this request only.` }
    : vague
      ? { scope: 'session', note: `“Always” will be remembered for this session only: ${vague}.` }
      : { scope: 'rule' }
  return { toolKind, subjectClass, command, workdir: subjectClass === 'command' ? workdir : null, paths, origin, tool, extras, remember }
}

/** Why the identity does not tell this request apart from others of its kind, or null when it does. */
function vagueness(subjectClass: SubjectClass, id: Pick<SubjectIdentity, 'command' | 'paths' | 'origin' | 'tool'>): string | null {
  switch (subjectClass) {
    case 'command':
      if (id.command !== null) return null
      return id.tool?.title || id.tool?.name
        ? 'Bosun cannot see which command the agent will run, so it answers only requests with this same title'
        : 'Bosun cannot see which command the agent will run'
    case 'files':
      return id.paths.length === 0 ? 'Bosun cannot see which files this is about' : null
    case 'fetch':
      return id.origin === null ? 'Bosun cannot see which address the agent will fetch' : null
    default:
      return id.tool?.name || id.tool?.title ? null : 'Bosun cannot tell this tool apart from other tools'
  }
}

function commandOf(input: Record<string, unknown>): { command: CommandIdentity | null; keys: string[] } {
  for (const key of COMMAND_KEYS) {
    const value = input[key]
    if (typeof value === 'string' && value !== '') {
      // `{command: "ls", args: ["-la"]}` is an argv, never the string "ls -la".
      const args = input.args
      if (Array.isArray(args) && args.every((a) => typeof a === 'string')) return { command: { type: 'argv', value: [value, ...args] }, keys: [key, 'args'] }
      if (args !== undefined) return { command: null, keys: [] }
      return { command: { type: 'string', value }, keys: [key] }
    }
    if (Array.isArray(value) && value.length > 0 && value.every((part) => typeof part === 'string')) {
      if (input.args !== undefined) return { command: null, keys: [] }
      return { command: { type: 'argv', value: [...value] }, keys: [key] }
    }
  }
  return { command: null, keys: [] }
}

const isPathValue = (value: unknown): boolean =>
  typeof value === 'string' || (Array.isArray(value) && value.every((v) => typeof v === 'string'))

/** Lines of patch text that name a file: apply_patch (`*** Update File:`), unified (`---`/`+++`) and git headers. */
const PATCH_HEADER =
  /^(?:\*\*\* (?:Add|Update|Delete) File: (.+)|\*\*\* Move to: (.+)|(?:---|\+\+\+) (?!\/dev\/null(?:\t|$))(?:[ab]\/)?([^\t]+?)(?:\t.*)?|diff --git a\/(\S+) b\/(\S+)|rename (?:from|to) (.+)|(?:new|deleted) file mode \d+.*)$/gm

/** Text that is a patch (apply_patch, git or unified diff), not prose that happens to contain `---`. */
const PATCH_TEXT = /^(?:\*\*\* Begin Patch|\*\*\* (?:Add|Update|Delete) File: |diff --git |--- .*\r?\n\+\+\+ )/m

/** Collects every path named in `value`; `skip` = top-level keys not to look into. */
function walkPaths(root: Record<string, unknown>, skip: ReadonlySet<string>, out: string[]): 'ok' | 'too-large' {
  let nodes = 0
  const visit = (value: unknown, key: string | null, depth: number): boolean => {
    if (++nodes > IDENTITY_LIMITS.nodes || depth > IDENTITY_LIMITS.depth) return false
    if (typeof value === 'string') {
      if (key !== null && PATH_KEY.test(key) && value !== '') out.push(value)
      else if (PATCH_TEXT.test(value)) {
        for (const match of value.slice(0, 4_000_000).matchAll(PATCH_HEADER)) {
          for (const path of match.slice(1)) if (path !== undefined && path.trim() !== '') out.push(path.trim())
        }
      }
      return true
    }
    if (Array.isArray(value)) {
      for (const item of value) if (!visit(item, key, depth + 1)) return false
      return true
    }
    if (isRecord(value)) {
      for (const [k, v] of Object.entries(value)) {
        if (depth === 0 && skip.has(k)) continue
        // Codex-style `changes: {"/abs/file": {...}}`: a path-looking key names a file.
        if (depth > 0 && (k.startsWith('/') || k.startsWith('./') || k.startsWith('../'))) out.push(k)
        if (!visit(v, k, depth + 1)) return false
      }
    }
    return true
  }
  return visit(root, null, 0) ? 'ok' : 'too-large'
}

function removeOnce(list: string[], value: string | undefined): void {
  if (value === undefined) return
  const index = list.indexOf(value)
  if (index >= 0) list.splice(index, 1)
}

/**
 * Absolute, `..`-free, symlink-resolved path (`realpath` of the deepest existing ancestor, then the rest).
 * A path Bosun cannot resolve the way the agent's tool would (`~`, NUL, a URL) stays `unresolved:<raw>`,
 * which only ever equals itself.
 */
export function resolvePath(path: string, base: string, realpath: RealPath = realpathSync.native): string {
  if (path.includes('\0') || path.startsWith('~') || /^[a-z][a-z0-9+.-]*:\/\//i.test(path) || !isAbsolute(base)) return UNRESOLVED + path
  let absolute = isAbsolute(path) ? normalize(path) : resolve(base, path)
  if (absolute.length > 1 && absolute.endsWith(sep)) absolute = absolute.slice(0, -1)
  let head = absolute
  const rest: string[] = []
  for (let i = 0; i < 256; i++) {
    try {
      const real = realpath(head)
      return rest.length > 0 ? join(real, ...rest.reverse()) : real
    } catch {
      const parent = dirname(head)
      if (parent === head) break
      rest.push(basename(head))
      head = parent
    }
  }
  return absolute
}

export const isUnresolved = (path: string): boolean => path.startsWith(UNRESOLVED)

/** `scheme://host:port` for http(s) (host lowercased, default port dropped, userinfo ignored), else the whole URL. */
export function originOf(url: string): string | null {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return null
  }
  if (parsed.protocol === 'http:' || parsed.protocol === 'https:') return parsed.origin
  return url.length <= IDENTITY_LIMITS.text ? url : null
}

/** JSON with object keys sorted at every depth; `null` past the depth limit. */
function canonicalJson(value: unknown, depth: number): string | null {
  if (depth > IDENTITY_LIMITS.depth) return null
  if (Array.isArray(value)) {
    const items = value.map((v) => canonicalJson(v, depth + 1))
    return items.includes(null) ? null : `[${items.join(',')}]`
  }
  if (isRecord(value)) {
    const parts: string[] = []
    for (const key of Object.keys(value).sort()) {
      const inner = canonicalJson(value[key], depth + 1)
      if (inner === null) return null
      parts.push(`${JSON.stringify(key)}:${inner}`)
    }
    return `{${parts.join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}
