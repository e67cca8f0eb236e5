/**
 * The first hour of someone who just installed Bosun, in the browser host: no agents, the empty window, Settings and
 * the list of keyboard shortcuts (there was none anywhere), light and dark, 900 and 1400 px wide, by keyboard.
 * Screenshots: test/e2e/screenshots/first-hour-*.png.
 */
import { expect, it } from 'vitest'
import { launchPerTest, screenshot } from './support/harness'
import { gone, visible } from './support/session-ui'

const launch = launchPerTest()

for (const colorScheme of ['light', 'dark'] as const) {
  for (const width of [900, 1400]) {
    it(`the empty window leads to Settings by keyboard, which list the keys this host answers (${colorScheme}, ${width} px)`, async () => {
      const { page } = await launch([], { colorScheme, viewport: { width, height: 820 } })
      // The empty window offers the way forward and says where the keys are listed.
      const empty = page.getByRole('main', { name: 'No session' })
      await visible(empty.getByRole('heading', { name: 'No agent is set up yet' }))
      expect(await empty.getByText(/Keyboard shortcuts are listed in Settings/).innerText()).toBe('Keyboard shortcuts are listed in Settings (Ctrl+,).')
      await screenshot(page, `first-hour-empty-${colorScheme}-${width}`)

      await page.keyboard.press('Control+Comma')
      const settings = await visible(page.getByRole('dialog', { name: 'Settings' }))
      const shortcuts = await visible(settings.getByRole('region', { name: 'Keyboard shortcuts' }))
      // The browser keeps Ctrl+N (a new window): the list names the key the page does get, and the one for Settings.
      const anywhere = shortcuts.getByRole('table', { name: 'Anywhere' })
      expect(await anywhere.getByRole('row', { name: /New session/ }).getByRole('rowheader').innerText()).toBe('Ctrl+Shift+O')
      expect(await anywhere.getByRole('row', { name: /Settings/ }).getByRole('rowheader').innerText()).toBe('Ctrl+,')
      expect(await shortcuts.getByText('Ctrl+N', { exact: true }).count()).toBe(0)
      await visible(shortcuts.getByRole('table', { name: 'In the message box' }))
      await visible(shortcuts.getByRole('table', { name: /In a permission request/ }))
      await shortcuts.scrollIntoViewIfNeeded()
      await screenshot(page, `first-hour-shortcuts-${colorScheme}-${width}`)
      // Nothing of the list is cut or runs past the window.
      const box = (await shortcuts.boundingBox())!
      expect(box.x + box.width).toBeLessThanOrEqual(width)

      await page.keyboard.press('Escape')
      await gone(settings)
    })
  }
}
