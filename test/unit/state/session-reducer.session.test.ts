import { describe, expect, it } from 'vitest'
import type { CompactionEntry } from '../../../common/session/types'
import { apply, eachUpdate, messages, session, summary, text, updates } from './helpers'
import { MAX_MODEL_NAME_CHARS, MAX_MODELS, MAX_NOTICE_DESCRIPTION_CHARS, MAX_TITLE_CHARS } from '../../../common/session/reducer/metadata'
import { MAX_META_CHARS } from '../../../common/session/reducer/draft'
import { MAX_CHUNK_METAS } from '../../../common/session/reducer/messages'
import { MAX_PLAN_ENTRIES, MAX_PLAN_ENTRY_CHARS, MAX_PLAN_MARKDOWN_CHARS, MAX_PLANS } from '../../../common/session/reducer/plans'

const b64 = (bytes: number[]) => Buffer.from(bytes).toString('base64')

describe('plans (H11, H26)', () => {
  it('v1 plan replaces the single plan', () => {
    let s = updates(session(1), {
      sessionUpdate: 'plan',
      entries: [
        { content: 'a', priority: 'high', status: 'pending' },
        { content: 'b', priority: 'low', status: 'completed' },
      ],
    })
    s = updates(s, { sessionUpdate: 'plan', entries: [{ content: 'c', priority: 'medium', status: 'in_progress' }] })
    expect(s.plans).toEqual([{ planId: '', type: 'items', entries: [{ content: 'c', priority: 'medium', status: 'in_progress' }] }])
  })

  // OpenCode 1.18.33 (agents12, /tmp/agents12/opencode-todos.jsonl): its todo list comes only as the `todowrite` tool
  // call, the list in the call's input, then in its output under a title that counts what is left; no `plan` at all.
  const todoWrite = (id: string, statuses: string[]) => {
    const todos = ['Read the file', 'Edit the file', 'Run the tests'].map((content, i) => ({ content, status: statuses[i], priority: 'medium', id: String(i + 1) }))
    const left = statuses.filter((status) => status !== 'completed').length
    return [
      { sessionUpdate: 'tool_call', toolCallId: id, title: 'todowrite', kind: 'other', status: 'pending', locations: [], rawInput: {} },
      { sessionUpdate: 'tool_call_update', toolCallId: id, status: 'in_progress', kind: 'other', title: 'todowrite', locations: [], rawInput: { todos } },
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: id,
        status: 'completed',
        title: `${left} todos`,
        content: [{ type: 'content', content: { type: 'text', text: JSON.stringify(todos, null, 2) } }],
        rawOutput: { output: JSON.stringify(todos, null, 2), metadata: { todos, truncated: false } },
      },
    ]
  }
  const planOf = (s: ReturnType<typeof session>) => s.plans.map((p) => p.entries.map((e) => `${e.status} ${e.content}`))

  it("v1: OpenCode's todowrite tool call is the session's plan, replaced by each call; the card stays", () => {
    let s = updates(session(1), ...todoWrite('call_1', ['completed', 'in_progress', 'pending']))
    expect(planOf(s)).toEqual([['completed Read the file', 'in_progress Edit the file', 'pending Run the tests']])
    s = updates(s, ...todoWrite('call_2', ['completed', 'completed', 'in_progress']))
    expect(planOf(s)).toEqual([['completed Read the file', 'completed Edit the file', 'in_progress Run the tests']])
    expect(s.entries.filter((e) => e.kind === 'tool_call').map((e) => e.kind === 'tool_call' && e.title)).toEqual(['2 todos', '1 todos'])
    // Its output alone (the list written by a call whose input update was not seen) is the plan too.
    const [first, , last] = todoWrite('call_3', ['completed', 'completed', 'completed'])
    s = updates(s, first!, last!)
    expect(planOf(s)).toEqual([['completed Read the file', 'completed Edit the file', 'completed Run the tests']])
    // The agent's own plan replaces it as usual.
    s = updates(s, { sessionUpdate: 'plan', entries: [{ content: 'x', priority: 'high', status: 'pending' }] })
    expect(planOf(s)).toEqual([['pending x']])
  })

  it('v1: another tool with a todos input is not a plan, nor is a todowrite in a v2 session (it has plan_update)', () => {
    const other = updates(session(1), { sessionUpdate: 'tool_call', toolCallId: 't', title: 'notes', kind: 'other', status: 'in_progress', rawInput: { todos: [{ content: 'a', status: 'pending' }] } })
    expect(other.plans).toEqual([])
    const v2 = updates(session(2), ...todoWrite('call_1', ['completed', 'in_progress', 'pending']).map((u) => ({ ...u, sessionUpdate: 'tool_call_update' })))
    expect(v2.plans).toEqual([])
  })

  it('v2 plan_update replaces that plan only; two ids are two plans; unknown plan types are kept', () => {
    let s = updates(
      session(2),
      { sessionUpdate: 'plan_update', plan: { type: 'items', planId: 'p1', entries: [{ content: 'a', priority: 'high', status: 'pending' }] } },
      { sessionUpdate: 'plan_update', plan: { type: 'items', planId: 'p2', entries: [] } },
    )
    s = updates(s, { sessionUpdate: 'plan_update', plan: { type: 'items', planId: 'p1', entries: [{ content: 'z', priority: '_p', status: 'cancelled' }] } })
    expect(s.plans.map((p) => [p.planId, p.entries.map((e) => e.content)])).toEqual([
      ['p1', ['z']],
      ['p2', []],
    ])
    const markdown = { type: '_markdown', planId: 'p2', text: '# plan' }
    s = updates(s, { sessionUpdate: 'plan_update', plan: markdown })
    expect(s.plans[1]).toEqual({ planId: 'p2', type: '_markdown', entries: [], raw: markdown })
  })

  it("v2: a markdown plan (Codex's proposed plan, streamed as whole texts) keeps its text, the last one, cut past the bound", () => {
    const planId = '01a21e16-plan'
    let s = updates(
      session(2),
      { sessionUpdate: 'plan_update', plan: { type: 'markdown', planId, content: '# Rename OLDNAME\n\n1. Read' } },
      { sessionUpdate: 'plan_update', plan: { type: 'markdown', planId, content: '# Rename OLDNAME\n\n1. Read\n2. Patch\n' } },
    )
    expect(s.plans).toEqual([{ planId, type: 'markdown', entries: [], markdown: '# Rename OLDNAME\n\n1. Read\n2. Patch\n' }])
    s = updates(s, { sessionUpdate: 'plan_update', plan: { type: 'markdown', planId, content: 'x'.repeat(MAX_PLAN_MARKDOWN_CHARS + 10) } })
    expect(s.plans[0]!.markdown).toBe(`${'x'.repeat(MAX_PLAN_MARKDOWN_CHARS)}…`)
    // Without a text it is a plan of a type Bosun does not read, kept as sent.
    const odd = { type: 'markdown', planId: 'p2', content: 7 }
    s = updates(s, { sessionUpdate: 'plan_update', plan: odd })
    expect(s.plans[1]).toEqual({ planId: 'p2', type: 'markdown', entries: [], raw: odd })
  })

  it('keeps the last MAX_PLANS plans of a v2 agent that names a new one with every update, each bounded', () => {
    let s = session(2)
    const steps = Array.from({ length: 5_000 }, (_, i) => ({ content: `${i} ${'s'.repeat(10_000)}`, priority: 'low', status: 'pending' }))
    for (let i = 0; i < 100; i++) s = updates(s, { sessionUpdate: 'plan_update', plan: { type: 'items', planId: `p${i}`, entries: i % 10 ? [] : steps } })
    // Before: 100 plans, ten of them 50 MB each.
    expect(s.plans.map((p) => p.planId)).toEqual(Array.from({ length: MAX_PLANS }, (_, i) => `p${100 - MAX_PLANS + i}`))
    s = updates(s, { sessionUpdate: 'plan_update', plan: { type: 'items', planId: 'p99', entries: steps } })
    expect(s.plans.at(-1)!.entries).toHaveLength(MAX_PLAN_ENTRIES)
    expect(s.plans.at(-1)!.entries[0]!.content).toHaveLength(MAX_PLAN_ENTRY_CHARS + 1)
    s = updates(s, { sessionUpdate: 'plan', entries: steps })
    expect(JSON.stringify(s.plans).length).toBeLessThan(MAX_PLAN_ENTRIES * (MAX_PLAN_ENTRY_CHARS + 100))
  })

  it('ignores a malformed plan_update', () => {
    const s = updates(session(2), { sessionUpdate: 'plan_update', plan: { type: 'items' } })
    expect(s.plans).toEqual([])
    expect(s.entries).toEqual([])
  })
})

