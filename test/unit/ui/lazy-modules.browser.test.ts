/**
 * Code the app loads on first use, in Chromium: a fenced block that names a language is shown plain, then highlighted
 * once highlight.js has loaded (the Markdown renders again); a terminal holds its place, then becomes xterm.js's.
 */
import { describe, expect, it } from 'vitest'
import { browserHarness } from '../../support/browser-bundle'

const entry = `
import { createRoot } from 'react-dom/client'
import { Markdown } from './renderer/components/markdown/Markdown'
import { LazyXtermView } from './renderer/components/transcript/LazyXterm'

createRoot(document.getElementById('root')).render(
  <main>
    <Markdown source={'Some code:\\n\\n\`\`\`ts\\nconst x: number = 1\\n\`\`\`\\n'} />
    <LazyXtermView output="hello from the terminal" ariaLabel="Terminal output" rows={4} />
  </main>,
)
`

const harness = browserHarness(entry)

describe('modules loaded on first use', { timeout: 30_000 }, () => {
  it('highlights a code block once highlight.js has loaded, and shows the terminal once xterm.js has', async () => {
    const page = await harness.open({ viewport: { width: 800, height: 400 } })
    try {
      await page.locator('.md-code[data-lang="ts"] .hljs-keyword').first().waitFor()
      expect((await page.locator('.md-code').innerText()).trim()).toBe('const x: number = 1')
      await page.locator('[role="log"][aria-label="Terminal output"] .xterm-rows').waitFor()
      await expect.poll(() => page.locator('.xterm-rows').innerText()).toContain('hello from the terminal')
      expect(await page.getByRole('log', { name: 'Terminal output' }).count()).toBe(1)
      expect(page.errors).toEqual([])
    } finally {
      await page.close()
    }
  })
})
