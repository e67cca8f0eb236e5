/** The Electron save dialog for exports: asks where, writes the file, answers the path (null: cancelled). */
import { app, dialog, type BrowserWindow } from 'electron'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'

const FILTERS: Record<'markdown' | 'json', { name: string; extensions: string[] }[]> = {
  markdown: [{ name: 'Markdown', extensions: ['md'] }],
  json: [{ name: 'JSON', extensions: ['json'] }],
}

export function createSaveFile(getWindow: () => BrowserWindow | undefined) {
  return async (suggestedName: string, content: string, format: 'markdown' | 'json'): Promise<string | null> => {
    const options = { defaultPath: join(app.getPath('documents'), suggestedName), filters: FILTERS[format] }
    const window = getWindow()
    const result = window ? await dialog.showSaveDialog(window, options) : await dialog.showSaveDialog(options)
    if (result.canceled || !result.filePath) return null
    await writeFile(result.filePath, content, 'utf8')
    return result.filePath
  }
}
