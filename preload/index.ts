/**
 * `window.bosun`: one method per contract call and one `on…` subscription per contract event, nothing else.
 * No raw `ipcRenderer`, no generic send: the renderer can only reach the channels the contract names, and a
 * listener receives the payload only (never the IpcRendererEvent, whose `sender` would leak ipcRenderer).
 *
 * The names and channels arrive from main in a {@link BridgeManifest} built from the contract (one list),
 * so this sandboxed preload stays tiny and never loads zod.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron'
import { decodeBridgeManifest } from '../common/bridge-manifest'

const api: Record<string, unknown> = Object.create(null)
const manifest = decodeBridgeManifest(process.argv)

if (manifest === null) {
  console.error('Bosun preload: no bridge manifest on the command line; window.bosun is empty')
} else {
  for (const [name, channel] of Object.entries(manifest.calls)) {
    api[name] = (arg: unknown) => ipcRenderer.invoke(channel, arg)
  }
  for (const [name, channel] of Object.entries(manifest.events)) {
    api[name] = (listener: (payload: unknown) => void) => {
      if (typeof listener !== 'function') throw new TypeError(`${name} needs a listener function`)
      const wrapped = (_event: IpcRendererEvent, payload: unknown) => listener(payload)
      ipcRenderer.on(channel, wrapped)
      return () => {
        ipcRenderer.removeListener(channel, wrapped)
      }
    }
  }
}

contextBridge.exposeInMainWorld('bosun', Object.freeze({ ...api }))