describe('commands, modes, config options (H12, H13, H14, H27)', () => {
  it('v1 and v2 command shapes; a new list replaces the old', () => {
    let s = updates(session(1), {
      sessionUpdate: 'available_commands_update',
      availableCommands: [{ name: 'web', description: 'Search', input: { hint: 'query' } }, { name: 'old', description: 'x' }],
    })
    expect(s.availableCommands.map((c) => [c.name, c.hint])).toEqual([
      ['web', 'query'],
      ['old', undefined],
    ])
    s = updates(s, { sessionUpdate: 'available_commands_update', availableCommands: [{ name: 'mcp', description: 'd' }] })
    expect(s.availableCommands.map((c) => c.name)).toEqual(['mcp'])
    // A name listed twice is run as one command ("/mcp"): the first is kept.
    s = updates(s, { sessionUpdate: 'available_commands_update', availableCommands: [{ name: 'mcp', description: 'first' }, { name: 'web', description: 'w' }, { name: 'mcp', description: 'again' }] })
    expect(s.availableCommands.map((c) => [c.name, c.description])).toEqual([
      ['mcp', 'first'],
      ['web', 'w'],
    ])

    const v2 = updates(session(2), {
      sessionUpdate: 'available_commands_update',
      availableCommands: [
        { type: 'command', name: 'mcp', description: 'd', input: { type: 'text', hint: '[server]' } },
        { type: '_macro', name: 'm', description: 'plain', input: { type: '_rich' } },
        { description: 'no name' },
      ],
    })
    expect(v2.availableCommands.map((c) => [c.name, c.hint])).toEqual([
      ['mcp', '[server]'],
      ['m', undefined],
    ])
  })

  it("v1: Gemini CLI's `[MODE_UPDATE] <mode>` text is the mode change it means, not a message (plan approved: back to default)", () => {
    // gemini-cli 0.61.0 (/tmp/agents12/gemini-planmode.jsonl): set_mode plan, then exit_plan_mode approved.
    const modes = { currentModeId: 'default', availableModes: [{ id: 'default', name: 'Default' }, { id: 'autoEdit', name: 'Auto Edit' }, { id: 'plan', name: 'Plan' }] }
    let s = apply(session(1), { type: 'session_configured', modes })
    s = updates(s, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: '[MODE_UPDATE] plan' } })
    expect([s.modes?.currentModeId, messages(s).length]).toEqual(['plan', 0])
    s = updates(s, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Plan approved.' } }, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: '[MODE_UPDATE] default' } })
    expect(s.modes?.currentModeId).toBe('default')
    expect(messages(s).map((m) => m.content.map((c) => (c.type === 'text' ? c.text : '')).join(''))).toEqual(['Plan approved.'])
    // Text that only looks like it stays text: a mode the session does not have, more words, or a v2 session.
    for (const text of ['[MODE_UPDATE] yolo-max', '[MODE_UPDATE] plan and more', 'See [MODE_UPDATE] plan']) {
      const t = updates(s, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } })
      expect([t.modes?.currentModeId, JSON.stringify(messages(t)).includes(text)]).toEqual(['default', true])
    }
    const v2 = updates(apply(session(2), { type: 'session_configured', modes }), { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: '[MODE_UPDATE] plan' } })
    expect(v2.modes?.currentModeId).toBe('default')
  })

  it('v1 current_mode_update sets the current mode; in v2 it is an unknown kind (H29)', () => {
    let s = apply(session(1), {
      type: 'session_configured',
      modes: { currentModeId: 'ask', availableModes: [{ id: 'ask', name: 'Ask' }, { id: 'code', name: 'Code' }] },
    })
    s = updates(s, { sessionUpdate: 'current_mode_update', currentModeId: 'code' })
    expect(s.modes).toEqual({ currentModeId: 'code', availableModes: [{ id: 'ask', name: 'Ask', description: null }, { id: 'code', name: 'Code', description: null }] })
    const v2 = updates(session(2), { sessionUpdate: 'current_mode_update', currentModeId: 'code' })
    expect(summary(v2.entries)).toEqual(['unknown:current_mode_update'])
  })

  it('v1 current_mode_update is ignored when a config option is the mode (E4): the mode is not shown twice', () => {
    // claude-agent-acp: modes and a "mode" config option at session/new, then current_mode_update and
    // config_option_update on every mode change (ExitPlanMode approved, the person's own set_config_option).
    const mode = (currentValue: string) => ({
      id: 'mode',
      name: 'Mode',
      category: 'mode',
      type: 'select',
      currentValue,
      options: [
        { value: 'default', name: 'Manual' },
        { value: 'plan', name: 'Plan' },
      ],
    })
    let s = apply(session(1), {
      type: 'session_configured',
      modes: { currentModeId: 'plan', availableModes: [{ id: 'default', name: 'Manual' }, { id: 'plan', name: 'Plan' }] },
      configOptions: [mode('plan')],
    })
    s = updates(s, { sessionUpdate: 'current_mode_update', currentModeId: 'default' }, { sessionUpdate: 'config_option_update', configOptions: [mode('default')] })
    expect(s.modes).toBeNull()
    expect(s.configOptions.map((o) => o.currentValue)).toEqual(['default'])
    // Config options without a mode among them leave the legacy mode as it was.
    const model = { id: 'model', name: 'Model', category: 'model', type: 'select', currentValue: 'm', options: [{ value: 'm', name: 'M' }] }
    const other = updates(apply(session(1), { type: 'session_configured', configOptions: [model] }), { sessionUpdate: 'current_mode_update', currentModeId: 'code' })
    expect(other.modes?.currentModeId).toBe('code')
  })

  it('config options: v1 id/group and v2 configId/groupId, grouped options flattened, unknown types kept, invalid skipped', () => {
    const s = updates(session(1), {
      sessionUpdate: 'config_option_update',
      configOptions: [
        {
          id: 'model',
          name: 'Model',
          type: 'select',
          currentValue: 'b',
          options: [
            { group: 'fast', name: 'Fast', options: [{ value: 'a', name: 'A' }] },
            { group: 'smart', name: 'Smart', options: [{ value: 'b', name: 'B', description: 'best' }] },
          ],
        },
        { configId: 'think', name: 'Thinking', type: 'boolean', currentValue: true },
        { configId: 'x', name: 'Future', type: '_slider', currentValue: 3 },
        { name: 'no id' },
      ],
    })
    expect(s.configOptions.map((o) => [o.id, o.type, o.currentValue])).toEqual([
      ['model', 'select', 'b'],
      ['think', 'boolean', true],
      ['x', '_slider', 3],
    ])
    expect(s.configOptions[0]!.options).toEqual([
      { value: 'a', name: 'A', description: null, group: 'Fast' },
      { value: 'b', name: 'B', description: 'best', group: 'Smart' },
    ])
    const replaced = updates(s, { sessionUpdate: 'config_option_update', configOptions: [] })
    expect(replaced.configOptions).toEqual([])
  })

  it('session_configured: config options win over modes; commands from session/new', () => {
    const s = apply(session(1), {
      type: 'session_configured',
      modes: { currentModeId: 'ask', availableModes: [{ id: 'ask', name: 'Ask' }] },
      configOptions: [{ id: 'mode', name: 'Mode', type: 'select', category: 'mode', currentValue: 'ask', options: [] }],
      availableCommands: [{ name: 'init', description: 'Init' }],
    })
    expect(s.modes).toBeNull()
    expect(s.configOptions.map((o) => o.id)).toEqual(['mode'])
    expect(s.availableCommands.map((c) => c.name)).toEqual(['init'])
  })
})

