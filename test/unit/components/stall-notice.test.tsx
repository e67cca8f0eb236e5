/** The stall notice's words and controls, rendered to static markup (the e2e test clicks them). */
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { StallNotice } from '../../../renderer/components/session/StallNotice'

const render = (silentMs: number) =>
  renderToStaticMarkup(<StallNotice agentName="Claude" silentMs={silentMs} otherBusySessions={0} onStop={() => {}} onRestart={() => {}} />)
const textOf = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ')

describe('StallNotice', () => {
  it('says how long the agent has been silent, with Stop and Restart agent', () => {
    const html = render(125_000)
    expect(html).toContain('aria-label="Claude is silent"')
    expect(textOf(html)).toContain('No word from Claude for 2 min')
    expect(textOf(html)).toMatch(/Stop .*Restart agent/)
    // Its Stop is named apart from the composer's.
    expect(html).toContain('aria-label="Stop this turn"')
    // Announced once (constant words), not at every tick.
    expect(html).toContain('role="status">No word from Claude for a while.</span>')
  })

  it('under a minute, in steps of 5 s', () => {
    expect(textOf(render(37_000))).toContain('No word from Claude for 35 s')
  })

  it('an agent that reads none of its input: said so at once, whatever the silence, and only the restart offered (Stop cannot reach it)', () => {
    const html = renderToStaticMarkup(<StallNotice agentName="Claude" silentMs={0} otherBusySessions={0} onStop={() => {}} onRestart={() => {}} notReading />)
    expect(html).toContain('aria-label="Claude is not reading"')
    expect(textOf(html)).toContain('Claude is not reading its input')
    expect(textOf(html)).toContain('nothing you send reaches it now, Stop included. Restart the agent to go on')
    expect(textOf(html)).not.toContain('No word from')
    expect(html).not.toContain('aria-label="Stop this turn"')
    expect(textOf(html)).toContain('Restart agent')
  })
})
