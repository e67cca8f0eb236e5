import { describe, expect, it } from 'vitest'
import { answerByRules, describeRule, matchCommand, matchPath, migrateRule, ruleFromDecision, ruleMatches, type PermissionRule } from '../../../main/permissions/rules'
import type { PermissionFacts } from '../../../main/permissions/normalize'
import { resolvePath, subjectIdentity, type SubjectIdentity } from '../../../main/permissions/subject-identity'

const scope = { agentId: 'agent-a', cwd: '/proj', sessionId: 's1' }

/** A fake file system: `/proj/link` → `/etc`, `/proj/out` → `/`; nothing else is a symlink. */
const realpath = (path: string): string => {
  if (path === '/proj/link' || path.startsWith('/proj/link/')) return '/etc' + path.slice('/proj/link'.length)
  if (path === '/proj/out') return '/'
  if (path.startsWith('/missing')) throw Object.assign(new Error('ENOENT'), { code: 'ENOENT' })
  return path
}

const facts = (over: Partial<PermissionFacts> = {}): PermissionFacts => ({
  toolKind: 'execute',
  commandSubject: null,
  rawInput: { command: 'rm -rf /tmp' },
  toolName: null,
  toolTitle: null,
  locations: [],
  content: [],
  ...over,
})
const identity = (over: Partial<PermissionFacts> = {}): SubjectIdentity => subjectIdentity(facts(over), '/proj', realpath)

const offered = [
  { optionId: 'a1', name: 'Allow once', kind: 'allow_once' },
  { optionId: 'aa', name: 'Always', kind: 'allow_always' },
  { optionId: 'r1', name: 'Reject', kind: 'reject_once' },
  { optionId: 'ra', name: 'Never', kind: 'reject_always' },
]

function remembered(over: Partial<PermissionFacts> = {}, decision: PermissionRule['decision'] = 'allow_always'): PermissionRule {
  const rule = ruleFromDecision({ ruleId: 'r1', scope, agentName: 'Agent A', identity: identity(over), decision, now: 5 })
  if (!rule) throw new Error('no rule')
  return rule
}

const matches = (rule: PermissionRule, over: Partial<PermissionFacts>, s: Partial<typeof scope> = {}) =>
  ruleMatches(rule, { ...scope, ...s }, identity(over))

