import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { ApprovalInbox } from '../../../renderer/components/permissions/ApprovalInbox'
import { AutoApproveSwitch } from '../../../renderer/components/permissions/AutoApproveSwitch'
import { describeResolution, PermissionPrompt } from '../../../renderer/components/permissions/PermissionPrompt'
import { RulesSettings } from '../../../renderer/components/permissions/RulesSettings'
import { arrangeOptions, optionAppearance, optionForKey, promptKeyAction } from '../../../renderer/components/permissions/option-style'
import { decidedByText } from '../../../renderer/components/permissions/resolution-text'
import { hasHiddenCharacters, revealAsText, revealControlChars } from '../../../renderer/components/permissions/reveal-text'
import type { ElicitationView, PermissionRequestView, ToolCallEntry } from '../../../common/session/types'
import { WiredInbox } from '../../../renderer/screens/wiring'
import type { InboxItem } from '../../../renderer/state/app-store'

const base: PermissionRequestView = {
  requestId: 'agent#1:n:1',
  agentId: 'agent',
  agentName: 'Claude',
  sessionId: 's',
  title: 'Approve edit?',
  description: 'Allow the agent to edit a.rs?',
  subject: { type: 'tool_call', toolCallId: 'c1' },
  toolCallId: 'c1',
  options: [
    { optionId: 'a', name: 'Allow', kind: 'allow_once' },
    { optionId: 'aa', name: 'Always allow', kind: 'allow_always' },
    { optionId: 'r', name: 'Reject', kind: 'reject_once' },
    { optionId: 'x', name: 'Sandbox it', kind: '_acme_sandbox' },
  ],
  createdAt: 0,
  status: 'pending',
}

const toolCall: ToolCallEntry = {
  kind: 'tool_call',
  id: 'tc',
  toolCallId: 'c1',
  title: 'Edit a.rs',
  toolKind: 'edit',
  status: 'pending',
  content: [{ type: 'diff', path: '/p/a.rs', oldText: 'fn a() {}', newText: 'fn b() {}' }],
  locations: [{ path: '/p/a.rs' }],
  permissionIds: ['agent#1:n:1'],
  elicitationIds: [],
}

const noop = () => {}

describe('reveal-text', () => {
  it('makes bidi, zero-width and control characters visible', () => {
    const segments = revealControlChars('ls \u202E;rm -rf ~\u200B\x1b[0m')
    expect(segments.filter((s) => s.kind === 'control').map((s) => (s.kind === 'control' ? s.label : ''))).toEqual([
      'U+202E RIGHT-TO-LEFT OVERRIDE',
      'U+200B ZERO WIDTH SPACE',
      'U+001B ESCAPE',
    ])
    expect(revealAsText('a\u202Eb')).toBe('a⟨U+202E⟩b')
    expect(hasHiddenCharacters('plain text\nsecond line')).toBe(false)
    expect(hasHiddenCharacters('x\u2066y')).toBe(true)
    expect(revealControlChars('a\nb', { keepNewlines: true }).map((s) => s.value)).toEqual(['a', '\n', '\nb'])
  })
})