describe('session models (the unstable v1 session/set_model API)', () => {
  const geminiModels = {
    currentModelId: 'gemini-2.5-pro',
    availableModels: [
      { modelId: 'gemini-2.5-pro', name: 'Gemini 2.5 Pro', description: 'Most capable' },
      { modelId: 'gemini-2.5-flash', name: 'Gemini 2.5 Flash' },
    ],
  }

  it('session_configured takes the models; model_selected moves the current one', () => {
    let s = apply(session(1), { type: 'session_configured', models: geminiModels })
    expect(s.models).toEqual({
      currentModelId: 'gemini-2.5-pro',
      availableModels: [
        { id: 'gemini-2.5-pro', name: 'Gemini 2.5 Pro', description: 'Most capable' },
        { id: 'gemini-2.5-flash', name: 'Gemini 2.5 Flash', description: null },
      ],
    })
    s = apply(s, { type: 'model_selected', modelId: 'gemini-2.5-flash' })
    expect(s.models?.currentModelId).toBe('gemini-2.5-flash')
    // A later answer without models (a session/load that names none) keeps them.
    s = apply(s, { type: 'session_configured', modes: null })
    expect(s.models?.availableModels).toHaveLength(2)
    // Without models, a selection has nothing to apply to.
    expect(apply(session(1), { type: 'model_selected', modelId: 'x' }).models).toBeNull()
  })

  it('bounded: bad items and repeated ids skipped, at most MAX_MODELS kept, names cut, a missing name is the id', () => {
    const many = Array.from({ length: MAX_MODELS + 50 }, (_, i) => ({ modelId: `m${i}`, name: `Model ${i}` }))
    const s = apply(session(1), {
      type: 'session_configured',
      models: {
        currentModelId: 'gone',
        availableModels: [
          { modelId: 'long', name: 'n'.repeat(MAX_MODEL_NAME_CHARS + 100) },
          { modelId: 'bare' },
          { name: 'no id' },
          { modelId: 'x'.repeat(600), name: 'id too long to send back' },
          { modelId: 'long', name: 'again' },
          7,
          ...many,
        ],
      },
    })
    const models = s.models!
    expect(models.currentModelId).toBe('gone')
    expect(models.availableModels).toHaveLength(MAX_MODELS)
    expect(models.availableModels[0]!.name).toBe(`${'n'.repeat(MAX_MODEL_NAME_CHARS)}…`)
    expect(models.availableModels[1]).toEqual({ id: 'bare', name: 'bare', description: null })
    expect(models.availableModels[2]!.id).toBe('m0')
    expect(apply(session(1), { type: 'session_configured', models: { currentModelId: 'a' } }).models).toBeNull()
  })

  it('a config option of category model supersedes them (E4), at configuration or later', () => {
    const model = { id: 'model', name: 'Model', category: 'model', type: 'select', currentValue: 'm', options: [{ value: 'm', name: 'M' }] }
    const both = apply(session(1), { type: 'session_configured', models: geminiModels, configOptions: [model] })
    expect(both.models).toBeNull()
    expect(both.configOptions.map((o) => o.id)).toEqual(['model'])
    const later = updates(apply(session(1), { type: 'session_configured', models: geminiModels }), { sessionUpdate: 'config_option_update', configOptions: [model] })
    expect(later.models).toBeNull()
    // Other config options leave them.
    const thought = { ...model, id: 'effort', name: 'Effort', category: 'thought_level' }
    expect(apply(session(1), { type: 'session_configured', models: geminiModels, configOptions: [thought] }).models?.currentModelId).toBe('gemini-2.5-pro')
  })

  it('v2 has no session models: they are not taken', () => {
    expect(apply(session(2), { type: 'session_configured', models: geminiModels }).models).toBeNull()
  })
})