describe('subject identity', () => {
  it('commands: exact string or argv, and the resolved working folder', () => {
    expect(identity().command).toEqual({ type: 'string', value: 'rm -rf /tmp' })
    expect(identity({ rawInput: { command: ['rm', '-rf', 'build dir'] } }).command).toEqual({ type: 'argv', value: ['rm', '-rf', 'build dir'] })
    expect(identity({ rawInput: { command: 'rm', args: ['-rf', 'x'] } }).command).toEqual({ type: 'argv', value: ['rm', '-rf', 'x'] })
    expect(identity().workdir).toBe('/proj')
    expect(identity({ rawInput: { command: 'ls', cwd: 'link/ssh' } }).workdir).toBe('/etc/ssh')
    expect(identity({ commandSubject: { command: 'ls', cwd: '/proj/sub' }, rawInput: undefined }).workdir).toBe('/proj/sub')
    expect(identity().remember).toEqual({ scope: 'rule' })
  })

  it('file operations: every path named, resolved, from every field', () => {
    const id = identity({
      toolKind: 'move',
      rawInput: { source: 'a.ts', destination: '../etc/x', nested: { new_path: 'link/passwd' } },
      locations: ['/proj/a.ts'],
    })
    expect(id.paths).toEqual(['/etc/passwd', '/etc/x', '/proj/a.ts'])
    expect(id.extras?.keys).toEqual(['nested'])
    const patch = '*** Begin Patch\n*** Update File: src/a.ts\n@@\n-x\n+y\n*** Add File: /home/u/.bashrc\n*** End Patch\n'
    expect(identity({ toolKind: 'edit', rawInput: { patch } }).paths).toEqual(['/home/u/.bashrc', '/proj/src/a.ts'])
    const diff = 'diff --git a/x.ts b/y.ts\n--- a/x.ts\n+++ b/y.ts\n'
    expect(identity({ toolKind: 'edit', rawInput: { diff } }).paths).toEqual(['/proj/x.ts', '/proj/y.ts'])
    expect(identity({ toolKind: 'edit', rawInput: { changes: { '/proj/z.ts': { type: 'add', content: 'q' } } } }).paths).toEqual(['/proj/z.ts'])
    // Prose with "---" is not a patch.
    expect(identity({ toolKind: 'edit', rawInput: { file_path: 'a.md', content: 'Title\n--- notes\nmore' } }).paths).toEqual(['/proj/a.md'])
  })

  it('paths it cannot resolve stay opaque; a missing file resolves through its existing parent', () => {
    expect(resolvePath('~/x', '/proj', realpath)).toBe('unresolved:~/x')
    expect(resolvePath('/proj/link/new/file', '/proj', realpath)).toBe('/etc/new/file')
    expect(resolvePath('/missing/a', '/proj', realpath)).toBe('/missing/a')
    expect(resolvePath('sub/../../etc/passwd', '/proj', realpath)).toBe('/etc/passwd')
  })

  it('fetch: the origin; other tools: name and title; nothing distinguishing → this session only', () => {
    expect(identity({ toolKind: 'fetch', rawInput: { url: 'https://Example.com:443/a?b' } }).origin).toBe('https://example.com')
    expect(identity({ toolKind: 'fetch', rawInput: { url: 'https://example.com@169.254.169.254/' } }).origin).toBe('http://169.254.169.254'.replace('http:', 'https:'))
    expect(identity({ toolKind: 'other', toolName: 'mcp__gh__get_issue', toolTitle: 'Get issue', rawInput: { n: 1 } }).tool).toEqual({ name: 'mcp__gh__get_issue', title: 'Get issue' })
    for (const over of [{ toolKind: 'other', rawInput: undefined }, { toolKind: 'fetch', rawInput: {} }, { toolKind: 'edit', rawInput: {} }, { rawInput: {} }] as Partial<PermissionFacts>[]) {
      expect(identity(over).remember).toMatchObject({ scope: 'session', note: expect.stringContaining('this session only') })
    }
    expect(identity({ rawInput: { command: Array.from({ length: 300 }, () => 'x') } }).remember.scope).toBe('never')
  })

  it('what cannot be stored whole is never remembered, and never matched (no rule is cut to fit)', () => {
    const tooBig: Partial<PermissionFacts>[] = [
      { toolKind: 'edit', rawInput: { file_path: '/proj/' + 'a'.repeat(5000) } },
      { rawInput: { command: 'ls', cwd: '~/proj' } },
      { toolKind: 'other', toolName: 'x'.repeat(2000), rawInput: {} },
      { toolKind: 'k'.repeat(300), toolName: 'x', rawInput: {} },
      { toolKind: 'edit', rawInput: { paths: Array.from({ length: 70 }, (_, i) => `/proj/f${i}`) } },
      { commandSubject: { command: 'make', cwd: '/proj' }, rawInput: { command: 'rm -rf ~' } },
    ]
    for (const over of tooBig) {
      const id = identity(over)
      expect(id.remember.scope, JSON.stringify(over).slice(0, 80)).toBe('never')
      expect(ruleFromDecision({ ruleId: 'n', scope, agentName: 'A', identity: id, decision: 'allow_always', now: 0 })).toBeNull()
    }
    // A rule for the subject's command does not answer a request whose tool call names another command.
    const make = remembered({ commandSubject: { command: 'make', cwd: '/proj' }, rawInput: undefined })
    expect(matches(make, { commandSubject: { command: 'make', cwd: '/proj' }, rawInput: undefined })).toBe(true)
    expect(matches(make, { commandSubject: { command: 'make', cwd: '/proj' }, rawInput: { command: 'rm -rf ~' } })).toBe(false)
  })
})

