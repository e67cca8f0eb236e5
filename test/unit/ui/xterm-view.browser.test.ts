/**
 * XtermView in Chromium (xterm.js needs a real DOM): an output that extends what was written is written
 * incrementally; a v2 snapshot that replaces it (even one that begins the same and is longer) is drawn again from
 * a clean terminal, never mixed with the old text. Every `reset` and `write` of xterm is recorded in the page.
 * Screenshots of the replaced snapshot land in test/e2e/screenshots/xterm-snapshot-<scheme>.png.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { browserHarness, type HarnessPage } from '../../support/browser-bundle'
import { screenshotDir } from '../../e2e/support/harness'

const entry = `
import { useState } from 'react'
import { createRoot } from 'react-dom/client'
import { Terminal } from '@xterm/xterm'
import { XtermView } from './renderer/components/transcript/XtermView'

const log = []
window.__xterm = log
const reset = Terminal.prototype.reset
Terminal.prototype.reset = function () { log.push(['reset']); return reset.call(this) }
const write = Terminal.prototype.write
Terminal.prototype.write = function (data, callback) {
  log.push(['write', data])
  return write.call(this, data, () => { window.__written = (window.__written ?? 0) + 1; callback?.() })
}
function Host() {
  const [output, setOutput] = useState('')
  const [interactive, setInteractive] = useState(false)
  window.__setOutput = setOutput
  window.__setInteractive = setInteractive
  return <XtermView output={output} ariaLabel="Terminal output" rows={6} cols={100} onInput={interactive ? () => undefined : undefined} />
}
createRoot(document.getElementById('root')).render(<Host />)
`

const harness = browserHarness(entry)
const styles = ['renderer/styles/app.css', 'renderer/components/transcript/terminal.css', 'node_modules/@xterm/xterm/css/xterm.css'].map((file) => readFileSync(file, 'utf8')).join('\n')

type Call = ['reset'] | ['write', string]

/** Sets the output and waits until xterm has parsed every write so far; returns the calls it made for it. */
async function show(page: HarnessPage, output: string): Promise<Call[]> {
  const before = await page.evaluate(() => (window as unknown as { __xterm: Call[] }).__xterm.length)
  await page.evaluate((text) => (window as unknown as { __setOutput: (s: string) => void }).__setOutput(text), output)
  await page.waitForFunction(() => {
    const w = window as unknown as { __xterm: Call[]; __written?: number }
    return (w.__written ?? 0) === w.__xterm.filter((c) => c[0] === 'write').length
  })
  // A frame for xterm's renderer to draw the parsed text.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))))
  return page.evaluate((from) => (window as unknown as { __xterm: Call[] }).__xterm.slice(from), before)
}

/** The terminal's rows as text, trailing blanks dropped. */
async function screen(page: HarnessPage): Promise<string> {
  const text = await page.locator('.xterm-rows').innerText()
  return text
    .split('\n')
    .map((line) => line.replace(/\s+$/, ''))
    .join('\n')
    .trim()
}

/** 70 characters: longer than the 64 the view once compared. */
const PREFIX = 'Building the workspace packages, this may take a while on a cold cache'

describe('XtermView in Chromium', { timeout: 30_000 }, () => {
  it('a snapshot that begins as the old output and is longer replaces it (not old + its tail)', async () => {
    const page = await harness.open({ viewport: { width: 900, height: 200 }, styles })
    try {
      await page.getByRole('log', { name: 'Terminal output' }).locator('.xterm-rows').waitFor()
      expect(await show(page, `${PREFIX} progress 10%`)).toEqual([['write', `${PREFIX} progress 10%`]])
      expect(await screen(page)).toBe(`${PREFIX} progress 10%`)

      // Same first 64 (and 70) characters, longer: a replacement, drawn again.
      expect(await show(page, `${PREFIX} progress 99% done`)).toEqual([['reset'], ['write', `${PREFIX} progress 99% done`]])
      expect(await screen(page)).toBe(`${PREFIX} progress 99% done`)
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme })
        await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))))
        await page.locator('#root').screenshot({ path: join(screenshotDir, `xterm-snapshot-${colorScheme}.png`) })
      }

      // Same start and same end at the old length, a change in between: the samples match, the whole does not.
      const old = `${PREFIX}\n${'a'.repeat(80)}\n${PREFIX}`
      await show(page, old)
      const edited = `${PREFIX}\n${'a'.repeat(40)}B${'a'.repeat(39)}\n${PREFIX} and more`
      expect(await show(page, edited)).toEqual([['reset'], ['write', edited]])
      expect(await screen(page)).toContain(`${'a'.repeat(40)}B`)
      expect(page.errors).toEqual([])
    } finally {
      await page.close()
    }
  })

  it('an output that extends what was written is written incrementally; shorter or equal-length changes redraw', async () => {
    const page = await harness.open({ viewport: { width: 900, height: 200 }, styles })
    try {
      await page.getByRole('log', { name: 'Terminal output' }).locator('.xterm-rows').waitFor()
      await show(page, `${PREFIX}\nstep 1\n`)
      expect(await show(page, `${PREFIX}\nstep 1\nstep 2\n`)).toEqual([['write', 'step 2\n']])
      expect(await show(page, `${PREFIX}\nstep 1\nstep 2\n`)).toEqual([])
      expect(await screen(page)).toBe(`${PREFIX}\nstep 1\nstep 2`)
      // Equal length, different text; then shorter; then empty.
      expect(await show(page, `${PREFIX}\nstep 1\nstep 3\n`)).toEqual([['reset'], ['write', `${PREFIX}\nstep 1\nstep 3\n`]])
      expect(await show(page, 'short\n')).toEqual([['reset'], ['write', 'short\n']])
      expect(await screen(page)).toBe('short')
      expect(await show(page, '')).toEqual([['reset']])
      expect(await screen(page)).toBe('')
      expect(page.errors).toEqual([])
    } finally {
      await page.close()
    }
  })

  it('a terminal made again (an interactive one that became read-only: the sign-in command exited) still shows the output', async () => {
    const page = await harness.open({ viewport: { width: 900, height: 200 }, styles })
    try {
      await page.evaluate(() => (window as unknown as { __setInteractive: (on: boolean) => void }).__setInteractive(true))
      await page.getByRole('log', { name: 'Terminal output' }).locator('.xterm-rows').waitFor()
      await show(page, 'Paste the code: ')
      expect(await screen(page)).toBe('Paste the code:')
      await page.evaluate(() => (window as unknown as { __setInteractive: (on: boolean) => void }).__setInteractive(false))
      await expect.poll(() => screen(page)).toBe('Paste the code:')
      // And it goes on from there: appended, not drawn twice.
      expect(await show(page, 'Paste the code: done\n')).toEqual([['write', 'done\n']])
      expect(await screen(page)).toBe('Paste the code: done')
      expect(page.errors).toEqual([])
    } finally {
      await page.close()
    }
  })
})