describe('option-style', () => {
  it('maps only the four known kinds; everything else is neutral', () => {
    expect(optionAppearance('allow_once').tone).toBe('allow')
    expect(optionAppearance('reject_always').tone).toBe('reject')
    for (const kind of ['allow', 'deny', '_acme_sandbox', '', 'constructor', '__proto__']) {
      expect(optionAppearance(kind)).toEqual({ tone: 'neutral', icon: null, hint: null })
    }
  })

  it('digits select options by kind; modifiers, repeats and unused keys do not', () => {
    const options = [
      { optionId: 'a', kind: 'allow_once' },
      { optionId: 'r', kind: 'reject_once' },
    ]
    expect(optionForKey({ key: '1' }, options)?.optionId).toBe('a')
    expect(optionForKey({ key: '3' }, options)?.optionId).toBe('r')
    // Allow always was not offered: its key does nothing (it never falls to another option).
    expect(optionForKey({ key: '2' }, options)).toBeNull()
    expect(optionForKey({ key: '0' }, options)).toBeNull()
    expect(optionForKey({ key: '1', ctrlKey: true }, options)).toBeNull()
    expect(optionForKey({ key: '1', repeat: true }, options)).toBeNull()
    expect(optionForKey({ key: 'Enter' }, options)).toBeNull()
  })

  it('keys and order mean the same with three agents’ option orders', () => {
    const agents = {
      // Claude-like: allow always first.
      first: [
        { optionId: 'aa', name: 'Always Allow', kind: 'allow_always' },
        { optionId: 'a', name: 'Allow', kind: 'allow_once' },
        { optionId: 'r', name: 'Reject', kind: 'reject_once' },
      ],
      // Reversed, with an unknown kind in the middle.
      second: [
        { optionId: 'ra', name: 'Never', kind: 'reject_always' },
        { optionId: 'later', name: 'Ask me later', kind: '_defer' },
        { optionId: 'r', name: 'No', kind: 'reject_once' },
        { optionId: 'aa', name: 'Always', kind: 'allow_always' },
        { optionId: 'a', name: 'Yes', kind: 'allow_once' },
      ],
      // Only "always" options, then two unknown kinds and a duplicate kind.
      third: [
        { optionId: 'sandbox', name: 'Sandbox', kind: '_acme_sandbox' },
        { optionId: 'ra', name: 'Never', kind: 'reject_always' },
        { optionId: 'aa', name: 'Always', kind: 'allow_always' },
        { optionId: 'aa2', name: 'Always (project)', kind: 'allow_always' },
        { optionId: 'x', name: 'Allow', kind: 'allow' },
      ],
    }
    const keysOf = (options: { optionId: string; kind: string }[]) => arrangeOptions(options).map((e) => `${e.key}:${e.option.optionId}`)
    expect(keysOf(agents.first)).toEqual(['1:a', '2:aa', '3:r'])
    expect(keysOf(agents.second)).toEqual(['1:a', '2:aa', '3:r', '4:ra', '5:later'])
    expect(keysOf(agents.third)).toEqual(['2:aa', '4:ra', '5:sandbox', '6:aa2', '7:x'])
    for (const options of Object.values(agents)) {
      // "1" is never anything but allow once, "2" never anything but allow always, whoever asks.
      expect(promptKeyAction({ key: '1' }, options)).toBe(options.find((o) => o.kind === 'allow_once')?.optionId)
      expect(promptKeyAction({ key: '2' }, options)).toBe(options.find((o) => o.kind === 'allow_always')!.optionId)
      expect(promptKeyAction({ key: '4' }, options)).toBe(options.find((o) => o.kind === 'reject_always')?.optionId)
      // The buttons are rendered in that order, each with its key.
      const html = renderToStaticMarkup(<PermissionPrompt request={{ ...base, options: options.map((o) => ({ ...o })) }} onRespond={noop} />)
      const shown = [...html.matchAll(/data-kind="([^"]*)" aria-keyshortcuts="(\d)"/g)].map((m) => `${m[2]}:${m[1]}`)
      expect(shown).toEqual(arrangeOptions(options).map((e) => `${e.key}:${e.option.kind}`))
    }
    expect(promptKeyAction({ key: 'Escape' }, agents.first)).toBeNull()
    expect(promptKeyAction({ key: '4' }, agents.first)).toBeUndefined()
  })
})

