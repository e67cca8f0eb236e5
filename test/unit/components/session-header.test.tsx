/**
 * The session header's turn status. Rendered to static markup in Node; the history e2e test shows it while a message
 * waits for its agent to start.
 */
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import type { TurnView } from '../../../common/session/types'
import { SessionHeader } from '../../../renderer/components/header/SessionHeader'

const turn = (state: TurnView['state']): TurnView => ({ state, stopReason: null, background: null, completedTurns: 0 })

function status(props: { state: TurnView['state']; startingAgent?: string | null; waitingOnYou?: number }): { label: string; text: string; spinner: boolean } {
  const html = renderToStaticMarkup(
    <SessionHeader title="t" subtitle="s" turn={turn(props.state)} inboxSlot={null} onClose={() => {}} startingAgent={props.startingAgent ?? null} waitingOnYou={props.waitingOnYou ?? 0} />,
  )
  const span = /<span class="turn-state[^"]*" role="status" aria-label="([^"]*)"[^>]*>(.*?)<\/span>(?=<div class="usage|<div class="header-actions|$)/.exec(html)
  if (!span) throw new Error(`no status in ${html}`)
  return { label: span[1]!, text: span[2]!.replace(/<[^>]+>/g, ''), spinner: span[2]!.includes('spinner') }
}

describe('session header status', () => {
  it('says Idle when no turn runs and nothing waits', () => {
    expect(status({ state: 'idle' })).toEqual({ label: 'Turn: Idle', text: 'Idle', spinner: false })
  })

  it('says the agent is starting while a message waits for it, not Idle', () => {
    // After a restart, a message sent to an old session waits seconds for the agent to start and load the session:
    // the composer said "Starting Claude; this goes as soon as it is ready" while the header said "Idle".
    expect(status({ state: 'idle', startingAgent: 'Claude' })).toEqual({ label: 'Turn: starting Claude', text: 'Starting…', spinner: true })
  })

  it('says the turn once it runs, whatever waited before', () => {
    expect(status({ state: 'running', startingAgent: 'Claude' })).toEqual({ label: 'Turn: Working…', text: 'Working…', spinner: true })
  })

  it('says it needs you while a request waits, though the agent reports only running or a state Bosun does not know (G10)', () => {
    expect(status({ state: 'running', waitingOnYou: 1 }).label).toBe('Turn: Needs you')
    expect(status({ state: 'unknown', waitingOnYou: 2 }).label).toBe('Turn: Needs you')
    expect(status({ state: 'requires_action', waitingOnYou: 0 }).label).toBe('Turn: Needs you')
    // Nothing waits any more: what the agent said, not "running" assumed.
    expect(status({ state: 'running', waitingOnYou: 0 }).label).toBe('Turn: Working…')
    expect(status({ state: 'idle', waitingOnYou: 0 }).label).toBe('Turn: Idle')
  })
})
