/**
 * Save image in the browser host, through the real app: an image a tool call returns that is too large to show (a
 * 20000 × 20000 PNG header) offers Save image, which downloads the agent's bytes (main has no save dialog there; the
 * Electron app's `saveImage` is in test/unit/history/save-image.test.ts and save-image.browser.test.ts).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import type { Scenario } from '../agents/scenario'
import { launchPerTest, screenshot } from './support/harness'
import { sendPrompt, startSession, transcript, visible, waitIdle } from './support/session-ui'

const AGENT = 'Scripted agent'
const launch = launchPerTest()
const dir = mkdtempSync(join(tmpdir(), 'bosun-save-image-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const be32 = (n: number) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]
const ascii = (t: string) => [...t].map((c) => c.charCodeAt(0))
const huge = Buffer.from([0x89, ...ascii('PNG\r\n\x1a\n'), ...be32(13), ...ascii('IHDR'), ...be32(20000), ...be32(20000), 8, 6, 0, 0, 0, 0, 0, 0, 0]).toString('base64')

it('downloads an image too large to show, in the browser host', async () => {
  const scenario: Scenario = {
    prompts: {
      default: [
        {
          type: 'update',
          update: {
            sessionUpdate: 'tool_call',
            toolCallId: 'read-1',
            title: 'Read huge.png',
            kind: 'read',
            status: 'completed',
            content: [{ type: 'content', content: { type: 'image', mimeType: 'image/png', data: huge } }],
          },
        },
      ],
    },
  }
  const file = join(dir, 'scenario.json')
  writeFileSync(file, JSON.stringify(scenario))
  const app = await launch([{ id: 'scripted', name: AGENT, scenario: file }])
  const { page } = app
  await startSession(page, { agentName: AGENT, cwd: app.home.workspace })
  await sendPrompt(page, 'Read huge.png')
  await waitIdle(page)
  const placeholder = transcript(page).locator('.content-image-placeholder')
  await visible(placeholder.getByRole('img', { name: 'Image 20000 × 20000, too large to show' }))
  await screenshot(page, 'save-image-browser')
  const [download] = await Promise.all([page.waitForEvent('download'), placeholder.getByRole('button', { name: 'Save image' }).click()])
  expect(download.suggestedFilename()).toBe('image-20000x20000.png')
  expect(readFileSync((await download.path())!).toString('base64')).toBe(huge)
})
