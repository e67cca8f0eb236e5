import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './App'
import { getBosun, onDidRehydrate } from './bridge'
import { createAppStore } from './state/app-store'
import './styles/app.css'

const store = createAppStore()

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App api={getBosun()} store={store} onDidRehydrate={onDidRehydrate} />
  </StrictMode>,
)
