import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createMemoryLogger } from '../../../main/base/log'
import { AuditLog, auditFileName } from '../../../main/permissions/audit-log'
import { RuleStore, RULES_FILE_NAME } from '../../../main/permissions/rule-store'
import { createPermissionsService } from '../../../main/permissions/service'
import type { PermissionRule } from '../../../main/permissions/rules'
import { FakeConnection, npmTestRule as rule, recordingSink, standardOptions } from './fakes'
import { RecordingConfirmation } from '../../support/confirmations'
import { must } from '../../support/must'

let home: string
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'bosun-perm-'))
})
afterEach(async () => {
  await rm(home, { recursive: true, force: true })
})

describe('RuleStore', () => {
  it('persists and reloads rules; revoke removes them', async () => {
    const store = new RuleStore(home, createMemoryLogger())
    expect(await store.load()).toEqual([])
    const changes: number[] = []
    store.onDidChange((list) => changes.push(list.length))
    await store.add(rule)
    const again = new RuleStore(home, createMemoryLogger())
    expect(await again.load()).toEqual([rule])
    expect(await again.revoke('r1')).toBe(true)
    expect(await again.revoke('r1')).toBe(false)
    expect(await new RuleStore(home, createMemoryLogger()).load()).toEqual([])
    expect(changes).toEqual([1])
  })

  it('keeps a corrupt file aside and starts empty', async () => {
    await writeFile(join(home, RULES_FILE_NAME), '{ not json')
    const log = createMemoryLogger()
    const store = new RuleStore(home, log)
    expect(await store.load()).toEqual([])
    const files = await readdir(home)
    const aside = files.find((f) => f.startsWith(`${RULES_FILE_NAME}.corrupt-`))
    expect(aside).toBeDefined()
    expect(await readFile(join(home, aside!), 'utf8')).toBe('{ not json')
    expect(log.lines.some((l) => l.includes('invalid'))).toBe(true)
  })

  it('drops invalid rules, keeps the valid ones and the original aside', async () => {
    await writeFile(join(home, RULES_FILE_NAME), JSON.stringify({ version: 1, rules: [rule, { ...rule, ruleId: 'r2', decision: 'allow_once' }, { ...rule, ruleId: 'r3', cwd: 'relative' }] }))
    const store = new RuleStore(home, createMemoryLogger())
    expect(await store.load()).toEqual([rule])
    expect((await readdir(home)).some((f) => f.includes('.corrupt-'))).toBe(true)
    expect(JSON.parse(await readFile(join(home, RULES_FILE_NAME), 'utf8')).rules).toEqual([rule])
  })

  it('migrates rules of the older format: exact ones kept, whole-kind ones retired, the original kept aside', async () => {
    const { format: _f, argv: _a, workdir: _w, origin: _o, tool: _t, extras: _e, sessionId: _s, retired: _r, ...oldRule } = rule
    const wholeKind = { ...oldRule, ruleId: 'r2', toolKind: 'fetch', command: null, label: 'Always allow fetch any request for A in /proj' }
    const original = JSON.stringify({ version: 1, rules: [{ ...oldRule, paths: [{ type: 'exact', value: '/proj' }] }, wholeKind] })
    await writeFile(join(home, RULES_FILE_NAME), original)
    const store = new RuleStore(home, createMemoryLogger())
    const loaded = await store.load()
    expect(loaded[0]).toMatchObject({ ruleId: 'r1', format: 2, command: { type: 'exact', value: 'npm test' }, workdir: '/proj', paths: null })
    expect(loaded[0]!.retired ?? null).toBeNull()
    expect(loaded[1]).toMatchObject({ ruleId: 'r2', format: 2, retired: { reason: expect.stringContaining('to any address') } })
    const aside = (await readdir(home)).find((f) => f.includes('.before-migration-'))
    expect(aside && (await readFile(join(home, aside), 'utf8'))).toBe(original)
    expect(JSON.parse(await readFile(join(home, RULES_FILE_NAME), 'utf8')).rules).toEqual(loaded)
    // Migrated once: loading again changes nothing.
    expect(await new RuleStore(home, createMemoryLogger()).load()).toEqual(loaded)
  })

  it('keeps session-scoped rules in memory only, and never loads one from disk', async () => {
    const store = new RuleStore(home, createMemoryLogger())
    await store.load()
    await store.add({ ...rule, ruleId: 's', sessionId: 'session-1' })
    await store.add(rule)
    expect(store.list().map((r) => r.ruleId)).toEqual(['s', 'r1'])
    expect(JSON.parse(await readFile(join(home, RULES_FILE_NAME), 'utf8')).rules.map((r: PermissionRule) => r.ruleId)).toEqual(['r1'])
    const changes: number[] = []
    store.onDidChange((list) => changes.push(list.length))
    store.forgetSession('other-session')
    store.forgetSession('session-1')
    expect(store.list().map((r) => r.ruleId)).toEqual(['r1'])
    expect(changes).toEqual([1])
    await writeFile(join(home, RULES_FILE_NAME), JSON.stringify({ version: 1, rules: [rule, { ...rule, ruleId: 's', sessionId: 'x' }] }))
    expect((await new RuleStore(home, createMemoryLogger()).load()).map((r) => r.ruleId)).toEqual(['r1'])
  })

  it('takes a hand edit of the file while it runs (session rules stay), and ignores its own writes', async () => {
    const store = new RuleStore(home, createMemoryLogger())
    await store.load()
    await store.add({ ...rule, ruleId: 's', sessionId: 'session-1' })
    await store.add(rule)
    const watching = store.watch()
    try {
      const changed = new Promise<readonly PermissionRule[]>((resolve) => store.onDidChange(resolve))
      const edited = { ...rule, ruleId: 'hand', command: { type: 'exact', value: 'make' }, label: 'Always allow `make`' }
      await writeFile(join(home, RULES_FILE_NAME), JSON.stringify({ version: 1, rules: [rule, edited] }))
      expect((await changed).map((r) => r.ruleId)).toEqual(['r1', 'hand', 's'])
      // Our own write after that is not an external edit, and keeps the hand-added rule.
      await store.revoke('r1')
      await store.reloadIfChanged()
      expect(store.list().map((r) => r.ruleId)).toEqual(['hand', 's'])
      expect(JSON.parse(await readFile(join(home, RULES_FILE_NAME), 'utf8')).rules.map((r: PermissionRule) => r.ruleId)).toEqual(['hand'])
    } finally {
      watching.dispose()
    }
  })
})

