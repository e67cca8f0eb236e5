import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { dismissesItself, MAX_VISIBLE_NOTICES, Toasts } from '../../../renderer/components/common/Toasts'

const notice = (i: number, severity = 'warning') => ({ id: `n${i}`, severity, title: `Notice ${i}`, description: null })

describe('notices (toasts)', () => {
  it('information dismisses itself; a warning or an error stays until dismissed (an unknown severity counts as information)', () => {
    expect(dismissesItself('info')).toBe(true)
    expect(dismissesItself('a_future_severity')).toBe(true)
    expect(dismissesItself('warning')).toBe(false)
    expect(dismissesItself('error')).toBe(false)
  })

  it('shows the newest few and counts the rest, with a way to dismiss them all', () => {
    const html = renderToStaticMarkup(<Toasts notices={[1, 2, 3, 4, 5].map((i) => notice(i))} onDismiss={() => undefined} />)
    expect(MAX_VISIBLE_NOTICES).toBe(3)
    for (const i of [3, 4, 5]) expect(html).toContain(`Notice ${i}<`)
    for (const i of [1, 2]) expect(html).not.toContain(`Notice ${i}<`)
    expect(html).toContain('2 earlier notices')
    expect(html).toContain('Dismiss all')
  })

  it('a notice the agent sent again says how many times', () => {
    const html = renderToStaticMarkup(<Toasts notices={[{ ...notice(1), repeats: 4 }, notice(2)]} onDismiss={() => undefined} />)
    expect(html).toContain('Notice 1</strong><span class="toast-repeats">4 times</span>')
    expect(html).not.toContain('Notice 2</strong><span')
  })

  it('a session’s notice the agent sent says so, its hidden characters shown; Bosun’s own says nothing (hostile14)', () => {
    // Before: an agent's "Bosun: auto-approve is on" drew as Bosun's own words do, a right-to-left override applied.
    const agents = { id: 'a', severity: 'warning', title: 'Bosun: auto-approve is on \u202Eexe.txt', description: 'Answers are given for you.' }
    const bosuns = { id: 'b', severity: 'warning', title: 'Some early updates were dropped', description: null, fromBosun: true as const }
    const html = renderToStaticMarkup(<Toasts notices={[agents, bosuns]} onDismiss={() => undefined} placement="session" speaker="Claude" />)
    expect(html.match(/toast-source/g)).toHaveLength(1)
    expect(html).toContain('<span class="toast-source">Claude says</span><strong><span>Bosun: auto-approve is on </span><abbr')
    expect(html).not.toContain('\u202E')
    expect(html).toContain('<strong>Some early updates were dropped</strong>')
    // The app's own notices (no session, no speaker) are Bosun's.
    expect(renderToStaticMarkup(<Toasts notices={[agents]} onDismiss={() => undefined} placement="page" />)).not.toContain('toast-source')
  })

  it('a notice’s title is plain text', () => {
    const html = renderToStaticMarkup(<Toasts notices={[{ id: 'x', severity: 'error', title: '<b>bold</b>', description: null }]} onDismiss={() => undefined} />)
    expect(html).toContain('&lt;b&gt;bold&lt;/b&gt;')
    expect(html).not.toContain('earlier')
  })
})