describe('PermissionPrompt', () => {
  it('renders an accessible dialog with keyed option buttons, neutral for unknown kinds', () => {
    const html = renderToStaticMarkup(<PermissionPrompt request={base} toolCall={toolCall} onRespond={noop} />)
    expect(html).toMatch(/role="alertdialog"/)
    const labelledBy = /aria-labelledby="([^"]+)"/.exec(html)![1]
    expect(html).toContain(`id="${labelledBy}"`)
    expect(html).toContain('Approve edit?')
    expect(html).toContain('Allow the agent to edit a.rs?')
    // The tool call keeps its own title next to the prompt's.
    expect(html).toContain('Edit a.rs')
    expect(html).toContain('fn b() {}')
    // Buttons are named by their content: the option's name, then its kind in words (screen readers only).
    expect(html).toContain('Always allow</span></span><span class="sr-only"> (remembered for next time)</span>')
    expect(html).toMatch(/class="perm-option perm-tone-neutral" data-kind="_acme_sandbox" aria-keyshortcuts="5"><span class="perm-option-name"><span>Sandbox it<\/span><\/span><kbd/)
    expect(html).not.toMatch(/data-kind="_acme_sandbox"[^>]*>[^<]*<span class="perm-option-icon"/)
    expect(html).toContain('aria-keyshortcuts="Escape"')
  })

  it('draws a huge diff a page at a time, as the tool card does, and says how much is left', () => {
    const many = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix} ${i}`).join('\n')
    // 30,000 lines removed and 30,000 added: the prompt drew all 60,000 rows while the person was to decide on it.
    const huge: ToolCallEntry = { ...toolCall, content: [{ type: 'diff', path: '/p/a.rs', oldText: many('old', 30_000), newText: many('new', 30_000) }] }
    const html = renderToStaticMarkup(<PermissionPrompt request={base} toolCall={huge} onRespond={noop} />)
    // Each side a page at a time: one page of both showed the old text alone.
    expect(html.match(/class="perm-diff-del"/g)).toHaveLength(400)
    expect(html.match(/class="perm-diff-add"/g)).toHaveLength(400)
    expect(html).toContain('old 399')
    expect(html).not.toContain('old 400')
    expect(html).toContain('Show 2,000 more removed lines (400 of 30,000 shown)')
    expect(html).toContain('Show 2,000 more added lines (400 of 30,000 shown)')
    // A v2 diff's patch and its list of files are paged the same way; a short diff shows whole, with no button.
    const v2: ToolCallEntry = {
      ...toolCall,
      content: [{ type: 'diff', changes: Array.from({ length: 2_100 }, (_, i) => ({ operation: 'modify', path: `/p/f${i}` })), patch: { format: 'unified', text: many('+line', 2_300) } }],
    }
    const v2html = renderToStaticMarkup(<PermissionPrompt request={base} toolCall={v2} onRespond={noop} />)
    expect(v2html).toContain('Show all 2,100 files')
    expect(v2html).toContain('Show all 2,300 lines')
    expect(v2html).not.toContain('/p/f400')
    expect(v2html).not.toContain('+line 400')
    expect(renderToStaticMarkup(<PermissionPrompt request={base} toolCall={toolCall} onRespond={noop} />)).not.toMatch(/Show (all|2,000)/)
    // Text content too, in a box that scrolls: 5,000 lines of it pushed the options 5,000 lines down.
    const text: ToolCallEntry = { ...toolCall, content: [{ type: 'content', content: { type: 'text', text: many('said', 5_000) } }] }
    const textHtml = renderToStaticMarkup(<PermissionPrompt request={base} toolCall={text} onRespond={noop} />)
    expect(textHtml).toContain('class="perm-text perm-content-text"')
    expect(textHtml).toContain('said 399')
    expect(textHtml).not.toContain('said 400')
    expect(textHtml).toContain('Show 2,000 more lines (400 of 5,000 shown)')
  })

  it("says a command once on its card, and in the inbox: the prompt's title is not repeated where it is exactly the card's title or command", () => {
    const bash: ToolCallEntry = { ...toolCall, title: 'ls -la', toolKind: 'execute', content: [], locations: [], rawInput: { command: 'ls -la' } }
    const request = { ...base, title: 'ls -la', description: null }
    const visibleTitle = (html: string) => /<h2 class="perm-title"/.test(html)
    // On the card (no subject): the card shows the title and the command; the title stays the prompt's name, unseen.
    const onCard = renderToStaticMarkup(<PermissionPrompt request={request} toolCall={bash} showSubject={false} onRespond={noop} />)
    expect(visibleTitle(onCard)).toBe(false)
    expect(onCard).toContain('<h2 class="perm-title sr-only"')
    expect(onCard).toContain('Claude asks for your approval')
    // Only the command matches in the first; nothing in the second: a text that differs is shown.
    for (const [card, shown] of [[{ ...bash, title: 'Run ls' }, false], [{ ...bash, title: 'Run ls', rawInput: { command: 'ls' } }, true]] as const) {
      const html = renderToStaticMarkup(<PermissionPrompt request={request} toolCall={card} showSubject={false} onRespond={noop} />)
      expect(visibleTitle(html)).toBe(shown)
    }
    expect(visibleTitle(renderToStaticMarkup(<PermissionPrompt request={{ ...request, title: 'ls -la ' }} toolCall={{ ...bash, rawInput: {} }} showSubject={false} onRespond={noop} />))).toBe(false)
    expect(visibleTitle(renderToStaticMarkup(<PermissionPrompt request={{ ...request, title: 'ls -la && rm x' }} toolCall={bash} showSubject={false} onRespond={noop} />))).toBe(true)
    // Elsewhere (the inbox): the title, then the tool call's kind and command, not its title again.
    const inbox = renderToStaticMarkup(<PermissionPrompt request={request} toolCall={bash} onRespond={noop} />)
    expect(visibleTitle(inbox)).toBe(true)
    expect(inbox).not.toContain('perm-toolcall-title')
    expect(inbox.split('ls -la')).toHaveLength(3)
  })

  it('a description is prose: line breaks are line breaks, no hidden-character warning; other hidden characters still marked', () => {
    const html = renderToStaticMarkup(<PermissionPrompt request={{ ...base, description: 'First line.\r\nSecond line.\n\tIndented \u202E.' }} onRespond={noop} />)
    const description = /<p class="perm-description"[^>]*>([\s\S]*?)<\/p>/.exec(html)![1]!
    expect(description).toContain('First line.\nSecond line.\n\tIndented ')
    expect(description).not.toContain('LINE FEED')
    expect(description).not.toContain('CARRIAGE RETURN')
    expect(description).toContain('U+202E RIGHT-TO-LEFT OVERRIDE')
    expect(html).not.toContain('hidden or direction-changing characters')
  })

  it('says before the click when “always” will be remembered for this session only', () => {
    const note = '“Always” will be remembered for this session only: Bosun cannot tell this tool apart from other tools.'
    const html = renderToStaticMarkup(<PermissionPrompt request={{ ...base, rememberNote: note }} onRespond={noop} />)
    const id = /<p class="perm-remember-note" id="([^"]+)" role="note">/.exec(html)![1]
    expect(html).toContain(note)
    // The "always" buttons are described by it; the others are not.
    expect(html).toMatch(new RegExp(`data-kind="allow_always" aria-keyshortcuts="2" aria-describedby="${id}"`))
    expect(html).not.toMatch(new RegExp(`data-kind="allow_once"[^>]*aria-describedby`))
    // Its name does not contradict the note (Gemini CLI's "Allow for this session" was read "remembered for next time").
    expect(html).not.toContain('remembered for next time')
    expect(renderToStaticMarkup(<PermissionPrompt request={base} onRespond={noop} />)).toContain('(remembered for next time)')
    // An "always" whose own words keep it to the session is kept for the session only (main's rule): said so, not "next time".
    const duringSession = { ...base, options: base.options.map((o) => (o.kind === 'allow_always' ? { ...o, name: 'Yes, allow all edits during this session' } : o)) }
    const sessionOnly = renderToStaticMarkup(<PermissionPrompt request={duringSession} onRespond={noop} />)
    expect(sessionOnly).toContain('Yes, allow all edits during this session</span></span><span class="sr-only"> (for this session only)</span>')
    expect(renderToStaticMarkup(<PermissionPrompt request={{ ...base, rememberNote: note, status: 'answered', resolution: { by: 'person', optionId: 'aa', at: 1 } }} onRespond={noop} />)).not.toContain(note)
  })

  it('an option of an unknown kind is never reported as allowed or rejected (G4)', () => {
    const defer = { ...base, options: [...base.options, { optionId: 'later', name: 'Ask me later', kind: '_defer' }] }
    expect(describeResolution({ ...defer, status: 'answered', resolution: { by: 'person', optionId: 'later', optionKind: '_defer', at: 1 } })).toBe('You chose “Ask me later”.')
    expect(decidedByText({ kind: 'person', label: 'Ask me later', optionKind: '_defer' })).toBe('You chose “Ask me later”')
    expect(decidedByText({ kind: 'person', label: 'Allow', optionKind: 'allow' })).toBe('You chose “Allow”')
    expect(decidedByText({ kind: 'person', label: 'Reject', optionKind: 'reject_once' })).toBe('Rejected by you (Reject)')
    expect(decidedByText({ kind: 'person', label: 'Nope', optionKind: 'reject_forever' })).toBe('You chose “Nope”')
  })

  it('shows a command subject verbatim with hidden characters marked', () => {
    const request: PermissionRequestView = {
      ...base,
      title: 'Run a command?',
      description: null,
      subject: { type: 'command', command: 'ls \u202E;rm -rf ~', cwd: '/home/u/proj' },
      toolCallId: null,
    }
    const html = renderToStaticMarkup(<PermissionPrompt request={request} onRespond={noop} />)
    expect(html).toContain('U+202E RIGHT-TO-LEFT OVERRIDE')
    expect(html).not.toContain('\u202E')
    expect(html).toContain('/home/u/proj')
    expect(html).toContain('hidden or direction-changing characters')
  })

  it('shows an unknown subject generically', () => {
    const request: PermissionRequestView = { ...base, subject: { type: 'unknown', raw: { type: '_acme_net', host: 'evil.example' } } }
    const html = renderToStaticMarkup(<PermissionPrompt request={request} onRespond={noop} />)
    expect(html).toContain('_acme_net')
    expect(html).toContain('evil.example')
  })

  it('an answered request shows how it ended instead of buttons', () => {
    const request: PermissionRequestView = {
      ...base,
      status: 'answered',
      resolution: { by: 'rule', optionId: 'aa', optionKind: 'allow_always', note: '“Always allow edit /p/a.rs”', at: 1 },
    }
    const html = renderToStaticMarkup(<PermissionPrompt request={request} onRespond={noop} />)
    expect(html).not.toContain('<button')
    expect(html).toContain('Allowed by rule “Always allow edit /p/a.rs”.')
    expect(describeResolution({ ...request, resolution: { ...request.resolution!, optionKind: 'reject_always' } })).toBe('Rejected by rule “Always allow edit /p/a.rs”.')
    expect(describeResolution({ ...base, status: 'answered', resolution: { by: 'auto-approve', optionId: 'a', at: 1 } })).toMatch(/^Answered “.+” by auto-approve\.$/)
    expect(describeResolution({ ...base, status: 'answered', resolution: { by: 'person', optionId: 'r', at: 1 } })).toBe('You chose “Reject”.')
  })
})

describe('ApprovalInbox, RulesSettings, AutoApproveSwitch', () => {
  it('lists waiting items oldest first with agent and session names', () => {
    const html = renderToStaticMarkup(
      <ApprovalInbox
        now={200_000}
        onOpen={noop}
        items={[
          { kind: 'elicitation', requestId: 'e', agentName: 'Codex', sessionId: 's2', sessionName: 'Refactor', title: 'Which branch?', createdAt: 150_000 },
          { kind: 'permission', requestId: 'p', agentName: 'Claude', sessionId: 's1', sessionName: 'Fix bug', title: 'Run npm test?', createdAt: 10_000 },
        ]}
      />,
    )
    expect(html.indexOf('Run npm test?')).toBeLessThan(html.indexOf('Which branch?'))
    // Names isolated: a right-to-left agent or session name does not take the age after it into its run.
    expect(html).toContain('<bdi>Claude</bdi> · <bdi>Fix bug</bdi> · 3 min ago')
  })

  it('lists a form by its title, its message under it, each cut to a line; a form without a title by its message', () => {
    const question: ElicitationView = {
      elicitationRequestId: 'e1',
      agentId: 'a',
      agentName: 'Codex',
      sessionId: 's2',
      mode: 'form',
      message: 'A few details before I scaffold\nthe project.',
      createdAt: 0,
      status: 'pending',
      requestedSchema: { type: 'object', title: 'Project setup', properties: {} },
    }
    const item = (elicitation: ElicitationView): InboxItem => ({ kind: 'elicitation', id: elicitation.elicitationRequestId, createdAt: 0, agentId: 'a', agentName: 'Codex', sessionId: 's2', sessionTitle: 'Refactor', elicitation })
    const html = renderToStaticMarkup(<WiredInbox onOpen={noop} items={[item(question), item({ ...question, elicitationRequestId: 'e2', message: 'Which branch?', requestedSchema: { type: 'object', properties: {} } })]} />)
    expect(html).toContain('<span class="perm-inbox-item-title perm-inbox-one-line" title="Project setup">Project setup</span>')
    expect(html).toContain('<span class="perm-inbox-detail perm-inbox-one-line" title="A few details before I scaffold the project.">A few details before I scaffold the project.</span>')
    expect(html).toContain('<span class="perm-inbox-item-title perm-inbox-one-line" title="Which branch?">Which branch?</span>')
    expect(html.match(/perm-inbox-detail/g)).toHaveLength(1)
  })

  it('an empty inbox says so without a count of 0', () => {
    const html = renderToStaticMarkup(<ApprovalInbox onOpen={noop} items={[]} />)
    expect(html).toContain('Nothing is waiting for an answer.')
    expect(html).not.toContain('perm-count')
    expect(renderToStaticMarkup(<ApprovalInbox onOpen={noop} items={[{ kind: 'permission', requestId: 'p', agentName: 'Claude', sessionId: 's1', sessionName: 'Fix bug', title: 'Run npm test?', createdAt: 0 }]} />)).toContain('<span class="perm-count">1</span>')
  })

  it('rules list: the words main wrote, session-only and retired rules labelled, a Forget button per rule', () => {
    const rule = { ruleId: 'r', format: 2 as const, agentId: 'a', agentName: 'Claude', cwd: '/p', toolKind: 'execute', decision: 'allow_always' as const, command: { type: 'exact' as const, value: 'npm test' }, paths: null, label: 'Always allow `npm test` in ~/src/app (Claude)', createdAt: 0 }
    const html = renderToStaticMarkup(
      <RulesSettings
        onRevoke={noop}
        rules={[
          rule,
          { ...rule, ruleId: 's', sessionId: 'sess', label: 'Always allow the tool (Claude, this session only)', createdAt: 2 },
          { ...rule, ruleId: 'o', retired: { reason: 'It covered every fetch request of this agent in this folder, to any address.' }, label: 'Always allow every fetch request (Claude)', createdAt: 1 },
        ]}
      />,
    )
    expect(html).toContain('Always allow `npm test` in ~/src/app (Claude)')
    expect(html).toContain('aria-label="Forget: Always allow `npm test` in ~/src/app (Claude)"')
    expect(html).toMatch(/Always allow the tool \(Claude, this session only\)<\/span><span class="perm-rule-badge">This session only<\/span>/)
    expect(html).toContain('forgotten when the session closes or Bosun quits')
    expect(html).toMatch(/every fetch request \(Claude\)<\/span><span class="perm-rule-badge perm-rule-badge-retired">Not applied<\/span>/)
    expect(html).toContain('to any address.')
    expect(html).toContain('One decision remembered by an older version of Bosun covered more than')
  })

  it('the switch is a visible role=switch, off by default', () => {
    const off = renderToStaticMarkup(<AutoApproveSwitch checked={false} onChange={noop} />)
    expect(off).toMatch(/role="switch" aria-checked="false"/)
    expect(off).toContain('Auto-approve off')
    expect(renderToStaticMarkup(<AutoApproveSwitch checked onChange={noop} />)).toMatch(/aria-checked="true"/)
  })
})