describe('rule matching', () => {
  it('matches the exact command in the same agent, folder, kind and working folder', () => {
    const rule = remembered()
    expect(matches(rule, {})).toBe(true)
    expect(matches(rule, {}, { cwd: '/proj/' })).toBe(true)
    expect(matches(rule, {}, { cwd: '/other' })).toBe(false)
    expect(matches(rule, {}, { agentId: 'agent-b' })).toBe(false)
    expect(matches(rule, { toolKind: 'edit' })).toBe(false)
    expect(matches(rule, { rawInput: { command: ' rm -rf /tmp' } })).toBe(false)
    expect(matches(rule, { rawInput: { command: 'rm -rf /tmp; rm -rf /' } })).toBe(false)
    expect(matches(rule, { rawInput: { command: 'rm -rf /tmp', cwd: '/' } })).toBe(false)
    expect(matches(rule, { rawInput: { command: 'rm -rf /tmp', cwd: '/proj' } })).toBe(true)
    expect(matches(rule, { rawInput: { command: ['rm', '-rf', '/tmp'] } })).toBe(false)
    expect(matches(rule, { rawInput: { command: 'rm -rf /tmp', sandbox: 'off' } })).toBe(false)
  })

  it('argv boundaries are part of the identity', () => {
    const rule = remembered({ rawInput: { command: ['rm', '-rf', 'build dir'] } })
    expect(rule.argv).toEqual(['rm', '-rf', 'build dir'])
    expect(matches(rule, { rawInput: { command: ['rm', '-rf', 'build dir'] } })).toBe(true)
    expect(matches(rule, { rawInput: { command: ['rm', '-rf', 'build', 'dir'] } })).toBe(false)
    expect(matches(rule, { rawInput: { command: 'rm -rf build dir' } })).toBe(false)
  })

  it('prefix patterns never match a command with a separator, redirection or substitution', () => {
    const p = { type: 'prefix' as const, value: 'npm test' }
    const str = (value: string) => ({ type: 'string' as const, value })
    expect(matchCommand(p, str('npm test'))).toBe(true)
    expect(matchCommand(p, str('npm test -- --watch=false'))).toBe(true)
    expect(matchCommand(p, { type: 'argv', value: ['npm', 'test', '--ci'] })).toBe(true)
    for (const bad of ['npm testing', 'npm test\nrm -rf /', 'npm test && rm -rf /', 'npm test || x', 'npm test | sh', 'npm test; x', 'npm test `x`', 'npm test $(x)', 'npm test > /etc/passwd', 'npm test < x', 'npm', 'npm test\r\nx', 'npm  test']) {
      expect(matchCommand(p, str(bad)), bad).toBe(bad === 'npm  test')
    }
    expect(matchCommand(p, { type: 'argv', value: ['npm', 'test', ';rm'] })).toBe(false)
    expect(matchCommand({ type: 'prefix', value: 'rm -rf /' }, str('rm -rf /tmp'))).toBe(false)
  })

  it('path patterns: segment boundaries, `..`, and symlinks that point outside', () => {
    const under = { type: 'under' as const, value: '/proj' }
    expect(matchPath(under, '/proj/src/a.ts', '/proj')).toBe(true)
    expect(matchPath(under, '/proj-evil/a.ts', '/proj')).toBe(false)
    expect(matchPath(under, resolvePath('/proj/src/../../etc/passwd', '/proj', realpath), '/proj')).toBe(false)
    expect(matchPath(under, resolvePath('/proj/link/passwd', '/proj', realpath), '/proj')).toBe(false)
    expect(matchPath(under, resolvePath('~/x', '/proj', realpath), '/proj')).toBe(false)
  })

  it('a file or folder swapped for a symlink after the rule was made does not carry the rule elsewhere', () => {
    const file = remembered({ toolKind: 'edit', rawInput: { file_path: 'a.ts' } })
    const folder: PermissionRule = { ...file, ruleId: 'u', toolKind: 'read', paths: [{ type: 'under', value: '/proj/src' }] }
    const command = remembered({ rawInput: { command: 'npm test', cwd: '/proj/app' } })
    // Later: a.ts → /etc/passwd, src → /, app → /etc.
    const swapped = (path: string): string =>
      path === '/proj/a.ts' ? '/etc/passwd' : path.startsWith('/proj/src') ? path.slice('/proj/src'.length) || '/' : path.startsWith('/proj/app') ? '/etc' + path.slice('/proj/app'.length) : path
    const later = (over: Partial<PermissionFacts>) => subjectIdentity(facts(over), '/proj', swapped)
    expect(ruleMatches(file, scope, later({ toolKind: 'edit', rawInput: { file_path: 'a.ts' } }))).toBe(false)
    expect(ruleMatches(folder, scope, later({ toolKind: 'read', rawInput: { path: '/proj/src/etc/shadow' } }))).toBe(false)
    expect(ruleMatches(command, scope, later({ rawInput: { command: 'npm test', cwd: '/proj/app' } }))).toBe(false)
    // Unchanged disk: all three still apply.
    expect(matches(file, { toolKind: 'edit', rawInput: { file_path: 'a.ts' } })).toBe(true)
    expect(matches(folder, { toolKind: 'read', rawInput: { path: '/proj/src/x.ts' } })).toBe(true)
    expect(matches(command, { rawInput: { command: 'npm test', cwd: '/proj/app' } })).toBe(true)
  })

  it('exact path rules cover the same set of files, no more, no fewer', () => {
    const rule = remembered({ toolKind: 'edit', rawInput: { file_path: 'a.ts' } })
    expect(rule.paths).toEqual([{ type: 'exact', value: '/proj/a.ts' }])
    expect(matches(rule, { toolKind: 'edit', rawInput: { file_path: '/proj/a.ts' } })).toBe(true)
    expect(matches(rule, { toolKind: 'edit', rawInput: { file_path: 'a.ts', destination: 'b.ts' } })).toBe(false)
    expect(matches(rule, { toolKind: 'edit', rawInput: {}, locations: ['/proj/a.ts', '/proj/b.ts'] })).toBe(false)
    expect(matches(rule, { toolKind: 'edit', rawInput: {} })).toBe(false)
  })

  it('fetch rules keep the origin; tool rules the tool’s own name', () => {
    const fetch = remembered({ toolKind: 'fetch', rawInput: { url: 'https://docs.example.com/a' } })
    expect(matches(fetch, { toolKind: 'fetch', rawInput: { url: 'https://docs.example.com/b' } })).toBe(true)
    expect(matches(fetch, { toolKind: 'fetch', rawInput: { url: 'http://169.254.169.254/latest/meta-data' } })).toBe(false)
    expect(matches(fetch, { toolKind: 'fetch', rawInput: {} })).toBe(false)
    const tool = remembered({ toolKind: 'other', toolName: 'mcp__gh__get_issue', toolTitle: 'Get issue', rawInput: { n: 1 } })
    expect(matches(tool, { toolKind: 'other', toolName: 'mcp__gh__get_issue', toolTitle: 'Get issue', rawInput: { n: 1 } })).toBe(true)
    expect(matches(tool, { toolKind: 'other', toolName: 'mcp__gh__delete_repo', toolTitle: 'Get issue', rawInput: { n: 1 } })).toBe(false)
    expect(matches(tool, { toolKind: 'other', toolName: 'mcp__gh__get_issue', toolTitle: 'Get issue', rawInput: { n: 2 } })).toBe(false)
  })

  it('a rule from a vague request is scoped to its session', () => {
    const rule = remembered({ toolKind: 'other', rawInput: undefined })
    expect(rule.sessionId).toBe('s1')
    expect(rule.label).toContain('this session only')
    expect(matches(rule, { toolKind: 'other', rawInput: undefined })).toBe(true)
    expect(matches(rule, { toolKind: 'other', rawInput: undefined }, { sessionId: 's2' })).toBe(false)
  })
})

