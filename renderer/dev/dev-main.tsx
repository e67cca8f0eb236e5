import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from '../App'
import { createAppStore } from '../state/app-store'
import { createWiredSeams, WiredInbox } from '../screens/wiring'
import { createFakeBosun } from './fake-bosun'
import '../styles/app.css'

/**
 * Dev preview entry: the real App over a fake BosunApi. `?session=<id>` opens a session; `?placeholders`
 * shows the screen's own placeholders instead of the permission/elicitation components.
 */
const fake = createFakeBosun()
const store = createAppStore()
const params = new URLSearchParams(location.search)
const wired = !params.has('placeholders')
const seams = wired ? createWiredSeams(fake.api) : undefined
const wanted = params.get('session')
if (wanted) {
  // Select once the snapshot has arrived.
  const off = store.subscribe(() => {
    if (store.getSnapshot().sessions[wanted]) {
      off()
      store.selectSession(wanted)
    }
  })
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App
      api={fake.api}
      store={store}
      seams={seams}
      {...(wired ? { Inbox: WiredInbox } : {})}
      defaultCwdFor={(agentId) => `/home/ada/src/${agentId === 'claude' ? 'webshop' : 'scratch'}`} />
  </StrictMode>,
)
