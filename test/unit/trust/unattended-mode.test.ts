import { expect, it } from 'vitest'
import { actsUnasked, unattendedChoice, unattendedMode } from '../../../main/trust/unattended-mode'

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
  expect(unattendedChoice(select, 'never')).toBe('YOLO')
  expect(unattendedChoice(select, 'ask')).toBeNull()
  expect(unattendedChoice({ ...select, currentValue: 'never' }, 'never')).toBeNull()
  const toggle = { id: 'skip-permissions', name: 'Skip permission prompts', type: 'boolean', currentValue: false, options: [] }
  expect(unattendedChoice(toggle, true)).toBe('Skip permission prompts')
  expect(unattendedChoice(toggle, false)).toBeNull()
  expect(unattendedChoice({ ...toggle, id: 'run-tests', name: 'Run tests after edits' }, true)).toBeNull()
})

it('names the legacy mode a session would switch to when it acts without asking, and nothing for the current one or an unknown one', () => {
  const modes = { currentModeId: 'default', availableModes: [{ id: 'default', name: 'Default' }, { id: 'bypassPermissions', name: 'Bypass Permissions' }, { id: 'yolo' }] }
  expect(unattendedMode(modes, 'bypassPermissions')).toBe('Bypass Permissions')
  expect(unattendedMode(modes, 'yolo')).toBe('yolo')
  expect(unattendedMode(modes, 'default')).toBeNull()
  expect(unattendedMode({ ...modes, currentModeId: 'yolo' }, 'yolo')).toBeNull()
  expect(unattendedMode(modes, 'not-listed-yolo')).toBeNull()
  expect(unattendedMode(undefined, 'yolo')).toBeNull()
})