describe('AuditLog', () => {
  it('appends JSONL per session without raw input, and never escapes the audit folder', async () => {
    const audit = new AuditLog(home, createMemoryLogger())
    audit.append({ at: 1, sessionId: '../../etc/x', agentId: 'a', requestId: 'q', by: 'person', outcome: 'selected', title: 'Run?', option: { optionId: 'o', name: 'Allow', kind: 'allow_once' } })
    audit.append({ at: 2, sessionId: '../../etc/x', agentId: 'a', requestId: 'q2', by: 'cancel', outcome: 'cancelled', title: 'x'.repeat(1000) })
    await audit.flush()
    expect(auditFileName('../../etc/x')).not.toContain('/')
    const [file] = await readdir(join(home, 'audit'))
    const lines = (await readFile(join(home, 'audit', file!), 'utf8')).trim().split('\n').map((l) => JSON.parse(l))
    expect(lines).toHaveLength(2)
    expect(lines[0]).toMatchObject({ by: 'person', title: 'Run?', option: { optionId: 'o' } })
    expect(lines[1].title.length).toBeLessThanOrEqual(300)
  })

  it("clips every text the agent chose: its ids and the option's kind, not only the title and the option's name", async () => {
    const audit = new AuditLog(home, createMemoryLogger())
    const long = 'i'.repeat(1024)
    audit.append({ at: 1, sessionId: `a/${long}`, agentId: 'a', requestId: long, by: 'person', outcome: 'selected', title: 'Run?', option: { optionId: long, name: 'Allow', kind: `_${long}` } })
    await audit.flush()
    const [file] = await readdir(join(home, 'audit'))
    const [line] = (await readFile(join(home, 'audit', file!), 'utf8')).trim().split('\n').map((l) => JSON.parse(l))
    for (const text of [line.sessionId, line.requestId, line.option.optionId, line.option.kind]) expect(text.length).toBeLessThanOrEqual(300)
    // An id keeps a hash of the whole, so two long ids that start alike stay apart.
    expect(line.option.optionId).toMatch(/^i+…[0-9a-f]{12}$/)
  })
})

