/** The Electron confirmation: a native message box, modal on the main window, Cancel first and the default. */
import { beforeEach, describe, expect, it, vi } from 'vitest'

vi.mock('electron', async () => (await import('../../electron/fake-electron')).electronModule)

import type { BrowserWindow } from 'electron'
import { createMemoryLogger } from '../../../main/base/log'
import { createDialogConfirmation } from '../../../main/shell/confirmation'
import type { ConfirmationRequest } from '../../../main/trust/confirmation'
import { electronModule, fake, FakeBrowserWindow } from '../../electron/fake-electron'

const request: ConfirmationRequest = {
  kind: 'agent-definition',
  title: 'Add an agent',
  message: 'Add the agent "A"?',
  detail: 'Program: "/bin/sh"',
  confirmLabel: 'Add agent',
}

beforeEach(() => fake.reset())

describe('createDialogConfirmation', () => {
  it('asks in a message box on the main window: Cancel first, default and on Escape; the text is main’s', async () => {
    const window = new FakeBrowserWindow({})
    const confirmation = createDialogConfirmation(() => window as unknown as BrowserWindow, createMemoryLogger())
    expect(await confirmation.confirm(request)).toEqual({ confirmed: false, by: 'person' })
    expect(fake.dialogs).toEqual([
      {
        window,
        options: expect.objectContaining({
          type: 'warning',
          title: 'Bosun: Add an agent',
          message: 'Add the agent "A"?',
          detail: 'Program: "/bin/sh"',
          buttons: ['Cancel', 'Add agent'],
          defaultId: 0,
          cancelId: 0,
          noLink: true,
        }),
      },
    ])
    fake.confirmDialogs()
    expect(await confirmation.confirm(request)).toEqual({ confirmed: true, by: 'person' })
  })

  it('without a window (macOS, all closed) the box stands alone; a failing box counts as cancelled', async () => {
    fake.confirmDialogs()
    const confirmation = createDialogConfirmation(() => undefined, createMemoryLogger())
    expect(await confirmation.confirm(request)).toEqual({ confirmed: true, by: 'person' })
    expect(fake.dialogs[0]!.window).toBeNull()

    const showMessageBox = vi.spyOn(electronModule.dialog, 'showMessageBox').mockRejectedValueOnce(new Error('no display'))
    expect(await confirmation.confirm(request)).toEqual({ confirmed: false, by: 'refused' })
    showMessageBox.mockRestore()
  })
})
