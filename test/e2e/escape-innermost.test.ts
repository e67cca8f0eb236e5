/**
 * Escape closes the innermost thing open, and the keyboard goes back to what opened it: on the Agents page, the add
 * flow (back to the agent shown before, focus on "Add agent"), the add form (back to the add flow), the edit form
 * (back to the agent, focus on "Edit"); only then the page itself (focus on the "Agents" button). In Settings, an MCP
 * server's edit form closes before Settings do.
 */
import { expect, it } from 'vitest'
import type { Locator } from 'playwright'
import { useApp } from './support/harness'
import { gone, until, visible } from './support/session-ui'

const AGENT = 'Scripted agent'
const { page } = useApp([{ id: 'scripted', name: AGENT, scenario: 'e2e-session' }])

const focused = (locator: Locator) => until(locator, (el) => el === document.activeElement)

it('Escape on the Agents page closes the add flow, the add form and the edit form before the page', async () => {
  const agentsButton = page.getByRole('button', { name: 'Agents', exact: true })
  await agentsButton.click()
  const dialog = await visible(page.getByRole('dialog', { name: 'Agents' }))
  const agentHeading = dialog.getByRole('heading', { name: AGENT, level: 2 })
  await visible(agentHeading)

  // The add flow, the focus still on "Add agent" (as after a click): Escape leaves the flow, not the page.
  const addButton = dialog.getByRole('button', { name: 'Add agent' })
  await addButton.click()
  const addHeading = await visible(dialog.getByRole('heading', { name: 'Add an agent' }))
  await page.keyboard.press('Escape')
  await gone(addHeading)
  await visible(agentHeading)
  await focused(addButton)
  expect(await dialog.isVisible()).toBe(true)

  // A preset's form, Escape from inside it: back to the add flow, then out of it.
  await addButton.click()
  await dialog.getByRole('list', { name: 'Presets' }).getByRole('button', { name: /^Claude/ }).click()
  const addForm = await visible(dialog.getByRole('form', { name: 'Add agent' }))
  await addForm.getByRole('textbox', { name: 'Name', exact: true }).focus()
  await page.keyboard.press('Escape')
  await gone(addForm)
  await visible(addHeading)
  await focused(addButton)
  await page.keyboard.press('Escape')
  await gone(addHeading)
  await visible(agentHeading)

  // The edit form: back to the agent, the focus on its "Edit".
  const editButton = dialog.getByRole('button', { name: 'Edit', exact: true })
  await editButton.click()
  const editForm = await visible(dialog.getByRole('form', { name: `Edit ${AGENT}` }))
  await editForm.getByRole('textbox', { name: 'Name', exact: true }).focus()
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
  await page.keyboard.press('Control+Comma')
  const settings = await visible(page.getByRole('dialog', { name: 'Settings' }))
  const add = settings.getByRole('form', { name: 'Add an MCP server' })
  await add.getByLabel('Name', { exact: true }).fill('docs')
  await add.getByLabel('Transport', { exact: true }).selectOption('http')
  await add.getByLabel('URL', { exact: true }).fill('https://mcp.example.com/mcp')
  await add.getByRole('button', { name: 'Add server' }).click()
  const edit = settings.getByRole('button', { name: 'Edit docs' })
  await edit.click()
  const form = await visible(settings.getByRole('form', { name: 'Edit docs' }))
  await form.getByLabel('URL', { exact: true }).focus()
  await page.keyboard.press('Escape')
  await gone(form)
  await focused(edit)
  expect(await settings.isVisible()).toBe(true)
  await page.keyboard.press('Escape')
  await gone(settings)
})
