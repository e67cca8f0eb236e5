import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { ApprovalInbox } from '../../../renderer/components/permissions/ApprovalInbox'
import { AutoApproveSwitch } from '../../../renderer/components/permissions/AutoApproveSwitch'
import { describeResolution, PermissionPrompt } from '../../../renderer/components/permissions/PermissionPrompt'
import { RulesSettings } from '../../../renderer/components/permissions/RulesSettings'
import { optionAppearance, optionIndexForKey, promptKeyAction } from '../../../renderer/components/permissions/option-style'
import { hasHiddenCharacters, revealAsText, revealControlChars } from '../../../renderer/components/permissions/reveal-text'
import type { PermissionRequestView, ToolCallEntry } from '../../../common/session/types'

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

  it('digits 1..9 select options; modifiers, repeats and out-of-range keys do not', () => {
    expect(optionIndexForKey({ key: '1' }, 3)).toBe(0)
    expect(optionIndexForKey({ key: '3' }, 3)).toBe(2)
    expect(optionIndexForKey({ key: '4' }, 3)).toBeNull()
    expect(optionIndexForKey({ key: '0' }, 3)).toBeNull()
    expect(optionIndexForKey({ key: '1', ctrlKey: true }, 3)).toBeNull()
    expect(optionIndexForKey({ key: '1', repeat: true }, 3)).toBeNull()
    expect(optionIndexForKey({ key: 'Enter' }, 3)).toBeNull()
  })

  it('prompt keys: digits answer, Escape dismisses, everything else does nothing', () => {
    const options = [{ optionId: 'a' }, { optionId: 'b' }]
    expect(promptKeyAction({ key: '2' }, options)).toBe('b')
    expect(promptKeyAction({ key: 'Escape' }, options)).toBeNull()
    expect(promptKeyAction({ key: 'Enter' }, options)).toBeUndefined()
    expect(promptKeyAction({ key: '3' }, options)).toBeUndefined()
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
    expect(html).toContain('Always allow</span><span class="sr-only"> (remembered for next time)</span>')
    expect(html).toMatch(/class="perm-option perm-tone-neutral" data-kind="_acme_sandbox" aria-keyshortcuts="4"><span class="perm-option-name">Sandbox it<\/span><kbd/)
    expect(html).not.toMatch(/data-kind="_acme_sandbox"[^>]*>[^<]*<span class="perm-option-icon"/)
    expect(html).toContain('aria-keyshortcuts="Escape"')
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
    expect(html).toContain('Claude · Fix bug · 3 min ago')
  })

  it('rules list with a Forget button per rule', () => {
    const html = renderToStaticMarkup(
      <RulesSettings
        onRevoke={noop}
        rules={[
          { ruleId: 'r', agentId: 'a', agentName: 'Claude', cwd: '/p', toolKind: 'execute', decision: 'allow_always', command: { type: 'exact', value: 'npm test' }, paths: null, label: 'Always allow execute `npm test` for Claude in /p', createdAt: 0 },
        ]}
      />,
    )
    expect(html).toContain('Always allow')
    expect(html).toContain('npm test')
    expect(html).toContain('aria-label="Forget: Always allow execute `npm test` for Claude in /p"')
  })

  it('the switch is a visible role=switch, off by default', () => {
    const off = renderToStaticMarkup(<AutoApproveSwitch checked={false} onChange={noop} />)
    expect(off).toMatch(/role="switch" aria-checked="false"/)
    expect(off).toContain('Auto-approve off')
    expect(renderToStaticMarkup(<AutoApproveSwitch checked onChange={noop} />)).toMatch(/aria-checked="true"/)
  })
})