describe('answerByRules', () => {
  it('answers "once" of the rule\'s kind where the agent offers it (no standing leave for the agent from a request nobody saw); reject wins', () => {
    expect(answerByRules([remembered()], scope, identity(), offered)?.option.optionId).toBe('a1')
    const both = [remembered(), { ...remembered({}, 'reject_always'), ruleId: 'r2' }]
    expect(answerByRules(both, scope, identity(), offered)?.option.optionId).toBe('r1')
    // No "once" (or two of them): the "always" of the rule's kind.
    expect(answerByRules([remembered()], scope, identity(), offered.filter((o) => o.kind !== 'allow_once'))?.option.optionId).toBe('aa')
    const twoOnce = [...offered, { optionId: 'a2', name: 'Allow once more', kind: 'allow_once' }]
    expect(answerByRules([remembered()], scope, identity(), twoOnce)?.option.optionId).toBe('aa')
  })

  it('asks when the rule kind is offered more than once: it cannot tell which of them was meant', () => {
    const two = [
      { optionId: 'server', name: 'Allow all server tools for this session', kind: 'allow_always' },
      { optionId: 'tool', name: 'Allow tool for this session', kind: 'allow_always' },
      { optionId: 'once', name: 'Allow', kind: 'allow_once' },
    ]
    expect(answerByRules([remembered()], scope, identity(), two)).toBeNull()
  })

  it('asks when the rule kind is not offered, and never picks an unknown kind', () => {
    expect(answerByRules([remembered()], scope, identity(), offered.filter((o) => o.kind !== 'allow_always'))).toBeNull()
    const weird = [
      { optionId: 'x', name: 'Allow', kind: 'allow' },
      { optionId: 'y', name: 'Sandbox', kind: '_acme_sandbox' },
      { optionId: 'z', name: 'Once', kind: 'allow_once' },
    ]
    expect(answerByRules([remembered()], scope, identity(), weird)).toBeNull()
  })
})

