import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './App'
import { RenderGuard } from './components/common/RenderGuard'
import { alignSpinners } from './components/common/spinner-phase'
import { getBosun, onDidRehydrate } from './bridge'
import { createAppStore } from './state/app-store'
import { guardFileDrops } from './screens/drop-guard'
import { createWiredSeams, watchDefaultFolders, WiredInbox } from './screens/wiring'
import './styles/app.css'

const api = getBosun()
const store = createAppStore()
// Module-level and app-long: the renderer lives as long as the window.
const folders = watchDefaultFolders(api)
const seams = createWiredSeams(api)
guardFileDrops(window)
alignSpinners(document)

/** What the window shows when nothing smaller could hold an error: a sentence, not a blank page. */
const windowFailed = (error: Error) => (
  <div className="render-guard-window" role="alert">
    <h1>Bosun's window hit an error it cannot get past</h1>
    <p>{error.message.slice(0, 300)}</p>
    <p>Your agents and sessions keep running in Bosun. Reload the window to carry on.</p>
  </div>
)

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <RenderGuard what="the window" fallback={windowFailed}>
      <App
        api={api}
        store={store}
        seams={seams}
        Inbox={WiredInbox}
        defaultCwdFor={folders.defaultCwdFor}
        onDidRehydrate={onDidRehydrate}
        host={window.bosun ? 'electron' : 'browser'}
      />
    </RenderGuard>
  </StrictMode>,
)
