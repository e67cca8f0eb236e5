/**
 * A start that takes long (an agent run through npx is downloaded at its first start: a minute or more) showed only
 * "Starting…"; the form now says why after a while, and where to see what the agent does.
 */
import { describe, expect, it } from 'vitest'
import { browserHarness } from '../../support/browser-bundle'

const harness = browserHarness(`
import { createRoot } from 'react-dom/client'
import { NewSessionForm } from './renderer/components/sidebar/NewSessionForm'
createRoot(document.getElementById('root')).render(
  <NewSessionForm agents={[{ agentId: 'a', name: 'Claude' }]} defaultCwdFor={() => '/home/ada/project'} onCreate={() => new Promise(() => {})} onCancel={() => {}} slowStartMs={200} />,
)
`)

describe('a slow start in the new-session form', { timeout: 30_000 }, () => {
  it('says why it may take long once it has been starting a while, and not before', async () => {
    const page = await harness.open()
    try {
      const start = page.getByRole('button', { name: 'Start session' })
      await start.waitFor()
      expect(await page.getByRole('status').count()).toBe(0)
      await start.click()
      await page.getByRole('button', { name: 'Starting…' }).waitFor()
      const hint = page.getByRole('status')
      await hint.waitFor()
      expect(await hint.innerText()).toBe(
        'Still starting Claude. A first start can take a minute or more while the agent is downloaded (npx, uvx); the Agents screen shows its log.',
      )
      expect(page.errors).toEqual([])
    } finally {
      await page.close()
    }
  })
})
