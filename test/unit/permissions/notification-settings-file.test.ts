import { execFileSync } from 'node:child_process'
import { lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { createMemoryLogger } from '../../../main/base/log'
import { createPermissionsService, fileSettingsStore } from '../../../main/permissions/service'

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

it('a file read only in part is copied aside before the first save replaces it; one that cannot be read is never replaced', async () => {
  for (const original of ['not json', JSON.stringify({ enabled: false, notifyOnTurnEnd: true, sound: 'chime' })]) {
    const store = storeWith(original)
    await store.load()
    await store.save({ enabled: true, notifyOnTurnEnd: false })
    const home = dirs.at(-1)!
    const copies = readdirSync(home).filter((name) => name.startsWith('notification-settings.json.corrupt-'))
    expect(copies.map((name) => readFileSync(join(home, name), 'utf8'))).toEqual([original])
    expect(JSON.parse(readFileSync(join(home, 'notification-settings.json'), 'utf8'))).toEqual({ enabled: true, notifyOnTurnEnd: false })
  }
  const home = mkdtempSync(join(tmpdir(), 'bosun-notification-settings-'))
  dirs.push(home)
  execFileSync('mkfifo', [join(home, 'notification-settings.json')])
  const store = fileSettingsStore(home, createMemoryLogger())
  expect(await store.load()).toBeUndefined()
  await expect(store.save({ enabled: true, notifyOnTurnEnd: false })).rejects.toThrow('is not a regular file')
  expect(lstatSync(join(home, 'notification-settings.json')).isFIFO()).toBe(true)
})

it('a change that cannot be saved is in force until Bosun quits, and the answer says why and so, once', async () => {
  const home = mkdtempSync(join(tmpdir(), 'bosun-notification-settings-'))
  dirs.push(home)
  execFileSync('mkfifo', [join(home, 'notification-settings.json')])
  const service = await createPermissionsService({ home, sink: () => {}, sessions: { getSession: () => undefined }, focusRequest: () => {}, log: createMemoryLogger() })
  try {
    expect(await service.handlers.setNotificationSettings({ enabled: false })).toEqual({
      ok: false,
      error: { kind: 'io-error', message: `${join(home, 'notification-settings.json')} is not a regular file. Fix or remove the file, then restart Bosun. The change applies until Bosun quits.` },
    })
    expect(await service.handlers.getNotificationSettings(undefined)).toMatchObject({ ok: true, value: { enabled: false } })
  } finally {
    service.dispose()
    await service.flush()
  }
})
