/**
 * Code the app loads on first use, in Chromium: a fenced block that names a language is shown plain, then highlighted
 * once highlight.js has loaded (the Markdown renders again); a terminal holds its place, then becomes xterm.js's; an
 * elicitation's form comes when its code has loaded and stays the same form when it renders again.
 */
import { describe, expect, it } from 'vitest'
import { browserHarness } from '../../support/browser-bundle'

const entry = `
import { createRoot } from 'react-dom/client'
import { Markdown } from './renderer/components/markdown/Markdown'
import { LazyXtermView } from './renderer/components/transcript/LazyXterm'
import { LazyElicitationCard } from './renderer/components/elicitation/LazyElicitationCard'

const api = { respondElicitation: async () => ({ ok: true, value: undefined }), openElicitationUrl: async () => ({ ok: true, value: undefined }) }
const elicitation = (message) => ({
  elicitationRequestId: 'el-1', agentId: 'a', agentName: 'Agent A', sessionId: 's1', mode: 'form', message, createdAt: 0, status: 'pending',
  requestedSchema: { type: 'object', properties: { name: { type: 'string', title: 'Name' } } },
})
const root = createRoot(document.getElementById('root'))
const show = (message) => root.render(
  <main>
    <Markdown source={'Some code:\\n\\n\`\`\`ts\\nconst x: number = 1\\n\`\`\`\\n'} />
    <LazyXtermView output="hello from the terminal" ariaLabel="Terminal output" rows={4} />
    <LazyElicitationCard elicitation={elicitation(message)} api={api} />
  </main>,
)
window.__show = show
show('Your name?')
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
      const name = page.getByRole('textbox', { name: 'Name' })
      await name.fill('Ada')
      const input = await name.elementHandle()
      await page.evaluate(() => (window as unknown as { __show: (message: string) => void }).__show('Your name, please?'))
      await page.getByText('Your name, please?').waitFor()
      expect(await name.inputValue()).toBe('Ada')
      // The same card, not a new one (a new one would bring its draft back from memory, but not its focus or its node).
      expect(await input!.evaluate((el) => el.isConnected)).toBe(true)
      expect(page.errors).toEqual([])
    } finally {
      await page.close()
    }
  })
})
