/**
 * Remembered decisions ("always allow" / "always reject"), as functions: making a rule from a decision,
 * matching a request against rules, migrating rules of the older format. The store (rule-store.ts) only
 * keeps them.
 *
 * A rule stores the identity of what was approved (subject-identity.ts) and matches only the same agent,
 * the same session folder, the same tool kind and the same identity: exact argv or command string and
 * working folder, the same resolved paths, the same fetch origin, the same tool name and title, and the
 * same not-understood raw-input fields. Hand-written `prefix`/`under` patterns in the file match whole words
 * without any command separator, and resolved paths at segment boundaries (default-deny, checklist J7).
 */
import { homedir } from 'node:os'
import { isAbsolute, normalize, resolve, sep } from 'node:path'
import { permissionRuleSchema, type PermissionRule } from '../../common/contract/permissions'
import type { PermissionOptionView } from './normalize'
import { isUnresolved, subjectClassOf, type SubjectIdentity } from './subject-identity'

export type { PermissionRule }
export type RuleDecision = PermissionRule['decision']

/** The option kinds that create a rule when chosen. */
export const REMEMBERING_KINDS: ReadonlySet<string> = new Set(['allow_always', 'reject_always'])

export interface RuleScope {
  agentId: string
  /** The session's working folder. */
  cwd: string
  /** Bosun's id of the session (session-scoped rules match only it). */
  sessionId?: string
}

/**
 * Characters that chain, redirect, substitute or expand in a shell: a command containing one is never
 * matched by a prefix pattern (newline, `;`, `&&`, `||`, `|`, backticks, `$(`, `<`, `>`, quotes, globs…).
 */
