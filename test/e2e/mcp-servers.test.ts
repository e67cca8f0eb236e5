/**
 * MCP servers per agent, with a secret header, in Chromium against the browser host (run under
 * scripts/with-keyring.sh: the secret goes to the real keychain). A server added in Settings for one agent
 * only shows on that agent's overview and not on the other's; its secret header is never written to
 * `mcp-servers.json` nor shown back (the editor says "stored in the keychain"); an agent whose transports
 * rule a server out says so once it has started (screenshots mcp-editor-*, mcp-agent-overview-*).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import type { Locator, Page } from 'playwright'
import { createKeytarSecretStore } from '../../main/secrets/secret-store'
import { must } from '../support/must'
import { expectAxeCleanInBothThemes } from './support/axe'
import { launchPerTest, screenshot } from './support/harness'
import { UI_TIMEOUT, visible } from './support/session-ui'

const SECRET = 'Bearer e2e-mcp-secret-77f1'

const launch = launchPerTest()

async function bothSchemes(page: Page, name: string): Promise<void> {
  await screenshot(page, `${name}-light`)
  await page.emulateMedia({ colorScheme: 'dark' })
  await screenshot(page, `${name}-dark`)
  await page.emulateMedia({ colorScheme: 'light' })
}

/** Fills the add form with an http server (headers as [name, value, secret]) for all agents or the named ones, and adds it. */
async function addHttpServer(section: Locator, name: string, url: string, headers: [string, string, boolean][], onlyFor?: string[]): Promise<void> {
  const form = section.getByRole('form', { name: 'Add an MCP server' })
  await form.getByLabel('Name', { exact: true }).fill(name)
  await form.getByLabel('Transport', { exact: true }).selectOption('http')
  await form.getByLabel('URL', { exact: true }).fill(url)
  for (const [i, [header, value, secret]] of headers.entries()) {
    await form.getByRole('button', { name: 'Add header' }).click()
    await form.getByLabel(`Header ${i + 1} name`).fill(header)
    if (secret) await form.getByRole('checkbox', { name: `${header} is secret` }).check()
    await form.getByLabel(`Value of ${header}`).fill(value)
  }
  if (onlyFor) {
    await form.getByRole('radio', { name: 'Only these agents' }).check()
    const list = form.getByRole('list', { name: 'Agents that use this server' })
    for (const agent of onlyFor) await list.getByRole('checkbox', { name: agent }).check()
  }
  await form.getByRole('button', { name: 'Add server' }).click()
  await visible(section.getByRole('listitem', { name }))
}

