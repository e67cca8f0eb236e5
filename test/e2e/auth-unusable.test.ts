/**
 * An auth method of a kind Bosun cannot run is listed on the Sign in tab with its name and description, as not
 * usable here, with no "Log in" button (pressing one only returned an error). Screenshots:
 * test/e2e/screenshots/login-unusable-{light,dark}.png.
 */
import { expect, it } from 'vitest'
import { launchPerTest, screenshot } from './support/harness'
import { visible } from './support/session-ui'

const AGENT = 'Acme agent'

const launch = launchPerTest()

for (const colorScheme of ['light', 'dark'] as const) {
  it(`lists a method Bosun cannot run without a button (${colorScheme} theme)`, async () => {
    const app = await launch([{ id: 'acme', name: AGENT, scenario: 'e2e-auth-unusable' }], { colorScheme, viewport: { width: 1100, height: 760 } })
    const { page } = app
    await page.getByRole('button', { name: 'Agents', exact: true }).click()
    const dialog = await visible(page.getByRole('dialog', { name: 'Agents' }))
    await dialog.getByRole('navigation', { name: 'Agents' }).getByRole('button', { name: new RegExp(`^${AGENT} `) }).click()
    await dialog.getByRole('tab', { name: 'Sign in', exact: true }).click()
    const methods = await visible(dialog.getByRole('list', { name: 'Sign-in methods' }))
    const sso = methods.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Company SSO' }) })
    await visible(sso.getByText('Not usable in Bosun'))
    await visible(sso.getByText("Single sign-on through your company's identity provider."))
    expect(await sso.getByRole('button').count()).toBe(0)
    await visible(methods.getByRole('button', { name: 'Sign in with Acme', exact: true }))
    await page.evaluate(() => document.fonts.ready.then(() => undefined))
    await screenshot(page, `login-unusable-${colorScheme}`)
  })
}
