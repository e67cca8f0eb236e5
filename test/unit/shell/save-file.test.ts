import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'

const folder = mkdtempSync(join(tmpdir(), 'bosun-save-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

/** The dialogs main opened, each waiting until the test answers it. */
const shown: { defaultPath: string; filters: unknown; answer(filePath: string | null): void }[] = []
vi.mock('electron', () => ({
  app: { getPath: () => folder },
  dialog: {
    showSaveDialog: (_window: unknown, options: { defaultPath: string; filters: unknown }) =>
      new Promise((resolve) => shown.push({ defaultPath: options.defaultPath, filters: options.filters, answer: (filePath) => resolve({ canceled: filePath === null, filePath: filePath ?? undefined }) })),
  },
}))

const { createSaveFile } = await import('../../../main/shell/save-file')

describe('the export save dialog', () => {
  it('is shown one at a time: an export asked for while one is open is refused, not stacked; then the next one opens', async () => {
    const save = createSaveFile(() => ({}) as never)
    const first = save('a.md', '# A', 'markdown')
    await vi.waitFor(() => expect(shown).toHaveLength(1))
    // A page asking again and again (one XSS away from hostile) gets a refusal each time, and no dialog.
    const more = await Promise.allSettled(Array.from({ length: 50 }, (_, i) => save(`b${i}.md`, 'x'.repeat(1_000_000), 'markdown')))
    expect(more.every((r) => r.status === 'rejected' && /another save dialog is open/.test(String(r.reason)))).toBe(true)
    expect(shown).toHaveLength(1)
    shown[0]!.answer(join(folder, 'a.md'))
    expect(await first).toBe(join(folder, 'a.md'))
    expect(readFileSync(join(folder, 'a.md'), 'utf8')).toBe('# A')
    // Closed (cancelled too): the next export opens its dialog.
    const next = save('c.json', '{}', 'json')
    await vi.waitFor(() => expect(shown).toHaveLength(2))
    shown[1]!.answer(null)
    expect(await next).toBeNull()
    const again = save('d.json', '{}', 'json')
    await vi.waitFor(() => expect(shown).toHaveLength(3))
    shown[2]!.answer(null)
    expect(await again).toBeNull()
  })

  it('writes an image’s bytes as they are, offering its own extension', async () => {
    const save = createSaveFile(() => ({}) as never)
    const bytes = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0xff, 0x00, 0xc3])
    const saving = save('image-20000x20000.png', bytes, 'image')
    await vi.waitFor(() => expect(shown).toHaveLength(4))
    expect(shown[3]!.defaultPath).toBe(join(folder, 'image-20000x20000.png'))
    expect(shown[3]!.filters).toEqual([{ name: 'PNG image', extensions: ['png'] }])
    shown[3]!.answer(join(folder, 'big.png'))
    expect(await saving).toBe(join(folder, 'big.png'))
    expect(readFileSync(join(folder, 'big.png')).equals(Buffer.from(bytes))).toBe(true)
  })
})
