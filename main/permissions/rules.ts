/**
 * Remembered decisions ("always allow" / "always reject"), as pure functions: making a rule from a
 * decision and matching a request against rules. The store (rule-store.ts) only persists them.
 *
 * Matching is deliberately narrow (default-deny, checklist J7): a rule matches only the same agent, the
 * same working folder, the same tool kind, and, where the rule names a command or paths, exactly those
 * (or, for hand-written prefix/folder patterns, whole words and whole path segments). A request carrying
 * more facts than the rule (a command where the rule has none) does not match.
 */
import { isAbsolute, normalize, resolve, sep } from 'node:path'
import type { PermissionRule } from '../../common/contract/permissions'
import type { PermissionFacts, PermissionOptionView } from './normalize'

export type { PermissionRule }
export type RuleDecision = PermissionRule['decision']

/** The option kinds that create a rule when chosen. */
export const REMEMBERING_KINDS: ReadonlySet<string> = new Set(['allow_always', 'reject_always'])

export interface RuleScope {
  agentId: string
  /** The session's working folder. */
  cwd: string
}

/** Shell metacharacters that could chain or redirect: a prefix rule never matches a remainder containing one. */
const SHELL_META = /[;&|`$<>()\\\n\r{}*?!~'"]/

const splitWords = (command: string): string[] => command.trim().split(/\s+/).filter((w) => w !== '')

/** Absolute, normalised path without a trailing separator (relative paths resolve against the session folder). */
export function normalizeRulePath(path: string, cwd: string): string {
  const absolute = isAbsolute(path) ? normalize(path) : resolve(cwd, path)
  return absolute.length > 1 && absolute.endsWith(sep) ? absolute.slice(0, -1) : absolute
}

export function matchCommand(pattern: NonNullable<PermissionRule['command']>, command: string): boolean {
  if (pattern.type === 'exact') return command.trim() === pattern.value.trim()
  const want = splitWords(pattern.value)
  const got = splitWords(command)
  if (want.length === 0 || got.length < want.length) return false
  for (let i = 0; i < want.length; i++) if (want[i] !== got[i]) return false
  // Whole words matched; the rest may add plain arguments only (no chaining, redirection or expansion).
  const rest = got.slice(want.length).join(' ')
  return !SHELL_META.test(rest)
}

export function matchPath(pattern: NonNullable<PermissionRule['paths']>[number], path: string, cwd: string): boolean {
  const target = normalizeRulePath(path, cwd)
  const base = normalizeRulePath(pattern.value, cwd)
  if (pattern.type === 'exact') return target === base
  const root = base.endsWith(sep) ? base : base + sep
  return target === base || target.startsWith(root)
}

/** Does `rule` cover a request with these facts, in this scope? */
export function ruleMatches(rule: PermissionRule, scope: RuleScope, facts: PermissionFacts): boolean {
  if (rule.agentId !== scope.agentId) return false
  if (normalizeRulePath(rule.cwd, '/') !== normalizeRulePath(scope.cwd, '/')) return false
  if (rule.toolKind !== facts.toolKind) return false
  if ((rule.command === null) !== (facts.command === null)) return false
  if (rule.command !== null && !matchCommand(rule.command, facts.command!)) return false
  const rulePaths = rule.paths ?? []
  if ((rulePaths.length === 0) !== (facts.paths.length === 0)) return false
  return facts.paths.every((path) => rulePaths.some((pattern) => matchPath(pattern, path, scope.cwd)))
}

export interface RuleAnswer {
  rule: PermissionRule
  option: PermissionOptionView
}

/**
 * The answer rules give to a request, or `null` to ask the person. A matching reject rule wins over an
 * allow rule; the chosen option is the offered option of exactly the rule's kind, so an unknown kind is
 * never auto-chosen, and if the winning kind is not offered the person is asked.
 */
export function answerByRules(
  rules: readonly PermissionRule[],
  scope: RuleScope,
  facts: PermissionFacts,
  options: readonly PermissionOptionView[],
): RuleAnswer | null {
  const matching = rules.filter((rule) => ruleMatches(rule, scope, facts))
  if (matching.length === 0) return null
  const rule = matching.find((r) => r.decision === 'reject_always') ?? matching[0]!
  const option = options.find((o) => o.kind === rule.decision)
  return option ? { rule, option } : null
}

/**
 * A rule for a decision the person just made, or `null` when the request is too vague to remember
 * safely (no tool kind, command or path: remembering it would cover unrelated requests).
 */
export function ruleFromDecision(input: {
  ruleId: string
  scope: RuleScope
  agentName: string
  facts: PermissionFacts
  decision: RuleDecision
  now: number
}): PermissionRule | null {
  const { facts, scope } = input
  if (facts.toolKind === null && facts.command === null && facts.paths.length === 0) return null
  if (!isAbsolute(scope.cwd)) return null
  const command = facts.command !== null ? { type: 'exact' as const, value: facts.command.trim() || facts.command } : null
  const paths = facts.paths.length > 0 ? facts.paths.slice(0, 64).map((p) => ({ type: 'exact' as const, value: normalizeRulePath(p, scope.cwd) })) : null
  return {
    ruleId: input.ruleId,
    agentId: scope.agentId,
    agentName: input.agentName,
    cwd: normalizeRulePath(scope.cwd, '/'),
    toolKind: facts.toolKind,
    decision: input.decision,
    command,
    paths,
    label: describeRule({ agentName: input.agentName, decision: input.decision, toolKind: facts.toolKind, command, paths, cwd: scope.cwd }),
    createdAt: input.now,
  }
}

function describeRule(r: Pick<PermissionRule, 'agentName' | 'decision' | 'toolKind' | 'command' | 'paths' | 'cwd'>): string {
  const verb = r.decision === 'allow_always' ? 'Always allow' : 'Always reject'
  const what = r.command ? `\`${truncate(r.command.value, 120)}\`` : r.paths ? r.paths.map((p) => truncate(p.value, 120)).join(', ') : 'any request'
  const kind = r.toolKind ? `${r.toolKind} ` : ''
  return `${verb} ${kind}${what} for ${r.agentName} in ${r.cwd}`
}

const truncate = (text: string, max: number): string => (text.length > max ? text.slice(0, max - 1) + '…' : text)