describe('createPermissionsService', () => {
  it('wires broker, rules, audit, attention and the call handlers', async () => {
    const { sink } = recordingSink()
    const emitted: { name: string; payload: unknown }[] = []
    const service = await createPermissionsService({
      home,
      sink,
      sessions: { getSession: () => ({ cwd: '/proj' }) },
      events: { emit: (name, payload) => emitted.push({ name, payload }) },
      isWindowFocused: () => false,
      focusRequest: () => {},
      // The person confirms the "always" answer below in main's own dialog (test/unit/trust covers refusing it).
      confirmation: new RecordingConfirmation(),
    })
    const connection = new FakeConnection(1)
    service.broker.attach(connection, { agentId: 'a', agentName: 'Agent A', protocolVersion: 1 })
    const answer = connection.request(1, { sessionId: 's', toolCall: { toolCallId: 'c', kind: 'execute', rawInput: { command: 'npm test' } }, options: standardOptions })
    expect(emitted.filter((e) => e.name === 'notify')).toEqual([{ name: 'notify', payload: { title: 'Agent A needs your approval', body: 'Permission requested', requestId: expect.any(String) } }])
    expect(emitted.filter((e) => e.name === 'badge').at(-1)).toEqual({ name: 'badge', payload: { count: 1 } })
    const pending = await service.handlers.listPendingPermissions(undefined)
    expect(pending.ok && pending.value).toHaveLength(1)
    const requestId = pending.ok ? pending.value[0]!.requestId : ''
    expect(await service.handlers.respondPermission({ requestId, optionId: 'always' })).toEqual({ ok: true, value: undefined })
    expect(await answer).toEqual({ result: { outcome: { outcome: 'selected', optionId: 'always' } } })
    await service.rules.flush()
    expect(emitted.filter((e) => e.name === 'badge').at(-1)).toEqual({ name: 'badge', payload: { count: 0 } })
    const rules = await service.handlers.listRules(undefined)
    expect(rules.ok && rules.value.map((r) => r.command)).toEqual([{ type: 'exact', value: 'npm test' }])
    expect(emitted.some((e) => e.name === 'rulesChanged')).toBe(true)
    expect(await service.handlers.revokeRule({ ruleId: rules.ok ? rules.value[0]!.ruleId : '' })).toEqual({ ok: true, value: undefined })
    expect(await service.handlers.revokeRule({ ruleId: 'nope' })).toMatchObject({ ok: false, error: { kind: 'not-found' } })

    expect(await service.handlers.setNotificationSettings({ notifyOnTurnEnd: true })).toEqual({ ok: true, value: { enabled: true, notifyOnTurnEnd: true } })
    expect(await service.handlers.getNotificationSettings(undefined)).toEqual({ ok: true, value: { enabled: true, notifyOnTurnEnd: true } })
    await service.audit.flush()
    expect((await readdir(join(home, 'audit'))).length).toBe(1)
    service.dispose()
    await service.flush()
    // Settings survive a restart.
    const again = await createPermissionsService({ home, sink, sessions: { getSession: () => undefined }, focusRequest: () => {} })
    expect(again.attention.settings).toEqual({ enabled: true, notifyOnTurnEnd: true })
    again.dispose()
    await again.flush()
  })

  it('the "always" options of a mode switch (a plan approval) answer once: not kept, said before the click, and confirmed in main as leave the agent may keep', async () => {
    const confirmation = new RecordingConfirmation(false)
    const service = await createPermissionsService({ home, sink: () => {}, sessions: { getSession: () => ({ cwd: '/proj' }) }, focusRequest: () => {}, confirmation })
    const connection = new FakeConnection(2)
    service.broker.attach(connection, { agentId: 'a', agentName: 'Agent A', protocolVersion: 2 })
    // As claude-agent-acp asks to leave plan mode: each "Yes, and …" is an allow_always that picks the next mode.
    const options = [
      { optionId: 'plan-default', name: 'Yes, manually approve edits', kind: 'allow_once' },
      { optionId: 'plan-auto', name: 'Yes, and use auto mode', kind: 'allow_always' },
      { optionId: 'plan-bypass', name: 'Yes, and bypass permissions', kind: 'allow_always' },
      { optionId: 'reject', name: 'No, keep planning', kind: 'reject_once' },
    ]
    const toolCall = { toolCallId: 'plan', kind: 'switch_mode', name: 'ExitPlanMode', title: 'Approve Plan', rawInput: { plan: '# Plan' }, status: 'pending' }
    const answer = connection.request(1, { sessionId: 's', title: 'Ready to code?', subject: { type: 'tool_call', toolCall }, options })
    const [view] = service.broker.pending()
    expect(view!.rememberNote).toMatch(/will not be remembered.*mode/)
    // "Yes, and bypass permissions" lets the agent act unasked from now on: the renderer alone cannot answer it.
    const refused = await service.handlers.respondPermission({ requestId: view!.requestId, optionId: 'plan-bypass' })
    expect(refused).toMatchObject({ ok: false, error: { kind: 'not-confirmed' } })
    expect(service.broker.pending()).toHaveLength(1)
    expect(confirmation.of('remember-decision')[0]!.message).toMatch(/keeps no rule.*without asking/)
    confirmation.answer = true
    expect(await service.handlers.respondPermission({ requestId: view!.requestId, optionId: 'plan-auto' })).toEqual({ ok: true, value: undefined })
    expect(await answer).toEqual({ result: { outcome: { outcome: 'selected', optionId: 'plan-auto' } } })
    expect(confirmation.of('remember-decision')).toHaveLength(2)
    await service.rules.flush()
    expect(await service.handlers.listRules(undefined)).toEqual({ ok: true, value: [] })

    // An "always" Bosun keeps as a rule is still confirmed in main's own dialog first.
    const command = connection.request(2, { sessionId: 's', subject: { type: 'tool_call', toolCall: { toolCallId: 'c', kind: 'execute', rawInput: { command: 'npm test' } } }, options: standardOptions })
    const [next] = service.broker.pending()
    must(await service.handlers.respondPermission({ requestId: next!.requestId, optionId: 'always' }))
    await command
    expect(confirmation.of('remember-decision')).toHaveLength(3)
    expect(confirmation.of('remember-decision')[2]!.message).toMatch(/^Remember.*until you revoke the rule in Settings\.$/)

    // An "always" whose words keep it to the session is confirmed as lasting that long.
    const edit = connection.request(3, {
      sessionId: 's',
      subject: { type: 'tool_call', toolCall: { toolCallId: 'e', kind: 'edit', locations: [{ path: '/proj/a.ts' }] } },
      options: [
        { optionId: 'yes', name: 'Yes', kind: 'allow_once' },
        { optionId: 'session', name: 'Yes, allow all edits during this session', kind: 'allow_always' },
      ],
    })
    must(await service.handlers.respondPermission({ requestId: service.broker.pending()[0]!.requestId, optionId: 'session' }))
    await edit
    expect(confirmation.of('remember-decision')[3]!.message).toMatch(/without asking you, for the rest of this session\.$/)
    service.dispose()
    await service.flush()
  })

  it('main\'s "always" question quotes at most 200 characters of the agent\'s option name and title, and bounds its detail, so what Bosun will do stays in view (hostile14)', async () => {
    const confirmation = new RecordingConfirmation(false)
    const service = await createPermissionsService({ home, sink: () => {}, sessions: { getSession: () => ({ cwd: '/proj' }) }, focusRequest: () => {}, confirmation })
    const connection = new FakeConnection(2)
    service.broker.attach(connection, { agentId: 'a', agentName: 'Agent A', protocolVersion: 2 })
    const name = 'Always allow ' + 'x'.repeat(1_000_000)
    const options = [
      { optionId: 'once', name: 'Allow', kind: 'allow_once' },
      { optionId: 'always', name, kind: 'allow_always' },
    ]
    const subject = { type: 'command', command: 'npm test ' + ';'.repeat(100_000) + ' rm -rf ~', cwd: '/proj' }
    void connection.request(1, { sessionId: 's', title: 'Run tests' + '\n'.repeat(4_000), subject, options })
    const [view] = service.broker.pending()
    expect(await service.handlers.respondPermission({ requestId: view!.requestId, optionId: 'always' })).toMatchObject({ ok: false, error: { kind: 'not-confirmed' } })
    const [asked] = confirmation.of('remember-decision')
    // Before: a message of a million characters, what answering it means ("the agent may take it as leave to act without
    // asking you") at its end, and a detail of 100 KB (the native dialog cannot scroll). (A compound command is no rule
    // Bosun keeps, so this is the "always" it only answers; the rule's question quotes the name the same way.)
    expect(asked!.message).toMatch(/^Answer "Always allow x{187}" \(cut: 999813 more characters\) to "Agent A"\? Bosun keeps no rule for it, but the agent may take it as leave to act without asking you/)
    expect(asked!.detail.length).toBeLessThan(13_000)
    expect(asked!.detail).toMatch(/^Request: "Run tests(\\n){191}" \(cut: 3809 more characters\)\nIn folder: "\/proj"\nCommand: "npm test ;;;/)
    expect(asked!.detail).toMatch(/more characters not shown\. Cancel unless you know what the rest is\.\]$/)
    service.dispose()
    await service.flush()
  })

  it('an "always" confirmed after the agent withdrew its request and asked again under the same id answers nothing: each request has an id of its own', async () => {
    // The person's dialog stays open while the agent withdraws request 7 and sends another as 7 (the id is free again).
    let release: (confirmed: boolean) => void = () => {}
    const confirmation = { confirm: () => new Promise<{ confirmed: boolean; by: 'person' }>((resolve) => (release = (confirmed) => resolve({ confirmed, by: 'person' }))) }
    const service = await createPermissionsService({ home, sink: () => {}, sessions: { getSession: () => ({ cwd: '/proj' }) }, focusRequest: () => {}, confirmation })
    const connection = new FakeConnection(1)
    service.broker.attach(connection, { agentId: 'a', agentName: 'A', protocolVersion: 1 })
    const first = connection.request(7, { sessionId: 's', toolCall: { toolCallId: 'c1', kind: 'execute', rawInput: { command: 'npm test' } }, options: standardOptions })
    const [shown] = service.broker.pending()
    const answering = service.handlers.respondPermission({ requestId: shown!.requestId, optionId: 'always' })
    connection.cancelRequest(7)
    expect(await first).toEqual({ result: { outcome: { outcome: 'cancelled' } } })
    const second = connection.request(7, { sessionId: 's', toolCall: { toolCallId: 'c2', kind: 'execute', rawInput: { command: 'rm -rf ~' } }, options: standardOptions })
    release(true)
    expect(await answering).toMatchObject({ ok: false, error: { kind: 'not-found' } })
    // The second request still waits for the person, and no rule was made for it.
    expect(service.broker.pending().map((v) => v.toolCallId)).toEqual(['c2'])
    await service.rules.flush()
    expect(await service.handlers.listRules(undefined)).toEqual({ ok: true, value: [] })
    service.dispose()
    expect(await second).toEqual({ result: { outcome: { outcome: 'cancelled' } } })
    await service.flush()
  })

  it('auto-approve confirmed after its session closed is not turned on (a session reopened from the history under that id would approve unasked, its switch off)', async () => {
    let release: (confirmed: boolean) => void = () => {}
    const confirmation = { confirm: () => new Promise<{ confirmed: boolean; by: 'person' }>((resolve) => (release = (confirmed) => resolve({ confirmed, by: 'person' }))) }
    let open = true
    const service = await createPermissionsService({
      home,
      sink: () => {},
      sessions: { getSession: () => ({ cwd: '/proj' }) },
      focusRequest: () => {},
      confirmation,
      describeSession: () => (open ? { agentName: 'A', cwd: '/proj', title: null } : undefined),
    })
    const turningOn = service.handlers.setAutoApprove({ sessionId: 's', value: true })
    // The session closes while main's dialog is open (the close answers and forgets what the session had).
    open = false
    service.broker.closeSession('s')
    release(true)
    expect(await turningOn).toMatchObject({ ok: false, error: { kind: 'not-found' } })
    expect(service.broker.isAutoApprove('s')).toBe(false)
    service.dispose()
    await service.flush()
  })

  it('an "always" clicked twice (a double click) asks main\'s question once: the second call does not queue a dialog for a request already answered', async () => {
    let release: (confirmed: boolean) => void = () => {}
    let asked = 0
    const confirmation = {
      confirm: () => {
        asked++
        return new Promise<{ confirmed: boolean; by: 'person' }>((resolve) => (release = (confirmed) => resolve({ confirmed, by: 'person' })))
      },
    }
    const service = await createPermissionsService({ home, sink: () => {}, sessions: { getSession: () => ({ cwd: '/proj' }) }, focusRequest: () => {}, confirmation })
    const connection = new FakeConnection(1)
    service.broker.attach(connection, { agentId: 'a', agentName: 'A', protocolVersion: 1 })
    const answer = connection.request(1, { sessionId: 's', toolCall: { toolCallId: 'c', kind: 'execute', rawInput: { command: 'npm test' } }, options: standardOptions })
    const [view] = service.broker.pending()
    const first = service.handlers.respondPermission({ requestId: view!.requestId, optionId: 'always' })
    const second = service.handlers.respondPermission({ requestId: view!.requestId, optionId: 'always' })
    expect(await second).toMatchObject({ ok: false, error: { kind: 'busy' } })
    release(true)
    expect(await first).toEqual({ ok: true, value: undefined })
    expect(asked).toBe(1)
    expect(await answer).toEqual({ result: { outcome: { outcome: 'selected', optionId: 'always' } } })
    service.dispose()
    await service.flush()
  })

  it('without isWindowFocused, the reported window state decides', async () => {
    const emitted: string[] = []
    const service = await createPermissionsService({
      home,
      sink: () => {},
      sessions: { getSession: () => ({ cwd: '/proj' }) },
      events: { emit: (name) => emitted.push(name) },
      focusRequest: () => {},
    })
    const connection = new FakeConnection(1)
    service.broker.attach(connection, { agentId: 'a', agentName: 'A', protocolVersion: 1 })
    void connection.request(1, { sessionId: 's', toolCall: { toolCallId: 'c' }, options: standardOptions })
    expect(emitted).not.toContain('notify')
    await service.handlers.reportWindowState({ focused: false, visible: true })
    void connection.request(2, { sessionId: 's', toolCall: { toolCallId: 'd' }, options: standardOptions })
    expect(emitted).toContain('notify')
    service.dispose()
    // Dispose answered both requests (`gone`); their audit records are written before the home folder goes.
    await service.flush()
  })

  it('the notification for a permission names the session that asks (two sessions of one agent)', async () => {
    const shown: { title: string; body: string }[] = []
    const titles: Record<string, string> = { s1: 'Fix the login bug', s2: 'Add tests' }
    const service = await createPermissionsService({
      home,
      sink: () => {},
      sessions: { getSession: (_agentId, sessionId) => ({ cwd: '/proj', sessionId }) },
      notifier: { show: (notification) => void shown.push({ title: notification.title, body: notification.body }), setBadgeCount: () => {} },
      isWindowFocused: () => false,
      focusRequest: () => {},
      describeSession: (sessionId) => ({ agentName: 'A', cwd: '/proj', title: titles[sessionId] ?? null }),
    })
    const connection = new FakeConnection(1)
    service.broker.attach(connection, { agentId: 'a', agentName: 'A', protocolVersion: 1 })
    void connection.request(1, { sessionId: 's2', toolCall: { toolCallId: 'c', title: 'Write b.txt' }, options: standardOptions })
    expect(shown).toEqual([{ title: 'A needs your approval', body: 'Write b.txt\nin “Add tests”' }])
    service.dispose()
    await service.flush()
  })

  it('flush() after dispose(): the shutdown answers are audited and on disk', async () => {
    const service = await createPermissionsService({ home, sink: () => {}, sessions: { getSession: () => ({ cwd: '/proj' }) }, focusRequest: () => {} })
    const connection = new FakeConnection(1)
    service.broker.attach(connection, { agentId: 'a', agentName: 'A', protocolVersion: 1 })
    const answers = [1, 2, 3].map((id) => connection.request(id, { sessionId: 's', toolCall: { toolCallId: `c${id}`, title: `Edit ${id}` }, options: standardOptions }))
    service.dispose()
    expect(await Promise.all(answers)).toEqual(answers.map(() => ({ result: { outcome: { outcome: 'cancelled' } } })))
    await service.flush()
    const lines = (await readFile(service.audit.pathFor('s'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l))
    expect(lines.map((l) => [l.title, l.by, l.outcome, l.note])).toEqual([
      ['Edit 1', 'agent-exit', 'gone', 'Bosun is shutting down.'],
      ['Edit 2', 'agent-exit', 'gone', 'Bosun is shutting down.'],
      ['Edit 3', 'agent-exit', 'gone', 'Bosun is shutting down.'],
    ])
  })
})