describe('session info, usage, notices (H15, H16, H17)', () => {
  it.each([1, 2] as const)('v%i session_info_update: omitted = unchanged, null = clear', (version) => {
    let s = updates(session(version), { sessionUpdate: 'session_info_update', title: 'T', updatedAt: '2026-01-01T00:00:00Z' })
    s = updates(s, { sessionUpdate: 'session_info_update', updatedAt: '2026-01-02T00:00:00Z' })
    expect([s.title, s.updatedAt]).toEqual(['T', '2026-01-02T00:00:00Z'])
    s = updates(s, { sessionUpdate: 'session_info_update', title: null })
    expect([s.title, s.updatedAt]).toEqual([null, '2026-01-02T00:00:00Z'])
  })

  it('session_info_update: a title is cut to one line’s worth, and an updatedAt that is no time is ignored', () => {
    let s = updates(session(2), { sessionUpdate: 'session_info_update', title: 't'.repeat(MAX_TITLE_CHARS + 500), updatedAt: '2026-01-01T00:00:00Z' })
    expect(s.title).toBe(`${'t'.repeat(MAX_TITLE_CHARS)}…`)
    s = updates(s, { sessionUpdate: 'session_info_update', updatedAt: 'x'.repeat(10_000) })
    expect(s.updatedAt).toBe('2026-01-01T00:00:00Z')
  })

  it('usage_update: used/size replace, cost omitted keeps, null clears, malformed ignored', () => {
    let s = updates(session(2), { sessionUpdate: 'usage_update', used: 10, size: 100, cost: { amount: 1.5, currency: 'credits' } })
    s = updates(s, { sessionUpdate: 'usage_update', used: 20, size: 100 })
    expect(s.usage).toEqual({ used: 20, size: 100, cost: { amount: 1.5, currency: 'credits' } })
    s = updates(s, { sessionUpdate: 'usage_update', used: 'lots', size: 100 })
    expect(s.usage?.used).toBe(20)
    s = updates(s, { sessionUpdate: 'usage_update', used: 30, size: 100, cost: null })
    expect(s.usage).toEqual({ used: 30, size: 100, cost: null })
  })

  it('notices are transient (not entries), unknown severity → info, dismissable', () => {
    let s = updates(
      session(1),
      { sessionUpdate: 'notice', severity: 'warning', title: '<b>Rate limited</b>', description: 'wait' },
      { sessionUpdate: 'notice', severity: '_shout', title: 'x' },
      { sessionUpdate: 'notice', severity: 'info', title: '' },
    )
    expect(s.entries).toEqual([])
    expect(s.notices.map((n) => [n.severity, n.title])).toEqual([
      ['warning', '<b>Rate limited</b>'],
      ['info', 'x'],
    ])
    expect(new Set(s.notices.map((n) => n.id)).size).toBe(2)
    s = apply(s, { type: 'dismiss_notice', id: s.notices[0]!.id })
    expect(s.notices.map((n) => n.title)).toEqual(['x'])
  })

  it('the same notice again (codex-acp warns on every turn) is one notice, the newest, counting how often it came', () => {
    const warn = { sessionUpdate: 'notice', severity: 'warning', title: 'Falling back from WebSockets to HTTPS transport.' }
    let s = updates(session(2), warn, { sessionUpdate: 'notice', severity: 'info', title: 'Other' }, warn, warn)
    expect(s.notices.map((n) => [n.title, n.repeats])).toEqual([
      ['Other', undefined],
      ['Falling back from WebSockets to HTTPS transport.', 3],
    ])
    // Other words, another severity or a description make another notice; a dismissed one counts afresh.
    s = updates(s, { ...warn, severity: 'error' }, { ...warn, description: 'ws://127.0.0.1/v1' })
    expect(s.notices).toHaveLength(4)
    s = apply(s, { type: 'dismiss_notice', id: s.notices[1]!.id })
    s = updates(s, warn)
    expect(s.notices.at(-1)).toMatchObject({ title: warn.title, severity: 'warning' })
    expect(s.notices.at(-1)!.repeats).toBeUndefined()
  })

  it('a notice’s title is cut like a session title and its description to a few lines (a warning stays on screen)', () => {
    const s = updates(session(2), { sessionUpdate: 'notice', severity: 'warning', title: 't'.repeat(1024 * 1024), description: 'd'.repeat(1024 * 1024) })
    expect(s.notices[0]!.title).toBe(`${'t'.repeat(MAX_TITLE_CHARS)}…`)
    expect(s.notices[0]!.description).toBe(`${'d'.repeat(MAX_NOTICE_DESCRIPTION_CHARS)}…`)
  })
})

