import { StrictMode, useState } from 'react'
import { createRoot } from 'react-dom/client'
import { AgentsScreen } from '../../screens/agents/AgentsScreen'
import type { AgentTabId } from '../../components/agents/AgentTabs'
import { createFakeAgentsBosun } from './fake-agents'
import '../../styles/app.css'

/**
 * Dev preview of the Agents screen over a fake BosunApi. `?agent=<id>&tab=<tab>` opens a tab;
 * `?nokeychain` pretends the keychain is missing; `?corrupt` reports a corrupt agents.json; `?live` appends a log line every second.
 */
const params = new URLSearchParams(location.search)
const fake = createFakeAgentsBosun({ keychainAvailable: !params.has('nokeychain'), corrupt: params.has('corrupt'), ...(params.has('live') ? { liveLogMs: 1000 } : {}) })
;(window as unknown as { __fakeAgents: typeof fake }).__fakeAgents = fake

function Preview() {
  const [open, setOpen] = useState(true)
  if (!open)
    return (
      <p style={{ padding: 24 }}>
        Closed. <button onClick={() => setOpen(true)}>Open Agents</button>
      </p>
    )
  const agent = params.get('agent')
  return (
    <AgentsScreen
      api={fake.api}
      onClose={() => setOpen(false)}
      {...(agent ? { initialAgentId: agent } : {})}
      {...(params.get('tab') ? { initialTab: params.get('tab') as AgentTabId } : {})}
    />
  )
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Preview />
  </StrictMode>,
)