describe('older rules', () => {
  const old = (over: Partial<PermissionRule>): PermissionRule => ({
    ruleId: 'o',
    agentId: 'agent-a',
    agentName: 'Agent A',
    cwd: '/proj',
    toolKind: 'execute',
    decision: 'allow_always',
    command: { type: 'exact', value: 'npm test' },
    paths: [{ type: 'exact', value: '/proj' }],
    label: 'old',
    createdAt: 0,
    ...over,
  })

  it('keeps exact commands and paths with the same meaning', () => {
    const command = migrateRule(old({}))
    expect(command).toMatchObject({ format: 2, workdir: '/proj', paths: null })
    expect(command.retired ?? null).toBeNull()
    expect(matches(command, { rawInput: { command: 'npm test' } })).toBe(true)
    expect(matches(command, { rawInput: { command: 'npm test', extra: 1 } })).toBe(false)
    const file = migrateRule(old({ toolKind: 'edit', command: null, paths: [{ type: 'exact', value: '/proj/a.ts' }] }))
    expect(matches(file, { toolKind: 'edit', rawInput: { file_path: 'a.ts' } })).toBe(true)
  })

  it('retires rules that covered a whole kind, and never applies them', () => {
    for (const toolKind of ['fetch', 'other', 'execute', 'edit']) {
      const rule = migrateRule(old({ toolKind, command: null, paths: null }))
      expect(rule.retired?.reason).toMatch(/covered every/)
      expect(rule.label).toContain(`every ${toolKind} request`)
      expect(ruleMatches(rule, scope, identity({ toolKind, rawInput: undefined }))).toBe(false)
    }
  })
})

describe('rule words', () => {
  it('says what the rule covers', () => {
    const base = remembered({ rawInput: { command: 'npm test', cwd: '/home/me/src/app' } })
    expect(describeRule({ ...base, agentName: 'Claude' }, '/home/me')).toBe('Always allow `npm test` in ~/src/app (Claude)')
    const read: PermissionRule = { ...base, command: null, workdir: null, toolKind: 'read', paths: [{ type: 'under', value: '/home/me/src/app' }] }
    expect(describeRule(read, '/nowhere')).toBe('Always allow reading files inside /home/me/src/app (Agent A)')
    const argv = remembered({ rawInput: { command: ['rm', '-rf', 'build dir'] } })
    expect(describeRule(argv, '/nowhere')).toBe("Always allow `rm -rf 'build dir'` (exactly these 3 arguments) in /proj (Agent A)")
    const tool = remembered({ toolKind: 'other', toolName: 'mcp__gh__get_issue', toolTitle: 'Get issue', rawInput: { n: 1 } }, 'reject_always')
    expect(tool.label).toBe('Always reject the tool “mcp__gh__get_issue” titled “Get issue” with the same n as approved (Agent A)')
    expect(remembered({ toolKind: 'fetch', rawInput: { url: 'https://x.org/a' } }).label).toBe('Always allow fetching from https://x.org (Agent A)')
  })
})