const SHELL_META_CHARS = /[;&|`$<>()\\\n\r\t\v\f{}*?!~'"#\u0085\u2028\u2029]/
const hasShellMeta = (text: string): boolean => SHELL_META_CHARS.test(text) || text.includes('\0')

const splitWords = (command: string): string[] => command.split(' ').filter((w) => w !== '')

/** Absolute, normalised path without a trailing separator (relative paths resolve against the session folder). */
export function normalizeRulePath(path: string, cwd: string): string {
  const absolute = isAbsolute(path) ? normalize(path) : resolve(cwd, path)
  return absolute.length > 1 && absolute.endsWith(sep) ? absolute.slice(0, -1) : absolute
}

/**
 * Does a command pattern cover the request's command? `exact` compares the string as sent (a string rule
 * never matches an argv, nor the reverse). `prefix` (hand-written) matches whole leading words of a command
 * that contains no shell metacharacter at all, or the leading elements of an argv whose rest has none.
 */
export function matchCommand(pattern: NonNullable<PermissionRule['command']>, command: SubjectIdentity['command']): boolean {
  if (command === null) return false
  if (pattern.type === 'exact') return command.type === 'string' && command.value === pattern.value
  const want = splitWords(pattern.value)
  if (want.length === 0 || want.some(hasShellMeta)) return false
  const got = command.type === 'string' ? (hasShellMeta(command.value) ? null : splitWords(command.value)) : command.value
  if (got === null || got.length < want.length) return false
  for (let i = 0; i < want.length; i++) if (want[i] !== got[i]) return false
  return got.slice(want.length).every((arg) => !hasShellMeta(arg))
}

/**
 * The path a pattern names, normalised without touching the disk: a rule's paths were resolved when it was
 * made, and following symlinks again now would let a file or folder swapped for a symlink carry the rule
 * elsewhere (a symlink in a hand-written pattern simply never matches: requests are resolved).
 */
const patternPath = (value: string, cwd: string): string => (isUnresolved(value) ? value : normalizeRulePath(value, cwd))

/** Does a path pattern cover a resolved request path? */
export function matchPath(pattern: NonNullable<PermissionRule['paths']>[number], path: string, cwd: string): boolean {
  if (isUnresolved(path)) return pattern.type === 'exact' && pattern.value === path
  const base = patternPath(pattern.value, cwd)
  if (pattern.type === 'exact') return path === base
  if (isUnresolved(base)) return false
  const root = base.endsWith(sep) ? base : base + sep
  return path === base || path.startsWith(root)
}

function matchPaths(rule: PermissionRule, paths: readonly string[], cwd: string): boolean {
  const patterns = rule.paths ?? []
  if (patterns.length === 0 || paths.length === 0) return patterns.length === 0 && paths.length === 0
  if (patterns.every((p) => p.type === 'exact')) {
    // Exact rules: the same set of files as approved, no more and no fewer.
    const wanted = new Set(patterns.map((p) => patternPath(p.value, cwd)))
    return wanted.size === paths.length && paths.every((p) => wanted.has(p))
  }
  return paths.every((path) => patterns.some((pattern) => matchPath(pattern, path, cwd)))
}

const sameTool = (a: PermissionRule['tool'], b: SubjectIdentity['tool']): boolean =>
  (a ?? null) === null ? b === null : b !== null && a!.name === b.name && a!.title === b.title

/** Does `rule` cover a request with this identity (resolved by subject-identity.ts), in this scope? Retired rules cover nothing. */
export function ruleMatches(rule: PermissionRule, scope: RuleScope, identity: SubjectIdentity): boolean {
  if (rule.format !== 2 || rule.retired) return false
  // An identity Bosun could not take in whole (ambiguous, too large) is matched by nothing.
  if (identity.remember.scope === 'never') return false
  if (rule.agentId !== scope.agentId) return false
  if (rule.sessionId && rule.sessionId !== scope.sessionId) return false
  if (normalizeRulePath(rule.cwd, '/') !== normalizeRulePath(scope.cwd, '/')) return false
  if (rule.toolKind !== identity.toolKind) return false
  // Command: the exact string, or the exact argv, or a hand-written prefix; and the same working folder.
  if (identity.subjectClass === 'command') {
    const byArgv = rule.argv ?? null
    if (byArgv !== null) {
      const cmd = identity.command
      if (cmd?.type !== 'argv' || cmd.value.length !== byArgv.length || cmd.value.some((arg, i) => arg !== byArgv[i])) return false
    } else if (rule.command === null) {
      if (identity.command !== null) return false
    } else if (!matchCommand(rule.command, identity.command)) return false
    if (identity.workdir !== normalizeRulePath(rule.workdir ?? rule.cwd, rule.cwd)) return false
  } else if (rule.command !== null || (rule.argv ?? null) !== null) return false
  if (!matchPaths(rule, identity.paths, scope.cwd)) return false
  if ((rule.origin ?? null) !== identity.origin) return false
  if (!sameTool(rule.tool, identity.tool)) return false
  if ((rule.extras?.digest ?? null) !== (identity.extras?.digest ?? null)) return false
  return true
}

export interface RuleAnswer {
  rule: PermissionRule
  option: PermissionOptionView
}

export { limitedToSession } from '../../common/permission-words'

/**
 * Whether the request offers more than one option of this kind (Gemini CLI's MCP tools: "Allow all server tools
 * for this session" and "Allow tool for this session", both `allow_always`). A rule keeps a kind, not an option,
 * so it cannot tell which one the person chose: such an answer is not kept, and no rule answers such a request.
 */
export function offeredMoreThanOnce(options: readonly { kind: string }[], kind: string): boolean {
  return options.filter((o) => o.kind === kind).length > 1
}

/**
 * The answer rules give to a request, or `null` to ask the person. A matching reject rule wins over an
 * allow rule. The request must offer the rule's kind exactly once (else the person is asked); the answer is the
 * offered "once" of that side (`allow_once` / `reject_once`, when offered exactly once), else that option. An
 * unknown kind is never auto-chosen.
 */
export function answerByRules(
  rules: readonly PermissionRule[],
  scope: RuleScope,
  identity: SubjectIdentity,
  options: readonly PermissionOptionView[],
): RuleAnswer | null {
  const matching = rules.filter((rule) => ruleMatches(rule, scope, identity))
  if (matching.length === 0) return null
  const rule = matching.find((r) => r.decision === 'reject_always') ?? matching[0]!
  if (offeredMoreThanOnce(options, rule.decision)) return null
  // Answered "once" where the agent offers it: Bosun's rule decides each request, and the agent takes no standing
  // leave of its own (often wider: claude-agent-acp remembers `npm run:*` for one command) from a request nobody saw.
  // A request that offers no "always" of the rule's kind is one the agent wants asked each time: it is asked.
  const always = options.find((o) => o.kind === rule.decision)
  if (!always) return null
  const once = rule.decision === 'allow_always' ? 'allow_once' : 'reject_once'
  const option = (offeredMoreThanOnce(options, once) ? undefined : options.find((o) => o.kind === once)) ?? always
  return { rule, option }
}

/**
 * A rule for a decision the person just made: the identity of what they saw, scoped to the session when
 * the identity does not tell the request apart from others; `null` when it cannot be remembered at all.
 */
export function ruleFromDecision(input: {
  ruleId: string
  scope: RuleScope
  agentName: string
  identity: SubjectIdentity
  decision: RuleDecision
  now: number
  sessionName?: string
}): PermissionRule | null {
  const { identity, scope } = input
  if (identity.remember.scope === 'never' || !isAbsolute(scope.cwd)) return null
  if (identity.remember.scope === 'session' && !scope.sessionId) return null
  const command = identity.command?.type === 'string' ? { type: 'exact' as const, value: identity.command.value } : null
  if (command && command.value === '') return null
  const rule: PermissionRule = {
    ruleId: input.ruleId,
    format: 2,
    agentId: scope.agentId,
    agentName: input.agentName.slice(0, 512),
    cwd: normalizeRulePath(scope.cwd, '/'),
    toolKind: identity.toolKind === null ? null : identity.toolKind.slice(0, 256),
    decision: input.decision,
    command,
    argv: identity.command?.type === 'argv' ? [...identity.command.value] : null,
    workdir: identity.workdir,
    paths: identity.paths.length > 0 ? identity.paths.map((value) => ({ type: 'exact' as const, value })) : null,
    origin: identity.origin,
    tool: identity.tool ? { name: clip(identity.tool.name, 1024), title: clip(identity.tool.title, 1024) } : null,
    extras: identity.extras,
    sessionId: identity.remember.scope === 'session' ? scope.sessionId! : null,
    retired: null,
    label: '',
    createdAt: input.now,
  }
  // A name or title longer than the rule can hold would be cut: such a rule could cover another tool.
  if (rule.tool && (rule.tool.name !== identity.tool!.name || rule.tool.title !== identity.tool!.title)) return null
  const labelled = { ...rule, label: describeRule(rule) }
  // What the store keeps must load again: a rule outside the file's bounds is not made (never cut to fit).
  return permissionRuleSchema.safeParse(labelled).success ? labelled : null
}

const clip = (text: string | null, max: number): string | null => (text === null ? null : text.length > max ? text.slice(0, max) : text)

/**
 * A rule of the older format (no `format`), as it would mean now: the same exact command or paths, with no
 * not-understood raw-input fields allowed; or retired with the reason, where it covered a whole tool kind
 * (fetches to any host, every MCP tool) or cannot be read unambiguously.
 */
export function migrateRule(rule: PermissionRule): PermissionRule {
  if (rule.format === 2) return { ...rule, label: describeRule(rule) }
  const subjectClass = subjectClassOf(rule.toolKind)
  const retire = (reason: string): PermissionRule => {
    const retired = { ...rule, format: 2 as const, retired: { reason } }
    return { ...retired, label: describeRule(retired) }
  }
  const kind = rule.toolKind ?? 'request'
  if (subjectClass === 'command') {
    if (rule.command === null) return retire(`It covered every ${kind} request of this agent in this folder, whatever the command.`)
    const paths = rule.paths ?? []
    if (paths.length > 1 || paths.some((p) => p.type !== 'exact')) return retire('Its command and folders cannot be told apart in the old format.')
    const migrated: PermissionRule = { ...rule, format: 2, argv: null, workdir: paths[0]?.value ?? null, paths: null, origin: null, tool: null, extras: null }
    return { ...migrated, label: describeRule(migrated) }
  }
  if (subjectClass === 'files' && rule.command === null && (rule.paths?.length ?? 0) > 0) {
    const migrated: PermissionRule = { ...rule, format: 2, argv: null, workdir: null, origin: null, tool: null, extras: null }
    return { ...migrated, label: describeRule(migrated) }
  }
  if (rule.command === null && (rule.paths?.length ?? 0) === 0) {
    return retire(`It covered every ${kind} request of this agent in this folder${subjectClass === 'fetch' ? ', to any address' : subjectClass === 'tool' ? ', whatever the tool' : ''}.`)
  }
  return retire('It does not name what it covers in a way Bosun can check now.')
}

// ---------------------------------------------------------------------------------------------------------
// Words: what a rule covers ("Always allow `npm test` in ~/src/app (Claude)").

const ACTION: Record<string, string> = { read: 'reading', edit: 'editing', delete: 'deleting', move: 'moving', search: 'searching' }

/** Shell-style quoting of one argv element, only where needed (for display). */
function quoteArg(arg: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`
}

