/**
 * Escape closes the innermost thing open, and the keyboard goes back to what opened it: on the Agents page, the add
 * flow (back to the agent shown before, focus on "Add agent"), the add form (back to the add flow, focus on the preset
 * that opened it), the edit form (back to the agent, focus on "Edit"); only then the page itself (focus on the "Agents"
 * button). In Settings, an MCP server's edit form closes before Settings do. Each form or flow takes the keyboard as it
 * opens (its first field, the add flow's first preset).
 */
import { expect, it } from 'vitest'
import type { Locator } from 'playwright'
import { useApp } from './support/harness'
import { gone, until, visible } from './support/session-ui'
import { settingsWithHttpMcpServer } from './support/settings-ui'

const AGENT = 'Scripted agent'
const { page } = useApp([{ id: 'scripted', name: AGENT, scenario: 'e2e-session' }])

const focused = (locator: Locator) => until(locator, (el) => el === document.activeElement)

it('Escape on the Agents page closes the add flow, the add form and the edit form before the page', async () => {
  const agentsButton = page.getByRole('button', { name: 'Agents', exact: true })
  await agentsButton.click()
  const dialog = await visible(page.getByRole('dialog', { name: 'Agents' }))
  const agentHeading = dialog.getByRole('heading', { name: AGENT, level: 2 })
  await visible(agentHeading)

  // The add flow, the focus on its first preset: Escape leaves the flow, not the page.
  const addButton = dialog.getByRole('button', { name: 'Add agent' })
  await addButton.click()
  const addHeading = await visible(dialog.getByRole('heading', { name: 'Add an agent' }))
  const claude = dialog.getByRole('list', { name: 'Presets' }).getByRole('button', { name: /^Claude/ })
  await focused(claude)
  await page.keyboard.press('Escape')
  await gone(addHeading)
  await visible(agentHeading)
  await focused(addButton)
  expect(await dialog.isVisible()).toBe(true)

  // A preset's form, Escape from inside it: back to the add flow, then out of it.
  await addButton.click()
  await claude.click()
  const addForm = await visible(dialog.getByRole('form', { name: 'Add agent' }))
  await focused(addForm.getByRole('textbox', { name: 'Name', exact: true }))
  await page.keyboard.press('Escape')
  await gone(addForm)
  await visible(addHeading)
  await focused(claude)
  await page.keyboard.press('Escape')
  await gone(addHeading)
  await visible(agentHeading)

  // The edit form: back to the agent, the focus on its "Edit".
  const editButton = dialog.getByRole('button', { name: 'Edit', exact: true })
  await editButton.click()
  const editForm = await visible(dialog.getByRole('form', { name: `Edit ${AGENT}` }))
  await focused(editForm.getByRole('textbox', { name: 'Name', exact: true }))
  await page.keyboard.press('Escape')
  await gone(editForm)
  await focused(editButton)
  expect(await dialog.isVisible()).toBe(true)

  // Nothing inside is open: Escape closes the page, the focus back on the button that opened it.
  await page.keyboard.press('Escape')
  await gone(dialog)
  await focused(agentsButton)
})

it('Escape in an MCP server’s edit form in Settings closes the form, not Settings; the focus back on its Edit', async () => {
  const { settings, edit } = await settingsWithHttpMcpServer(page)
  await edit.click()
  const form = await visible(settings.getByRole('form', { name: 'Edit docs' }))
  // The form opened in place takes the keyboard (it stayed on Edit).
  await focused(form.getByLabel('Name', { exact: true }))
  await page.keyboard.press('Escape')
  await gone(form)
  await focused(edit)
  // Saved, the form goes with its Save: the keyboard goes back to Edit (it fell to the page).
  await edit.click()
  const again = await visible(settings.getByRole('form', { name: 'Edit docs' }))
  await again.getByLabel('URL', { exact: true }).fill('https://mcp.example.com/v2/mcp')
  await again.getByRole('button', { name: 'Save changes' }).click()
  await gone(again)
  await focused(edit)
  expect(await settings.isVisible()).toBe(true)
  await page.keyboard.press('Escape')
  await gone(settings)
})
