/**
 * An agent-owned terminal's states in Chromium with the app's styles, light and dark: stopping (an accepted
 * Cancel), stop not confirmed (main's deadline passed, Cancel offered again) and agent stopped (no exit status
 * before its agent went away). Screenshots land in test/e2e/screenshots/terminal-states-<scheme>.png.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { browserHarness } from '../../support/browser-bundle'
import { screenshotDir } from '../../e2e/support/harness'

const entry = `
import { createRoot } from 'react-dom/client'
import { TerminalOutput } from './renderer/components/transcript/TerminalOutput'
import { TerminalActionsContext } from './renderer/components/transcript/terminal-actions'
import { applyActions, createSessionState } from './common/session/reducer'

const base = applyActions(createSessionState({ sessionId: 's', agentId: 'a', protocolVersion: 2, cwd: '/w' }), [
  { type: 'updates', updates: ['dev', 'watch', 'tail'].map((terminalId, i) => ({ sessionUpdate: 'terminal_update', terminalId, command: ['npm run dev', 'tsc --watch', 'tail -f server.log'][i], capabilities: { cancel: {} } })) },
  { type: 'terminal_cancel_requested', terminalId: 'dev' },
  { type: 'terminal_cancel_requested', terminalId: 'watch' },
  { type: 'terminal_cancel_unconfirmed', terminalId: 'watch' },
])
const gone = applyActions(base, [{ type: 'agent_gone' }])
const actions = { cancel: async () => true }
createRoot(document.getElementById('root')).render(
  <TerminalActionsContext.Provider value={actions}>
    <main style={{ maxWidth: 720, padding: 16, display: 'grid', gap: 12 }}>
      <TerminalOutput terminalId="dev" terminal={base.terminals.dev} />
      <TerminalOutput terminalId="watch" terminal={base.terminals.watch} />
      <TerminalOutput terminalId="tail" terminal={gone.terminals.tail} />
    </main>
  </TerminalActionsContext.Provider>,
)
`

const harness = browserHarness(entry)
const styles = ['renderer/styles/app.css', 'renderer/components/transcript/terminal.css', 'renderer/components/transcript/transcript.css'].map((file) => readFileSync(file, 'utf8')).join('\n')

describe('agent terminal states in Chromium', { timeout: 30_000 }, () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`stopping, stop not confirmed and agent stopped read as such (${colorScheme})`, async () => {
      const page = await harness.open({ viewport: { width: 760, height: 420 }, styles })
      try {
        await page.emulateMedia({ colorScheme })
        const section = (id: string) => page.getByRole('region', { name: `Terminal ${id}` })
        await section('dev').getByRole('status').filter({ hasText: 'stopping' }).waitFor()
        expect(await section('dev').getByRole('button', { name: 'Cancelling npm run dev' }).isDisabled()).toBe(true)
        await section('watch').getByRole('status').filter({ hasText: 'stop not confirmed' }).waitFor()
        await section('watch').getByText('has not reported that this stopped').waitFor()
        expect(await section('watch').getByRole('button', { name: 'Cancel tsc --watch' }).isEnabled()).toBe(true)
        await section('tail').getByRole('status').filter({ hasText: 'agent stopped' }).waitFor()
        expect(await section('tail').getByRole('button').count()).toBe(0)
        await page.locator('main').screenshot({ path: join(screenshotDir, `terminal-states-${colorScheme}.png`) })
        expect(page.errors).toEqual([])
      } finally {
        await page.close()
      }
    })
  }
})