describe('compaction (H18)', () => {
  it('chunk then update with a summary: summary replaced, position unchanged', () => {
    let s = updates(
      session(1),
      { sessionUpdate: 'agent_message_chunk', content: text('before') },
      { sessionUpdate: 'compaction_summary_chunk', compactionId: 'c', content: text('sum') },
      { sessionUpdate: 'compaction_summary_chunk', compactionId: 'c', content: text('mary') },
      { sessionUpdate: 'agent_message_chunk', content: text('after') },
    )
    expect(summary(s.entries)).toEqual(['agent_message:before', 'compaction:c', 'agent_message:after'])
    const first = s.entries[1] as CompactionEntry
    expect(first).toMatchObject({ status: 'in_progress', summary: [text('summary')] })
    s = updates(s, { sessionUpdate: 'compaction_update', compactionId: 'c', status: 'completed', summary: [text('final')] })
    expect(summary(s.entries)).toEqual(['agent_message:before', 'compaction:c', 'agent_message:after'])
    expect(s.entries[1]).toMatchObject({ status: 'completed', summary: [text('final')] })
    s = updates(s, { sessionUpdate: 'compaction_update', compactionId: 'c', status: 'failed', error: 'boom' })
    expect(s.entries[1]).toMatchObject({ status: 'failed', summary: [text('final')], error: 'boom' })
    s = updates(s, { sessionUpdate: 'compaction_update', compactionId: 'c', status: 'failed', summary: [], error: null })
    expect(s.entries[1]).toEqual({ kind: 'compaction', id: 'compaction:c', compactionId: 'c', status: 'failed', summary: [] })
  })
})

