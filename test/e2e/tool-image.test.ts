/**
 * An image a tool call returns (claude-agent-acp 0.101's Read of a PNG: `{type:'content', content:{type:'image'}}`),
 * in a real browser: shown at its own size, never stretched across the card; one too large to show offers Save image,
 * a download of the agent's bytes in the browser host.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { deflateSync } from 'node:zlib'
import { afterAll, expect, it } from 'vitest'
import type { Scenario } from '../agents/scenario'
import { launchPerTest, screenshot } from './support/harness'
import { sendPrompt, startSession, transcript, visible, waitIdle } from './support/session-ui'

const AGENT = 'Scripted agent'
const launch = launchPerTest()
const dir = mkdtempSync(join(tmpdir(), 'bosun-tool-image-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** A 64×32 RGB PNG (a gradient), as small as the one the agent read. */
function png(width: number, height: number): string {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    return c >>> 0
  })
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff
    for (const b of bytes) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8)
    return (c ^ 0xffffffff) >>> 0
  }
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
    const out = Buffer.alloc(body.length + 8)
    out.writeUInt32BE(data.length, 0)
    body.copy(out, 4)
    out.writeUInt32BE(crc(body), body.length + 4)
    return out
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header.set([8, 2, 0, 0, 0], 8)
  const rows = Buffer.concat(Array.from({ length: height }, (_, y) => Buffer.from([0, ...Array.from({ length: width }, (_, x) => [x * 4, y * 8, 128]).flat()])))
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', header), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]).toString('base64')
}

/** A session whose agent answers the prompt with a Read tool call returning the image `data` (a PNG), open and idle. */
async function sessionWithToolImage(title: string, data: string) {
  const scenario: Scenario = {
    prompts: {
      default: [
        {
          type: 'update',
          update: {
            sessionUpdate: 'tool_call',
            toolCallId: 'read-1',
            title,
            kind: 'read',
            status: 'completed',
            content: [{ type: 'content', content: { type: 'image', mimeType: 'image/png', data } }],
          },
        },
        { type: 'text', text: 'That is the picture.' },
      ],
    },
  }
  const file = join(dir, 'scenario.json')
  writeFileSync(file, JSON.stringify(scenario))
  const app = await launch([{ id: 'scripted', name: AGENT, scenario: file }])
  const { page } = app
  await startSession(page, { agentName: AGENT, cwd: app.home.workspace })
  await sendPrompt(page, title)
  await waitIdle(page)
  return page
}

it('shows an image a tool read at its own size, not stretched to the width of the card', async () => {
  const page = await sessionWithToolImage('Read pic.png', png(64, 32))
  const image = await visible(transcript(page).getByRole('img', { name: 'Image from the agent' }))
  await image.evaluate((img: HTMLImageElement) => img.decode())
  const box = (await image.boundingBox())!
  await screenshot(page, 'tool-image')
  // Its own 64×32 (and a pixel of border each side): it was 894×358 in a 920-pixel card, blurred and out of proportion.
  expect(Math.round(box.width)).toBe(66)
  expect(Math.round(box.height)).toBe(34)
})

it('downloads an image too large to show, in the browser host (main has no save dialog there)', async () => {
  const be32 = (n: number) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]
  const ascii = (t: string) => [...t].map((c) => c.charCodeAt(0))
  // A PNG's signature and header only: it says 20000 × 20000 (the Electron app's `saveImage`: test/unit/history/save-image.test.ts).
  const huge = Buffer.from([0x89, ...ascii('PNG\r\n\x1a\n'), ...be32(13), ...ascii('IHDR'), ...be32(20000), ...be32(20000), 8, 6, 0, 0, 0, 0, 0, 0, 0]).toString('base64')
  const page = await sessionWithToolImage('Read huge.png', huge)
  const placeholder = transcript(page).locator('.content-image-placeholder')
  await visible(placeholder.getByRole('img', { name: 'Image 20000 × 20000, too large to show' }))
  await screenshot(page, 'save-image-browser')
  const [download] = await Promise.all([page.waitForEvent('download'), placeholder.getByRole('button', { name: 'Save image' }).click()])
  expect(download.suggestedFilename()).toBe('image-20000x20000.png')
  expect(readFileSync((await download.path())!).toString('base64')).toBe(huge)
})
