import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

/** The layering rule: only main/shell/ and preload/ may import electron (everything else runs in plain Node). */
describe('electron import boundary', () => {
  const eslint = new ESLint({ cwd: process.cwd() })
  const source = "import { app } from 'electron'\nexport const name = app.getName()\n"

  /** The boundary messages ESLint gives `code` as if it were `filePath` (either rule that enforces it). */
  async function boundaryErrors(filePath: string, code = source): Promise<string[]> {
    const [result] = await eslint.lintText(code, { filePath })
    return (result?.messages ?? [])
      .filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === 'no-restricted-syntax')
      .map((m) => m.message)
  }

  it.each(['main/sessions/x.ts', 'main/acp/x.ts', 'main/index.ts', 'renderer/state/x.ts', 'main/web/x.ts'])('refuses electron in %s', async (file) => {
    expect(await boundaryErrors(file)).toEqual([expect.stringContaining('Only main/shell/ and preload/ may import electron')])
  })

  it.each(['main/shell/x.ts', 'preload/x.ts'])('allows electron in %s', async (file) => {
    expect(await boundaryErrors(file)).toEqual([])
  })

  // The forms no-restricted-imports does not see.
  const requireForms = [
    "const electron = require('electron')\nexport default electron\n",
    'const electron = require("electron/main")\nexport default electron\n',
    'const electron = require(`electron`)\nexport default electron\n',
  ]
  const dynamicImportForms = [
    "export const electron = await import('electron')\n",
    "export const load = () => import('electron/renderer')\n",
    'export const electron = await import(`electron`)\n',
  ]

  describe.each(['main/sessions/x.ts', 'main/web/cli-helper.ts', 'renderer/components/x.tsx', 'test/integration/x.test.ts'])('in %s', (file) => {
    it.each(requireForms)('refuses %j', async (code) => {
      expect(await boundaryErrors(file, code)).toEqual([expect.stringContaining('Only main/shell/ and preload/ may require electron')])
    })
    it.each(dynamicImportForms)('refuses %j', async (code) => {
      expect(await boundaryErrors(file, code)).toEqual([expect.stringContaining('Only main/shell/ and preload/ may import electron')])
    })
  })

  it.each(['main/shell/x.ts', 'preload/x.ts'])('allows require and import() of electron in %s', async (file) => {
    for (const code of [...requireForms, ...dynamicImportForms]) expect(await boundaryErrors(file, code)).toEqual([])
  })

  it.each([
    "export const other = await import('electron-store')\n",
    "export const local = await import('./electron')\n",
    "const other = require('electronic')\nexport default other\n",
    "export const path = require.resolve('electron')\n",
  ])('leaves other modules alone: %j', async (code) => {
    expect(await boundaryErrors('main/sessions/x.ts', code)).toEqual([])
  })
})
