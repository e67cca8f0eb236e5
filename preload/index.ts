// One method per contract call; filled in by the shell issue.
import { contextBridge } from 'electron'

contextBridge.exposeInMainWorld('bosun', {})
