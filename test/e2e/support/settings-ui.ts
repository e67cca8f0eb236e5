import type { Locator, Page } from 'playwright'
import { visible } from './session-ui'

/** Opens Settings (Ctrl+,) and adds an HTTP MCP server named `name`: Settings, and the server's Edit button. */
export async function settingsWithHttpMcpServer(page: Page, name = 'docs'): Promise<{ settings: Locator; edit: Locator }> {
  await page.keyboard.press('Control+Comma')
  const settings = await visible(page.getByRole('dialog', { name: 'Settings' }))
  const add = settings.getByRole('form', { name: 'Add an MCP server' })
  await add.getByLabel('Name', { exact: true }).fill(name)
  await add.getByLabel('Transport', { exact: true }).selectOption('http')
  await add.getByLabel('URL', { exact: true }).fill('https://mcp.example.com/mcp')
  await add.getByRole('button', { name: 'Add server' }).click()
  return { settings, edit: settings.getByRole('button', { name: `Edit ${name}` }) }
}
