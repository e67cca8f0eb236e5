import { expect, it } from 'vitest'
import { actsUnasked, leavesUnattended, unattendedChoice, unattendedDefault, unattendedKey, unattendedMode } from '../../../main/trust/unattended-mode'

it('knows the modes agents name for acting without asking, by id or name, and not the others', () => {
  for (const mode of [{ id: 'yolo' }, { id: 'bypassPermissions' }, { id: 'full-access', name: 'Full Access' }, { id: 'x', name: 'Skip permissions' }, { id: 'dontAsk' }, { id: 'x', name: 'Dangerously skip' }]) {
    expect({ mode, unasked: actsUnasked(mode) }).toEqual({ mode, unasked: true })
  }
  // The description is the agent's prose ("prompts for dangerous operations"), not read.
  for (const mode of [{ id: 'default', name: 'Default' }, { id: 'acceptEdits', name: 'Accept Edits' }, { id: 'plan', name: 'Plan Mode' }, { id: 'read-only' }, { id: 'auto', name: 'Auto' }]) {
    expect({ mode, unasked: actsUnasked(mode) }).toEqual({ mode, unasked: false })
  }
})

it('names the choice a config option would switch to when it acts without asking: a select value, or a boolean turned on', () => {
  const select = { id: 'approval', name: 'Approvals', type: 'select', currentValue: 'ask', options: [{ value: 'ask', name: 'Ask' }, { value: 'never', name: 'YOLO' }] }
  expect(unattendedChoice(select, 'never')).toEqual({ name: 'YOLO', id: 'never', said: { by: 'name', word: 'YOLO' } })
  expect(unattendedChoice(select, 'ask')).toBeNull()
  expect(unattendedChoice({ ...select, currentValue: 'never' }, 'never')).toBeNull()
  const toggle = { id: 'skip-permissions', name: 'Skip permission prompts', type: 'boolean', currentValue: false, options: [] }
  expect(unattendedChoice(toggle, true)).toMatchObject({ name: 'Skip permission prompts', said: { by: 'id', word: 'skip-permissions' } })
  expect(unattendedChoice(toggle, false)).toBeNull()
  expect(unattendedChoice({ ...toggle, id: 'run-tests', name: 'Run tests after edits' }, true)).toBeNull()
})

it('names the legacy mode a session would switch to when it acts without asking, and nothing for the current one or an unknown one', () => {
  const modes = { currentModeId: 'default', availableModes: [{ id: 'default', name: 'Default' }, { id: 'bypassPermissions', name: 'Bypass Permissions' }, { id: 'yolo' }] }
  expect(unattendedMode(modes, 'bypassPermissions')).toMatchObject({ name: 'Bypass Permissions', id: 'bypassPermissions', said: { by: 'id', word: 'bypass' } })
  expect(unattendedMode(modes, 'yolo')).toMatchObject({ name: 'yolo', id: 'yolo' })
  expect(unattendedMode(modes, 'default')).toBeNull()
  expect(unattendedMode({ ...modes, currentModeId: 'yolo' }, 'yolo')).toBeNull()
  expect(unattendedMode(modes, 'not-listed-yolo')).toBeNull()
  expect(unattendedMode(undefined, 'yolo')).toBeNull()
})

it('a select named for acting without asking is asked about for any value but off; a default is judged by its ids alone', () => {
  const guard = { id: 'guard', name: 'Bypass permissions', type: 'select', currentValue: 'off', options: [{ value: 'off', name: 'Off' }, { value: 'on', name: 'On' }] }
  expect(unattendedChoice(guard, 'on')).toEqual({ name: 'Bypass permissions: On', id: 'guard = on', said: { by: 'name', word: 'Bypass' } })
  expect(unattendedChoice({ ...guard, currentValue: 'on' }, 'off')).toBeNull()
  expect(unattendedDefault(undefined, 'yolo')).toMatchObject({ id: 'yolo' })
  expect(unattendedDefault(undefined, 'mode-3')).toBeNull()
  expect(unattendedDefault('skip-permissions', true)).toMatchObject({ id: 'skip-permissions' })
  expect(unattendedDefault('skip-permissions', false)).toBeNull()
  expect(unattendedDefault('bypass', 'on')).toMatchObject({ id: 'bypass = on' })
  expect(unattendedDefault('bypass', 'off')).toBeNull()
  expect(unattendedDefault('mode', 'bypassPermissions')).toMatchObject({ id: 'bypassPermissions' })
})

it('tells when an update takes the session out of the mode or option value it was told to be in', () => {
  const yolo = unattendedKey(undefined, 'yolo')
  expect(leavesUnattended(yolo, { sessionUpdate: 'current_mode_update', currentModeId: 'default' })).toBe(true)
  expect(leavesUnattended(yolo, { sessionUpdate: 'current_mode_update', currentModeId: 'yolo' })).toBe(false)
  expect(leavesUnattended(yolo, { sessionUpdate: 'current_mode_update', currentModeId: 7 })).toBe(false)
  // A mode told: an option's update says nothing about it.
  expect(leavesUnattended(yolo, { sessionUpdate: 'config_option_update', configOptions: [] })).toBe(false)
  const bypass = unattendedKey('guard', 'on')
  const guard = (value: string) => ({ sessionUpdate: 'config_option_update', configOptions: [{ id: 'guard', name: 'Bypass permissions', type: 'select', currentValue: value, options: [{ value: 'on', name: 'On' }, { value: 'off', name: 'Off' }] }] })
  expect(leavesUnattended(bypass, guard('off'))).toBe(true)
  expect(leavesUnattended(bypass, guard('on'))).toBe(false)
  expect(leavesUnattended(bypass, { sessionUpdate: 'config_option_update', configOptions: [] })).toBe(true)
  expect(leavesUnattended(bypass, { sessionUpdate: 'current_mode_update', currentModeId: 'default' })).toBe(false)
  expect(leavesUnattended(bypass, { sessionUpdate: 'agent_message_chunk' })).toBe(false)
})