export function describeRule(rule: PermissionRule, home: string = homedir()): string {
  const tilde = (path: string): string =>
    home.length > 1 && (path === home || path.startsWith(home + sep)) ? '~' + path.slice(home.length) : path
  const verb = rule.decision === 'allow_always' ? 'Always allow' : 'Always reject'
  const subjectClass = subjectClassOf(rule.toolKind)
  const paths = (rule.paths ?? []).map((p) => (p.type === 'under' ? `files inside ${tilde(p.value)}` : tilde(p.value)))
  let what: string
  if (rule.retired && rule.command === null && (rule.paths?.length ?? 0) === 0) {
    what = `every ${rule.toolKind ?? 'request'} request`
  } else if (rule.argv) {
    what = `\`${truncate(rule.argv.map(quoteArg).join(' '), 200)}\` (exactly these ${rule.argv.length} arguments) in ${tilde(rule.workdir ?? rule.cwd)}`
  } else if (rule.command) {
    const command = `\`${truncate(rule.command.value, 200)}\``
    what = `${rule.command.type === 'prefix' ? `commands starting with ${command}` : command} in ${tilde(rule.workdir ?? rule.cwd)}`
  } else if (subjectClass === 'command') {
    const shown = rule.tool?.title ?? rule.tool?.name
    what = shown
      ? `commands titled “${truncate(shown, 200)}” (Bosun could not see the command itself), in ${tilde(rule.workdir ?? rule.cwd)}`
      : `commands Bosun could not see, in ${tilde(rule.workdir ?? rule.cwd)}`
  } else if (subjectClass === 'files') {
    const action = ACTION[rule.toolKind ?? ''] ?? rule.toolKind
    what = paths.length > 0 ? `${action} ${truncate(paths.join(', '), 400)}` : `${action} files Bosun could not see`
  } else if (subjectClass === 'fetch') {
    what = rule.origin ? `fetching from ${truncate(rule.origin, 200)}` : 'fetching from an address Bosun could not see'
  } else {
    const name = rule.tool?.name ? `the tool “${truncate(rule.tool.name, 120)}”` : 'the tool'
    const title = rule.tool?.title && rule.tool.title !== rule.tool.name ? ` titled “${truncate(rule.tool.title, 160)}”` : ''
    what = `${name}${title}${rule.toolKind && rule.toolKind !== 'other' ? ` (${rule.toolKind})` : ''}`
  }
  if (subjectClass !== 'files' && paths.length > 0) what += ` on ${truncate(paths.join(', '), 300)}`
  const extras = rule.extras ? ` with the same ${truncate(rule.extras.keys.join(', '), 120)} as approved` : ''
  const session = rule.sessionId ? ', this session only' : ''
  return truncate(`${verb} ${what}${extras} (${rule.agentName}${session})`, 1024)
}

const truncate = (text: string, max: number): string => (text.length > max ? text.slice(0, max - 1) + '…' : text)
