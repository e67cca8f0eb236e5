// App lifecycle only; the Electron shell lives in main/shell/.
import { app } from 'electron'

void app.whenReady().then(() => {
  console.log('Bosun starting')
})