describe('v2 state_update (F7–F11)', () => {
  it('running → requires_action → idle with stopReason; background reported', () => {
    let s = updates(session(2), { sessionUpdate: 'state_update', state: 'running' })
    expect(s.turn).toMatchObject({ state: 'running', background: null })
    s = updates(s, { sessionUpdate: 'state_update', state: 'requires_action' })
    expect(s.turn.state).toBe('requires_action')
    s = updates(s, { sessionUpdate: 'state_update', state: 'idle', stopReason: 'end_turn', background: [{ type: 'terminal', terminalId: 'x' }] })
    expect(s.turn).toEqual({ state: 'idle', stopReason: 'end_turn', error: null, background: [{ type: 'terminal', terminalId: 'x' }], completedTurns: 1 })
  })

  it('repeated identical idle snapshots count one completion (F9)', () => {
    const idle = { sessionUpdate: 'state_update', state: 'idle', stopReason: 'end_turn' }
    let s = updates(session(2), { sessionUpdate: 'state_update', state: 'running' }, idle, idle)
    s = updates(s, idle)
    expect(s.turn.completedTurns).toBe(1)
    s = updates(s, { sessionUpdate: 'state_update', state: 'running' }, idle)
    expect(s.turn.completedTurns).toBe(2)
  })

  it('an unknown state is busy (unknown), never idle (F8)', () => {
    const s = updates(session(2), { sessionUpdate: 'state_update', state: '_thinking_hard' })
    expect(s.turn.state).toBe('unknown')
  })

  it('idle with stopReason error carries the error message; malformed stopReason = not reported', () => {
    let s = updates(
      session(2),
      { sessionUpdate: 'state_update', state: 'running' },
      { sessionUpdate: 'state_update', state: 'idle', stopReason: 'error', error: { code: -32603, message: 'overloaded' } },
    )
    expect(s.turn).toMatchObject({ state: 'idle', stopReason: 'error', error: { message: 'overloaded', code: -32603 } })
    s = updates(s, { sessionUpdate: 'state_update', state: 'running' }, { sessionUpdate: 'state_update', state: 'idle', stopReason: 7 })
    expect(s.turn).toMatchObject({ stopReason: null, error: null })
  })

  it('a malformed state_update is ignored', () => {
    const s = updates(session(2), { sessionUpdate: 'state_update', state: 3 })
    expect(s.turn.state).toBe('idle')
    expect(s.entries).toEqual([])
  })
})

