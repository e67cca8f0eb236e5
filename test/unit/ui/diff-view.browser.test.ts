/**
 * v2 diffs in Chromium with the app's styles, light and dark: the structured changes listed above a git patch
 * (a delete and a move among them), a patch in a format Bosun does not read shown as sent, and changes with no
 * patch. Screenshots land in test/e2e/screenshots/diff-view-<scheme>.png.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { browserHarness } from '../../support/browser-bundle'
import { screenshotDir } from '../../e2e/support/harness'

const entry = `
import { createRoot } from 'react-dom/client'
import { DiffView } from './renderer/components/transcript/DiffView'

const patch = ['diff --git /w/src/app.ts /w/src/app.ts', 'index 1a2b3c4..5d6e7f8 100644', '--- /w/src/app.ts', '+++ /w/src/app.ts', '@@ -10,3 +10,3 @@ export function main() {', '   const port = 8080', "-  log('starting')", "+  log('starting on', port)", '   serve(port)', ''].join('\\n')
const blocks = [
  {
    type: 'diff',
    changes: [
      { operation: 'modify', path: '/w/src/app.ts', fileType: 'text' },
      { operation: 'delete', path: '/w/src/old-config.json' },
      { operation: 'move', oldPath: '/w/docs/setup.md', path: '/w/docs/install.md' },
    ],
    patch: { format: 'git_patch', text: patch },
  },
  { type: 'diff', changes: [{ operation: 'modify', path: '/w/src/app.ts' }], patch: { format: '_unified_v9', text: patch } },
  { type: 'diff', changes: [{ operation: 'add', path: '/w/assets/logo.png', fileType: 'binary' }, { operation: '_chmod', path: '/w/run.sh' }], patch: null },
]
createRoot(document.getElementById('root')).render(
  <main style={{ maxWidth: 720, padding: 16, display: 'grid', gap: 12 }}>
    {blocks.map((block, i) => <DiffView key={i} block={block} />)}
  </main>,
)
`

const harness = browserHarness(entry)
const styles = readFileSync('renderer/styles/app.css', 'utf8')

describe('v2 diffs in Chromium', { timeout: 30_000 }, () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`lists every change above the patch, and shows an unknown format as sent (${colorScheme})`, async () => {
      const page = await harness.open({ viewport: { width: 760, height: 640 }, styles })
      try {
        await page.emulateMedia({ colorScheme })
        const figures = page.getByRole('figure', { name: 'File changes' })
        await figures.first().waitFor()
        expect(await figures.count()).toBe(3)
        const [git, raw, none] = [figures.nth(0), figures.nth(1), figures.nth(2)]
        // Each change reads as one line of words (its badge and path are flex items).
        const changes = async (figure: typeof git) =>
          (await figure.getByRole('list', { name: 'Changed files' }).getByRole('listitem').allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim())
        expect(await changes(git)).toEqual([
          'modified /w/src/app.ts',
          'deleted /w/src/old-config.json',
          'moved /w/docs/setup.md → /w/docs/install.md',
        ])
        expect(await git.getByRole('table', { name: 'Patch' }).getByRole('row').count()).toBe(9)
        expect(await raw.getByRole('table').count()).toBe(0)
        expect(await raw.getByLabel('Patch (_unified_v9)').innerText()).toContain("+  log('starting on', port)")
        expect(await changes(none)).toEqual(['added /w/assets/logo.png (binary)', '_chmod /w/run.sh (unknown operation)'])
        await page.locator('main').screenshot({ path: join(screenshotDir, `diff-view-${colorScheme}.png`) })
        expect(page.errors).toEqual([])
      } finally {
        await page.close()
      }
    })
  }
})
