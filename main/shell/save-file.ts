/** The Electron save dialog for exports: asks where, writes the file, answers the path (null: cancelled). */
import { app, dialog, type BrowserWindow } from 'electron'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'

const FILTERS: Record<'markdown' | 'json', { name: string; extensions: string[] }[]> = {
  markdown: [{ name: 'Markdown', extensions: ['md'] }],
  json: [{ name: 'JSON', extensions: ['json'] }],
}

/**
 * One save dialog at a time. The renderer asks for exports and is not trusted to ask once: without this, a page
 * could stack hundreds of dialogs for the person to dismiss, each holding its export in memory while it waits.
 */
export function createSaveFile(getWindow: () => BrowserWindow | undefined) {
  let open = false
  return async (suggestedName: string, content: string, format: 'markdown' | 'json'): Promise<string | null> => {
    if (open) throw new Error('another save dialog is open; finish that one first')
    open = true
    try {
      const options = { defaultPath: join(app.getPath('documents'), suggestedName), filters: FILTERS[format] }
      const window = getWindow()
      const result = window ? await dialog.showSaveDialog(window, options) : await dialog.showSaveDialog(options)
      if (result.canceled || !result.filePath) return null
      await writeFile(result.filePath, content, 'utf8')
      return result.filePath
    } finally {
      open = false
    }
  }
}
