/**
 * The agent's words inside Bosun's own sentences and alerts: a refused message's error, a turn's error, a plan step, a
 * form field Bosun cannot show. A right-to-left override in them was applied, turning round the agent's words and the
 * rest of Bosun's sentence after them ("…(Colour), so it cannot be accepted"); each hidden character now shows as a
 * marker, and no raw override reaches the page (hostile14).
 */
import { renderToStaticMarkup } from 'react-dom/server'
import { expect, it } from 'vitest'
import { ElicitationForm } from '../../../renderer/components/elicitation/ElicitationForm'
import { PromptErrorText } from '../../../renderer/components/transcript/not-sent'
import { PlanPanel } from '../../../renderer/components/transcript/PlanPanel'
import { TurnErrorMark } from '../../../renderer/components/transcript/EntryViews'
import type { ElicitationView } from '../../../common/session/types'

const RLO = '\u202E'
const noOverride = (html: string) => expect(html).not.toContain(RLO)

it("a refused message's error and details show their hidden characters as markers", () => {
  const html = renderToStaticMarkup(<PromptErrorText error={{ message: `Run ${RLO}txt.exe to sign in`, code: -32000, details: `see ${RLO}gol` }} />)
  noOverride(html)
  expect(html).toContain('U+202E')
  expect(html).toContain('txt.exe to sign in')
})

it("a plan step's hidden characters show as markers", () => {
  const html = renderToStaticMarkup(<PlanPanel plans={[{ planId: '', type: 'items', entries: [{ content: `Delete ${RLO}txt.cod`, priority: 'medium', status: 'pending' }] }]} />)
  noOverride(html)
  expect(html).toContain('U+202E')
})

it('a field Bosun cannot show is named with its hidden characters as markers, inside Bosun’s sentence', () => {
  const elicitation: ElicitationView = {
    elicitationRequestId: 'e1',
    agentId: 'a',
    agentName: 'Agent',
    sessionId: 's',
    mode: 'form',
    message: 'Pick a colour',
    requestedSchema: { properties: { colour: { type: '_color', title: `Colour${RLO}` } }, required: ['colour'] },
    createdAt: 0,
    status: 'pending',
  }
  const html = renderToStaticMarkup(<ElicitationForm elicitation={elicitation} onRespond={() => undefined} />)
  noOverride(html)
  expect(html).toContain('This form requires a field Bosun cannot show (Colour⟨U+202E⟩), so it')
})

it("a turn's error, on one line or folded, shows its hidden characters as markers", () => {
  for (const message of [`Run ${RLO}txt.exe`, `Run ${RLO}txt.exe\n${'more '.repeat(50)}`]) {
    const html = renderToStaticMarkup(<TurnErrorMark entry={{ kind: 'turn_error', id: 'turn-error#1', message, code: -32603 }} />)
    noOverride(html)
    expect(html).toContain('The turn ended with an error (code -32603): Run ⟨U+202E⟩txt.exe')
  }
})
