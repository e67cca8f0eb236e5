/**
 * The session's options in Chromium with the app's styles, light and dark: a current mode and a config value the
 * agent does not list show as themselves, marked (not as the first option), and a current mode with no modes
 * listed shows read-only. Screenshots land in test/e2e/screenshots/session-options-unlisted-<scheme>.png.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { browserHarness } from '../../support/browser-bundle'
import { screenshotDir } from '../../e2e/support/harness'

const entry = `
import { createRoot } from 'react-dom/client'
import { SessionOptions } from './renderer/components/session/SessionOptions'

const common = {
  onSetMode: () => undefined,
  onSetConfigOption: () => undefined,
}
const effort = { id: 'effort', name: 'Effort', type: 'select', currentValue: 'extreme', options: [{ value: 'low', name: 'Low' }, { value: 'high', name: 'High' }], raw: {} }
createRoot(document.getElementById('root')).render(
  <div className="session-footer" style={{ display: 'grid', gap: 12, padding: 12 }}>
    <section aria-label="Unlisted">
      <SessionOptions {...common} modes={{ currentModeId: 'bypassPermissions', availableModes: [{ id: 'default', name: 'Default' }, { id: 'plan', name: 'Plan' }] }} configOptions={[effort]} />
    </section>
    <section aria-label="Read-only">
      <SessionOptions {...common} modes={{ currentModeId: 'architect', availableModes: [] }} configOptions={[]} />
    </section>
  </div>,
)
`

const harness = browserHarness(entry)
const styles = readFileSync('renderer/styles/app.css', 'utf8')

describe('session options with values the agent does not list, in Chromium', { timeout: 30_000 }, () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`shows the current mode and value as they are, marked; a mode with none listed read-only (${colorScheme})`, async () => {
      const page = await harness.open({ viewport: { width: 1280, height: 200 }, styles })
      try {
        await page.emulateMedia({ colorScheme })
        const unlisted = page.getByRole('region', { name: 'Unlisted' })
        const shown = (name: string) =>
          unlisted.getByRole('combobox', { name }).evaluate((el: HTMLSelectElement) => ({ value: el.value, text: el.selectedOptions[0]?.textContent }))
        expect(await shown('Mode')).toEqual({ value: 'bypassPermissions', text: 'bypassPermissions (not listed by the agent)' })
        expect(await shown('Effort')).toEqual({ value: 'extreme', text: 'extreme (not listed by the agent)' })
        const readOnly = page.getByRole('region', { name: 'Read-only' })
        expect(await readOnly.getByRole('combobox').count()).toBe(0)
        expect(await readOnly.getByRole('group', { name: 'Mode' }).innerText()).toMatch(/^Mode\s+architect$/)
        await page.locator('#root').screenshot({ path: join(screenshotDir, `session-options-unlisted-${colorScheme}.png`) })
        expect(page.errors).toEqual([])
      } finally {
        await page.close()
      }
    })
  }
})