describe('v2 terminals (H25)', () => {
  it('"é" split across two chunks renders as "é"', () => {
    const [first, second] = [0xc3, 0xa9]
    let s = updates(session(2), { sessionUpdate: 'terminal_output_chunk', terminalId: 'term', data: b64([0x61, first!]) })
    expect(s.terminals.term!.output).toBe('a')
    s = updates(s, { sessionUpdate: 'terminal_output_chunk', terminalId: 'term', data: b64([second!, 0x62]) })
    expect(s.terminals.term!.output).toBe('aéb')
    expect(s.terminals.term!.pendingUtf8).toBeUndefined()
  })

  it('a 4-byte character split 1+3 in one batch decodes too', () => {
    const bytes = [...Buffer.from('😀', 'utf8')]
    const s = updates(
      session(2),
      { sessionUpdate: 'terminal_output_chunk', terminalId: 't', data: b64(bytes.slice(0, 1)) },
      { sessionUpdate: 'terminal_output_chunk', terminalId: 't', data: b64(bytes.slice(1)) },
    )
    expect(s.terminals.t!.output).toBe('😀')
  })

  it('a snapshot replaces accumulated output; snapshot then chunk = snapshot + chunk', () => {
    const s = updates(
      session(2),
      { sessionUpdate: 'terminal_output_chunk', terminalId: 't', data: b64([...Buffer.from('old')]) },
      { sessionUpdate: 'terminal_update', terminalId: 't', command: 'ls', output: { data: b64([...Buffer.from('snap\n')]) } },
      { sessionUpdate: 'terminal_output_chunk', terminalId: 't', data: b64([...Buffer.from('more')]) },
      { sessionUpdate: 'terminal_update', terminalId: 't', exitStatus: { exitCode: -1, signal: 'SIGTERM' } },
    )
    expect(s.terminals.t).toEqual({ terminalId: 't', command: 'ls', output: 'snap\nmore', exitStatus: { exitCode: -1, signal: 'SIGTERM' } })
  })

  it('terminal_update fields: omitted = unchanged, null = clear; bad base64 is ignored', () => {
    let s = updates(session(2), { sessionUpdate: 'terminal_update', terminalId: 't', command: 'ls', cwd: '/w', output: { data: b64([0x41]) } })
    s = updates(s, { sessionUpdate: 'terminal_update', terminalId: 't', cwd: null })
    expect(s.terminals.t).toMatchObject({ command: 'ls', cwd: null, output: 'A' })
    s = updates(s, { sessionUpdate: 'terminal_output_chunk', terminalId: 't', data: '!!not base64!!' })
    expect(s.terminals.t!.output).toBe('A')
  })
})

describe('unknown kinds (H2)', () => {
  it('are kept as unknown entries and later updates still apply', () => {
    const s = updates(
      session(1),
      { sessionUpdate: '_acme_x', payload: 1 },
      { sessionUpdate: 'future_thing' },
      { sessionUpdate: 'agent_message_chunk', content: text('still works') },
    )
    expect(summary(s.entries)).toEqual(['unknown:_acme_x', 'unknown:future_thing', 'agent_message:still works'])
    expect(s.entries[0]).toEqual({ kind: 'unknown', id: 'unknown#0', sessionUpdate: '_acme_x', raw: { sessionUpdate: '_acme_x', payload: 1 } })
  })

  it('named like members of Object.prototype are unknown kinds too, kept and shown', () => {
    // `__proto__` as the agent's JSON parses it: an own key.
    const odd = ['constructor', 'toString', 'hasOwnProperty', '__defineGetter__', 'valueOf'].map((kind) => ({ sessionUpdate: kind, note: kind }))
    const proto = JSON.parse('{"sessionUpdate":"__proto__","note":"p"}') as { sessionUpdate: string }
    const s = updates(session(1), ...odd, proto, { sessionUpdate: 'agent_message_chunk', content: text('still works') })
    expect(summary(s.entries)).toEqual([...odd.map((u) => `unknown:${u.sessionUpdate}`), 'unknown:__proto__', 'agent_message:still works'])
    expect(s.entries[5]).toMatchObject({ kind: 'unknown', sessionUpdate: '__proto__', raw: { note: 'p' } })
  })

  it('garbage in the updates list never throws', () => {
    const s = apply(session(1), { type: 'updates', updates: [null, 5, 'x', {}, { sessionUpdate: 7 }] as never })
    expect(s.entries).toEqual([])
  })
})

