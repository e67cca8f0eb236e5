/**
 * An agent's last words and stderr where an agent's failure shows: the session's error banner, the Agents page and
 * Check connection. A right-to-left override in the quoted line turned "gnorw" into "wrong" in the banner and on the
 * Agents page, and the Agents page and Check connection showed the excerpt's escape sequences as "[31m". Now the
 * hidden and direction-changing characters show as markers everywhere, and escapes are dropped.
 */
import { renderToStaticMarkup } from 'react-dom/server'
import { expect, it } from 'vitest'
import type { AgentDefinitionView } from '../../../common/contract/agents'
import type { AgentRuntimeView } from '../../../common/session/types'
import { AgentErrorBanner } from '../../../renderer/components/common/AgentErrorBanner'
import { AgentOverview } from '../../../renderer/components/agents/AgentOverview'
import { CheckConnection } from '../../../renderer/components/agents/CheckConnection'

const error = { kind: 'agent-exited', message: 'Garbage exited with code 3. fatal: last \u202Egnorw', stderrTail: '\u001b[31mError:\u001b[0m \u202Edlrow olleh\nfatal: last \u202Egnorw\n' }
const runtime: AgentRuntimeView = { agentId: 'garbage', name: 'Garbage', status: 'failed', error } as AgentRuntimeView
const definition: AgentDefinitionView = { id: 'garbage', name: 'Garbage', command: 'garbage', args: [], argsText: '', env: {}, secretEnv: [], secretsSet: {} }
const noop = () => undefined
const textOf = (html: string) => html.replace(/<[^>]+>/g, '')

it.each([
  ['the error banner', () => renderToStaticMarkup(<AgentErrorBanner agent={runtime} onRestart={async () => undefined} />)],
  ['the Agents page', () => renderToStaticMarkup(<AgentOverview agent={definition} runtime={runtime} onRestart={noop} onStop={noop} />)],
  [
    'Check connection',
    () =>
      renderToStaticMarkup(
        <CheckConnection
          agentName="Garbage"
          checking={false}
          onCheck={noop}
          result={{ check: { ok: false, agentName: 'Garbage', agentInfo: null, protocolVersion: null, capabilities: [], authMethods: [], durationMs: 10, error } }}
        />,
      ),
  ],
])('%s: the override in the message and the excerpt shows as a marker; no escape reaches the page', (_where, render) => {
  const html = render()
  expect(html).not.toContain('\u202E')
  expect(html).not.toContain('\u001b')
  expect(textOf(html)).not.toContain('[31m')
  expect(textOf(html)).toContain('fatal: last ')
  expect(textOf(html)).toMatch(/U\+202E|RLO/)
})
