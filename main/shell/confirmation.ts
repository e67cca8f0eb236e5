/**
 * The Electron {@link ConfirmationService}: a native message box, modal on the main window. It is drawn
 * by the OS toolkit in the main process, so the renderer (one XSS away from hostile) can neither draw a
 * look-alike that counts nor click it. "Cancel" is the default and the Escape answer: a stray Enter
 * while typing never confirms.
 */
import { dialog, type BrowserWindow, type MessageBoxOptions } from 'electron'
import type { Logger } from '../base/log'
import type { ConfirmationService } from '../trust/confirmation'

const CANCEL = 0
const CONFIRM = 1

export function createDialogConfirmation(getWindow: () => BrowserWindow | undefined, log: Logger): ConfirmationService {
  return {
    async confirm(request) {
      const options: MessageBoxOptions = {
        type: 'warning',
        title: `Bosun: ${request.title}`,
        message: request.message,
        detail: request.detail,
        buttons: ['Cancel', request.confirmLabel],
        defaultId: CANCEL,
        cancelId: CANCEL,
        noLink: true,
        normalizeAccessKeys: false,
      }
      const window = getWindow()
      try {
        const { response } = window && !window.isDestroyed() ? await dialog.showMessageBox(window, options) : await dialog.showMessageBox(options)
        const confirmed = response === CONFIRM
        log.info(`${request.kind}: ${confirmed ? 'confirmed' : 'cancelled'} by the person`)
        return { confirmed, by: 'person' }
      } catch (error) {
        log.error('the confirmation dialog failed; treating it as cancelled', error)
        return { confirmed: false, by: 'refused' }
      }
    },
  }
}