it('adds a server with a secret header for one agent only, and shows it on that agent’s overview', async () => {
  const app = await launch(
    [
      { id: 'scripted', name: 'Scripted agent', scenario: 'e2e-agents' },
      { id: 'other', name: 'Other agent', scenario: 'basic' },
    ],
    { viewport: { width: 1280, height: 900 } },
  )
  const { page } = app
  await (await visible(page.getByRole('button', { name: 'Settings', exact: true }))).click()
  const settings = await visible(page.getByRole('dialog', { name: 'Settings' }))
  const section = settings.getByRole('region', { name: 'MCP servers' })
  await visible(section.getByText('No MCP servers yet.'))
  await addHttpServer(section, 'Team search', 'https://mcp.example/team', [['X-Team', 'blue', false], ['Authorization', SECRET, true]], ['Scripted agent'])
  await addHttpServer(section, 'Shared docs', 'https://mcp.example/docs', [])

  const item = section.getByRole('listitem', { name: 'Team search' })
  await visible(item.getByText('Only Scripted agent'))
  await visible(item.getByText('Authorization: secret, stored in the keychain'))
  await visible(section.getByRole('listitem', { name: 'Shared docs' }).getByText('All agents'))
  const file = readFileSync(join(app.home.home, 'mcp-servers.json'), 'utf8')
  expect(file).not.toContain(SECRET)
  expect(JSON.parse(file).servers[0]).toMatchObject({ id: 'team-search', agents: ['scripted'], headers: { 'X-Team': 'blue' }, secretHeaders: ['Authorization'] })

  // Editing shows the stored secret as such, never its value.
  await item.getByRole('button', { name: 'Edit Team search' }).click()
  const editor = await visible(item.getByRole('form', { name: 'Edit Team search' }))
  await visible(editor.getByText('stored in the keychain'))
  await visible(editor.getByRole('button', { name: 'Replace Authorization' }))
  expect(await editor.getByLabel('Value of X-Team').inputValue()).toBe('blue')
  expect(await page.content()).not.toContain('e2e-mcp-secret')
  await editor.scrollIntoViewIfNeeded()
  await bothSchemes(page, 'mcp-editor')
  await expectAxeCleanInBothThemes(page, 'the MCP server editor', '[aria-label="Edit Team search"]')
  await editor.getByRole('button', { name: 'Cancel' }).click()

  // Replace: the new value goes to the keychain (read back here from the test's private keyring), not the file.
  const keychain = createKeytarSecretStore()
  const stored = async () => must(await keychain.resolveEnv('mcp/team-search', ['HEADER_Authorization'])).HEADER_Authorization
  expect(await stored()).toBe(SECRET)
  await item.getByRole('button', { name: 'Edit Team search' }).click()
  const again = await visible(item.getByRole('form', { name: 'Edit Team search' }))
  await again.getByRole('button', { name: 'Replace Authorization' }).click()
  await again.getByLabel('Value of Authorization').fill(`${SECRET}-2`)
  await again.getByRole('button', { name: 'Save changes' }).click()
  await expect.poll(stored, { timeout: UI_TIMEOUT }).toBe(`${SECRET}-2`)
  expect(readFileSync(join(app.home.home, 'mcp-servers.json'), 'utf8')).not.toContain(SECRET)
  await settings.getByRole('button', { name: 'Close', exact: true }).click()

  // The agents' overviews: Scripted gets both; Other only the shared one, which it cannot take (no http) once started.
  await page.getByRole('button', { name: 'Agents', exact: true }).click()
  const agents = await visible(page.getByRole('dialog', { name: 'Agents' }))
  const nav = agents.getByRole('navigation', { name: 'Agents' })
  await nav.getByRole('button', { name: /Scripted agent/ }).click()
  const served = (name: string) => agents.getByRole('list', { name: 'MCP servers this agent gets' }).getByRole('listitem').filter({ hasText: name })
  await visible(served('Team search'))
  await visible(served('Shared docs'))
  await visible(agents.getByText('Whether it takes each transport is known once it has started.'))
  await agents.getByRole('button', { name: 'Start', exact: true }).click()
  // Started: the note goes (its transports are known: it takes http).
  await expect.poll(() => agents.getByText('Whether it takes each transport is known once it has started.').count(), { timeout: UI_TIMEOUT }).toBe(0)
  expect(await served('Team search').getByText('not passed').count()).toBe(0)
  await agents.getByRole('list', { name: 'MCP servers this agent gets' }).scrollIntoViewIfNeeded()
  await bothSchemes(page, 'mcp-agent-overview')

  await nav.getByRole('button', { name: /Other agent/ }).click()
  await visible(agents.getByRole('heading', { name: 'Other agent', level: 2 }))
  await visible(served('Shared docs'))
  expect(await served('Team search').count()).toBe(0)
  await agents.getByRole('button', { name: 'Start', exact: true }).click()
  await visible(served('Shared docs').getByText('not passed'))
  await visible(served('Shared docs').getByText('the agent does not take http MCP servers'))
  await agents.getByRole('list', { name: 'MCP servers this agent gets' }).scrollIntoViewIfNeeded()
  await bothSchemes(page, 'mcp-agent-overview-refused')
  await expectAxeCleanInBothThemes(page, 'the agent overview with its MCP servers', '.agent-overview')
  expect(await page.content()).not.toContain('e2e-mcp-secret')
  await agents.getByRole('button', { name: 'Close', exact: true }).click()

  // Remove the secret header: its keychain entry goes, the server stays.
  await (await visible(page.getByRole('button', { name: 'Settings', exact: true }))).click()
  const listed = page.getByRole('dialog', { name: 'Settings' }).getByRole('listitem', { name: 'Team search' })
  await listed.getByRole('button', { name: 'Edit Team search' }).click()
  const last = await visible(listed.getByRole('form', { name: 'Edit Team search' }))
  await last.getByRole('button', { name: 'Remove Authorization' }).click()
  await last.getByRole('button', { name: 'Save changes' }).click()
  await expect.poll(stored, { timeout: UI_TIMEOUT }).toBeUndefined()
  expect(JSON.parse(readFileSync(join(app.home.home, 'mcp-servers.json'), 'utf8')).servers[0]).toMatchObject({ headers: { 'X-Team': 'blue' } })
  expect(JSON.parse(readFileSync(join(app.home.home, 'mcp-servers.json'), 'utf8')).servers[0].secretHeaders).toBeUndefined()
})
