import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { createMemoryLogger } from '../../../main/base/log'
import { fileSettingsStore } from '../../../main/permissions/service'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function storeWith(text: string) {
  const home = mkdtempSync(join(tmpdir(), 'bosun-notification-settings-'))
  dirs.push(home)
  writeFileSync(join(home, 'notification-settings.json'), text)
  return fileSettingsStore(home, createMemoryLogger())
}

it('a newer Bosun’s field or one bad value keeps the person’s other settings instead of resetting them all', async () => {
  expect(await storeWith(JSON.stringify({ enabled: false, notifyOnTurnEnd: true })).load()).toEqual({ enabled: false, notifyOnTurnEnd: true })
  expect(await storeWith(JSON.stringify({ enabled: false, notifyOnTurnEnd: true, sound: 'chime' })).load()).toEqual({ enabled: false, notifyOnTurnEnd: true })
  expect(await storeWith(JSON.stringify({ enabled: false, notifyOnTurnEnd: 'yes' })).load()).toMatchObject({ enabled: false })
  expect(await storeWith('not json').load()).toBeUndefined()
  expect(await storeWith('[]').load()).toBeUndefined()
})
