/**
 * The new-session form's working folder, in a narrow sidebar: a long path left the field showing its start and hid
 * the folder's own name once the field lost the focus. Its end (the folder's name) now shows.
 */
import { describe, expect, it } from 'vitest'
import { browserHarness } from '../../support/browser-bundle'

const FOLDER = '/home/alexandra/projects/customer-portal/packages/billing-service'

const harness = browserHarness(`
import { createRoot } from 'react-dom/client'
import { NewSessionForm } from './renderer/components/sidebar/NewSessionForm'
createRoot(document.getElementById('root')).render(
  <div style={{ width: '200px' }}>
    <NewSessionForm agents={[{ agentId: 'a', name: 'Agent' }]} defaultCwdFor={() => ${JSON.stringify(FOLDER)}} onCreate={() => new Promise(() => {})} onCancel={() => {}} />
  </div>,
)
`)

describe('the working folder field', { timeout: 30_000 }, () => {
  it('shows the end of a long path (the folder’s name) once it loses the focus', async () => {
    const page = await harness.open({ styles: 'input { width: 100%; box-sizing: border-box; font: 13px monospace; }' })
    try {
      const field = page.getByRole('textbox', { name: 'Working folder' })
      await field.waitFor()
      await page.getByRole('combobox', { name: 'Agent' }).focus()
      const shown = await field.evaluate((el: HTMLInputElement) => ({ long: el.scrollWidth > el.clientWidth, atEnd: el.scrollLeft + el.clientWidth >= el.scrollWidth - 1 }))
      expect(shown).toEqual({ long: true, atEnd: true })
      expect(page.errors).toEqual([])
    } finally {
      await page.close()
    }
  })
})
