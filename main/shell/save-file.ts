/** The Electron save dialog for exports and images: asks where, writes the file, answers the path (null: cancelled). */
import { app, dialog, type BrowserWindow } from 'electron'
import { writeFile } from 'node:fs/promises'
import { extname, join } from 'node:path'
import type { SaveFile } from '../app/services'

const FILTERS: Record<'markdown' | 'json', { name: string; extensions: string[] }[]> = {
  markdown: [{ name: 'Markdown', extensions: ['md'] }],
  json: [{ name: 'JSON', extensions: ['json'] }],
}

/** An image's filter is its own extension (`image-20000x20000.png`: PNG image). */
const filters = (suggestedName: string, format: Parameters<SaveFile>[2]) => {
  if (format !== 'image') return FILTERS[format]
  const extension = extname(suggestedName).slice(1)
  return [{ name: `${extension.toUpperCase()} image`, extensions: [extension] }]
}

/**
 * One save dialog at a time. The renderer asks for exports and is not trusted to ask once: without this, a page
 * could stack hundreds of dialogs for the person to dismiss, each holding its export in memory while it waits.
 */
export function createSaveFile(getWindow: () => BrowserWindow | undefined): SaveFile {
  let open = false
  return async (suggestedName, content, format) => {
    if (open) throw new Error('another save dialog is open; finish that one first')
    open = true
    try {
      const options = { defaultPath: join(app.getPath('documents'), suggestedName), filters: filters(suggestedName, format) }
      const window = getWindow()
      const result = window ? await dialog.showSaveDialog(window, options) : await dialog.showSaveDialog(options)
      if (result.canceled || !result.filePath) return null
      await (typeof content === 'string' ? writeFile(result.filePath, content, 'utf8') : writeFile(result.filePath, content))
      return result.filePath
    } finally {
      open = false
    }
  }
}
