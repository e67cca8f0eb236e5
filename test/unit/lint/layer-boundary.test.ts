import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

/** The layering rule: main/, preload/ and renderer/ import common/, never each other; common/ imports none of them. */
describe('layer boundary', () => {
  const eslint = new ESLint({ cwd: process.cwd() })

  async function layerErrors(filePath: string, code: string): Promise<string[]> {
    const [result] = await eslint.lintText(code, { filePath })
    return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message)
  }

  it.each([
    ['main/sessions/x.ts', "import type { SessionState } from '../../renderer/state/app-store'\nexport type S = SessionState\n", 'main/ may not import renderer/'],
    ['main/shell/x.ts', "import { x } from '../../preload/index'\nexport const y = x\n", 'main/shell/ may not import preload/'],
    ['main/acp/x.ts', "import { x } from '../../preload/index'\nexport const y = x\n", 'main/ may not import preload/'],
    ['renderer/components/x.tsx', "import { x } from '../../main/sessions/sessions-service'\nexport const y = x\n", 'renderer/ may not import main/'],
    ['renderer/x.ts', "import { x } from '../preload/index'\nexport const y = x\n", 'renderer/ may not import preload/'],
    ['preload/x.ts', "import { x } from '../renderer/state/app-store'\nexport const y = x\n", 'preload/ may not import renderer/'],
    ['preload/x.ts', "import { x } from '../main/base/log'\nexport const y = x\n", 'preload/ may not import main/'],
    ['common/session/x.ts', "import { x } from '../../main/base/log'\nexport const y = x\n", 'common/ may not import main/'],
    ['common/x.ts', "import { x } from '../renderer/state/app-store'\nexport const y = x\n", 'common/ may not import renderer/'],
  ])('refuses a sideways import in %s', async (file, code, message) => {
    expect(await layerErrors(file, code)).toEqual([expect.stringContaining(message)])
  })

  it.each([
    "import { readFileSync } from 'node:fs'\nexport const r = readFileSync\n",
    "import { join } from 'path'\nexport const j = join\n",
    "import { useState } from 'react'\nexport const u = useState\n",
    "import { app } from 'electron'\nexport const a = app\n",
  ])('keeps common/ portable: refuses %j', async (code) => {
    expect(await layerErrors('common/session/x.ts', code)).toHaveLength(1)
  })

  it.each([
    ['main/sessions/x.ts', "import { x } from '../../common/session/reducer'\nexport const y = x\n"],
    ['main/shell/x.ts', "import { x } from '../../common/bridge-manifest'\nexport const y = x\n"],
    ['preload/x.ts', "import { x } from '../common/bridge-manifest'\nexport const y = x\n"],
    ['renderer/components/x.tsx', "import { x } from '../../common/contract'\nexport const y = x\n"],
    ['common/session/x.ts', "import { z } from 'zod'\nimport { x } from '../url-safety'\nexport const y = [x, z]\n"],
    ['main/sessions/x.ts', "import { join } from 'node:path'\nexport const j = join\n"],
  ])('allows %s to import downwards', async (file, code) => {
    expect(await layerErrors(file, code)).toEqual([])
  })

  it('still refuses electron outside main/shell and preload alongside the layer rule', async () => {
    expect(await layerErrors('main/sessions/x.ts', "import { app } from 'electron'\nexport const a = app\n")).toEqual([
      expect.stringContaining('Only main/shell/ and preload/ may import electron'),
    ])
  })
})