describe('_meta is kept, bounded (I1)', () => {
  const big = { blob: 'x'.repeat(MAX_META_CHARS) }
  const chunk = (t: string, _meta?: unknown) => ({ sessionUpdate: 'agent_message_chunk', messageId: 'm1', content: text(t), ...(_meta !== undefined ? { _meta } : {}) })

  it('a message chunk\'s _meta is kept beside the message (scoped to the chunk), one per run, and never patches the message\'s own', () => {
    let s = eachUpdate(
      session(2),
      chunk('a', { traceparent: '00-1-2-01' }),
      chunk('b', { traceparent: '00-1-2-01' }),
      chunk('c'),
      chunk('d', { model: 'opus', nested: { k: [1, 2] } }),
      chunk('e', big),
      chunk('f', null),
    )
    expect(messages(s)[0]).toMatchObject({ content: [text('abcdef')], chunkMeta: [{ traceparent: '00-1-2-01' }, { model: 'opus', nested: { k: [1, 2] } }] })
    expect(messages(s)[0]!._meta).toBeUndefined()
    // The same _meta again changes nothing on the entry but its text (a stream that sends it on every chunk).
    const before = messages(s)[0]!.chunkMeta
    s = updates(s, chunk('g', { model: 'opus', nested: { k: [1, 2] } }))
    expect(messages(s)[0]!.chunkMeta).toBe(before)
    // At most MAX_CHUNK_METAS of them.
    s = eachUpdate(s, ...Array.from({ length: MAX_CHUNK_METAS * 2 }, (_, i) => chunk('.', { i })))
    expect(messages(s)[0]!.chunkMeta).toHaveLength(MAX_CHUNK_METAS)
  })

  it('v1 chunks, thoughts and the echo of the prompt keep theirs too', () => {
    let s = apply(session(1), { type: 'local_prompt', content: [text('hi')] })
    s = updates(
      s,
      { sessionUpdate: 'user_message_chunk', content: text('hi'), _meta: { echo: true } },
      { sessionUpdate: 'agent_thought_chunk', content: text('hm'), _meta: { effort: 'high' } },
    )
    expect(summary(s.entries)).toEqual(['user_message:hi', 'agent_thought:hm'])
    expect(messages(s).map((m) => m.chunkMeta)).toEqual([[{ echo: true }], [{ effort: 'high' }]])
  })

  it.each([1, 2] as const)('v%i session_info_update: _meta patches by top-level key; bounded', (version) => {
    let s = updates(session(version), { sessionUpdate: 'session_info_update', _meta: { a: 1, b: { c: 2 } } })
    expect(s.infoMeta).toEqual({ a: 1, b: { c: 2 } })
    s = updates(s, { sessionUpdate: 'session_info_update', title: 'T', _meta: { a: null, d: 'x' } })
    expect(s.infoMeta).toEqual({ b: { c: 2 }, d: 'x' })
    // Too large: the patch is dropped, the rest of the update applies.
    s = updates(s, { sessionUpdate: 'session_info_update', title: 'U', _meta: big })
    expect([s.title, s.infoMeta]).toEqual(['U', { b: { c: 2 }, d: 'x' }])
    // null clears in v2; in v1 null is the same as omitted.
    s = updates(s, { sessionUpdate: 'session_info_update', _meta: null })
    expect(s.infoMeta).toEqual(version === 2 ? undefined : { b: { c: 2 }, d: 'x' })
  })

  it('plans keep the plan\'s _meta, each entry\'s, and v2 the update\'s; a too large one is dropped', () => {
    const v1 = updates(session(1), {
      sessionUpdate: 'plan',
      entries: [{ content: 'a', priority: 'high', status: 'pending', _meta: { id: 'e1' } }, { content: 'b', priority: 'low', status: 'pending', _meta: big }],
      _meta: { source: 'planner' },
    })
    expect(v1.plans).toEqual([{ planId: '', type: 'items', entries: [{ content: 'a', priority: 'high', status: 'pending', _meta: { id: 'e1' } }, { content: 'b', priority: 'low', status: 'pending' }], _meta: { source: 'planner' } }])
    const v2 = updates(session(2), {
      sessionUpdate: 'plan_update',
      plan: { planId: 'p1', type: 'items', entries: [{ content: 'a', priority: 'high', status: 'pending' }], _meta: { source: 'planner' } },
      _meta: { seq: 3 },
    })
    expect(v2.plans).toEqual([{ planId: 'p1', type: 'items', entries: [{ content: 'a', priority: 'high', status: 'pending' }], _meta: { source: 'planner' }, updateMeta: { seq: 3 } }])
    const tooBig = updates(session(2), { sessionUpdate: 'plan_update', plan: { planId: 'p1', type: 'items', entries: [], _meta: big }, _meta: big })
    expect(tooBig.plans).toEqual([{ planId: 'p1', type: 'items', entries: [] }])
  })
})
