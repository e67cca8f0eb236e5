import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './App'
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

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App
      api={api}
      store={store}
      seams={seams}
      Inbox={WiredInbox}
      defaultCwdFor={folders.defaultCwdFor}
      onDidRehydrate={onDidRehydrate}
      host={window.bosun ? 'electron' : 'browser'}
    />
  </StrictMode>,
)
