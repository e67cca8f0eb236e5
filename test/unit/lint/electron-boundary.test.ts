import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

/** The layering rule: only main/shell/ and preload/ may import electron (everything else runs in plain Node). */
describe('electron import boundary', () => {
  const eslint = new ESLint({ cwd: process.cwd() })
  const source = "import { app } from 'electron'\nexport const name = app.getName()\n"

  async function electronErrors(filePath: string): Promise<string[]> {
    const [result] = await eslint.lintText(source, { filePath })
    return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message)
  }

  it.each(['main/sessions/x.ts', 'main/acp/x.ts', 'main/index.ts', 'renderer/state/x.ts', 'main/web/x.ts'])('refuses electron in %s', async (file) => {
    expect(await electronErrors(file)).toEqual([expect.stringContaining('Only main/shell/ and preload/ may import electron')])
  })

  it.each(['main/shell/x.ts', 'preload/x.ts'])('allows electron in %s', async (file) => {
    expect(await electronErrors(file)).toEqual([])
  })
})
