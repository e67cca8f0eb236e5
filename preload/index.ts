/**
 * `window.bosun`: one method per contract call and one `on…` subscription per contract event, nothing else.
 * No raw `ipcRenderer`, no generic send: the renderer can only reach the channels the contract names, and a
 * listener receives the payload only (never the IpcRendererEvent, whose `sender` would leak ipcRenderer).
 *
 * The names come from the contract object itself (one list). That bundles zod's schemas into this sandboxed
 * preload (electron.vite.config.ts inlines zod); they are built but never used here.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron'
import { callChannel, calls, eventChannel, events, subscriptionName, type CallName, type EventName } from './contract'

const api: Record<string, unknown> = {}

for (const name of Object.keys(calls) as CallName[]) {
  const channel = callChannel(name)
  api[name] = (arg: unknown) => ipcRenderer.invoke(channel, arg)
}

for (const name of Object.keys(events) as EventName[]) {
  const channel = eventChannel(name)
  api[subscriptionName(name)] = (listener: (payload: unknown) => void) => {
    if (typeof listener !== 'function') throw new TypeError(`${subscriptionName(name)} needs a listener function`)
    const wrapped = (_event: IpcRendererEvent, payload: unknown) => listener(payload)
    ipcRenderer.on(channel, wrapped)
    return () => {
      ipcRenderer.removeListener(channel, wrapped)
    }
  }
}

contextBridge.exposeInMainWorld('bosun', Object.freeze(api))
