import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from '../App'
import { createAppStore } from '../state/app-store'
import { createFakeBosun } from './fake-bosun'
import '../styles/app.css'

/** Dev preview entry: the real App over a fake BosunApi. `?session=<id>` opens a session. */
const fake = createFakeBosun()
const store = createAppStore()
const wanted = new URLSearchParams(location.search).get('session')
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
    <App api={fake.api} store={store} defaultCwdFor={(agentId) => `/home/ada/src/${agentId === 'claude' ? 'webshop' : 'scratch'}`} />
  </StrictMode>,
)
