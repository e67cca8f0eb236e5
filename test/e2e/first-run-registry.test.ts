/**
 * Issue 15 in Chromium against the browser host: a fresh Bosun with two agents on PATH (fake `gemini` and
 * `codex-acp` that answer `--version` and otherwise run the scripted ACP agent). New session leads to the
 * Agents page, which lists both with their versions; one is added in a click and a session starts with it.
 * Then the ACP Registry (a fixture on loopback, its address set in the page): browse and search, install
 * with progress, the update badge, update, uninstall, and the offline copy. Screenshots in light and dark.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { agentScript, binaryEntry, makeTarGz, startFixtureRegistry, type FixtureRegistry } from '../support/fixture-registry'
import { axeViolations } from './support/axe'
import { screenshot, useApp } from './support/harness'
import { gone, messageBox, until, visible } from './support/session-ui'

let registry: FixtureRegistry
/** The folder of the fake agents found on PATH; removed after the file (it was left in /tmp every run). */
let binDir: string | undefined
const savedPath = process.env.PATH

const ICON = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="7" fill="#2f81f7"/><path d="M5 8h6" stroke="#fff" stroke-width="2"/></svg>'

function publish(version: string): void {
  const path = `/dl/fixture-${version}.tar.gz`
  registry.put(path, makeTarGz([{ path: 'bin/', type: 'dir' }, { path: 'bin/agent', body: agentScript(), mode: 0o755 }]))
  registry.put('/icons/fixture.svg', ICON, 'image/svg+xml')
  registry.put('/mirror/icons/fixture.svg', ICON, 'image/svg+xml')
  const doc = {
    version: '1.0.0',
    agents: [
      {
        ...binaryEntry('fixture-agent', version, registry.origin + path, { name: 'Fixture Agent', icon: 'icons/fixture.svg' }),
        description: 'A scripted ACP agent, <b>downloaded</b> as a tar.gz archive.',
        authors: ['Bosun tests', 'ACP'],
      },
      {
        id: 'npx-only',
        name: 'Package Agent',
        version: '0.4.1',
        description: 'Runs through npx.',
        license: 'Apache-2.0',
        distribution: { npx: { package: '@acme/package-agent@0.4.1' } },
      },
    ],
    extensions: [],
  }
  registry.setRegistry(doc)
  // The same registry at a second address (the address setting is changed to it in the page).
  registry.put('/mirror/registry.json', JSON.stringify(doc), 'application/json')
}

beforeAll(async () => {
  registry = await startFixtureRegistry()
  publish('1.0.0')
  binDir = join(process.env.TMPDIR ?? '/tmp', `bosun-e2e-${process.pid}-${registry.origin.replace(/\W/g, '_')}`)
  const dir = join(binDir, 'bin')
  mkdirSync(dir, { recursive: true })
  const fake = (name: string, version: string) =>
    writeFileSync(join(dir, name), agentScript().replace('#!/bin/sh\n', `#!/bin/sh\nif [ "$1" = "--version" ]; then echo "${version}"; exit 0; fi\n`), { mode: 0o755 })
  fake('gemini', '0.27.3')
  fake('codex-acp', 'codex-acp 0.9.2')
  // The host runs in this process: its PATH is what detection and the agents see.
  process.env.PATH = `${dir}:${savedPath ?? ''}`
})

afterAll(async () => {
  process.env.PATH = savedPath
  await registry?.close()
  if (binDir) rmSync(binDir, { recursive: true, force: true })
})

const { app, page } = useApp([])

beforeAll(() => {
  // Before the Agents page first asks for it: the fixture, not the official registry.
  mkdirSync(join(app.home.home, 'registry'), { recursive: true })
  writeFileSync(join(app.home.home, 'registry', 'settings.json'), JSON.stringify({ url: registry.url }))
})

const agentsDialog = () => page.getByRole('dialog', { name: 'Agents' })
const registryItem = (name: string) => agentsDialog().getByRole('list', { name: 'Registry agents' }).getByRole('listitem', { name })

/** Screenshots in both themes, each checked by axe (WCAG 2 A/AA) first. */
async function screenshotBothSchemes(name: string): Promise<void> {
  expect(await axeViolations(page), `${name} (light)`).toEqual([])
  await screenshot(page, `${name}-light`)
  await page.emulateMedia({ colorScheme: 'dark' })
  expect(await axeViolations(page), `${name} (dark)`).toEqual([])
  await screenshot(page, `${name}-dark`)
  await page.emulateMedia({ colorScheme: 'light' })
}

describe('first run', () => {
  it('New session with no agent leads to the Agents page, which lists the agents found on PATH; one is added in a click and starts a session', async () => {
    const nav = page.getByRole('navigation', { name: 'Agents and sessions' })
    await visible(nav.getByText('No agents yet.'))
    await screenshotBothSchemes('first-run-sidebar')
    await nav.getByRole('button', { name: 'New session', exact: true }).click()
    const dialog = await visible(agentsDialog())
    await visible(dialog.getByRole('heading', { name: 'Set up your first agent' }))
    const found = await visible(dialog.getByRole('list', { name: 'Agents found on this computer' }))
    await visible(found.getByText('0.27.3'))
    expect(await found.getByRole('listitem').allInnerTexts()).toEqual([
      expect.stringMatching(/^Codex 0\.9\.2\s+codex-acp\s+Needs: A ChatGPT account to sign in with, or an OPENAI_API_KEY/),
      expect.stringMatching(/^Gemini CLI 0\.27\.3\s+gemini --acp\s+Needs: A Google account to sign in with, or a GEMINI_API_KEY/),
    ])
    // Presets say what they need, with code shown as code (no backticks).
    const presets = dialog.getByRole('list', { name: 'Presets' })
    expect(await presets.innerText()).not.toContain('`')
    await visible(presets.getByText('goose configure', { exact: true }))
    await visible(registryItem('Fixture Agent'))
    await screenshotBothSchemes('first-run-agents')

    await found.getByRole('button', { name: 'Add Gemini CLI' }).click()
    await visible(dialog.getByRole('heading', { name: 'Gemini CLI', level: 2 }))
    await dialog.getByRole('button', { name: 'Close', exact: true }).click()
    await gone(agentsDialog())

    await nav.getByRole('button', { name: 'New session', exact: true }).click()
    const form = await visible(page.getByRole('form', { name: 'New session' }))
    await form.getByRole('combobox', { name: 'Agent' }).selectOption({ label: 'Gemini CLI' })
    await form.getByRole('textbox', { name: 'Working folder' }).fill(app.home.workspace)
    await form.getByRole('button', { name: 'Start session' }).click()
    await gone(form)
    await until<HTMLTextAreaElement>(messageBox(page), (el) => !el.disabled)
  })
})

describe('the ACP Registry', () => {
  it('browses and searches, installs with progress, shows and applies an update, uninstalls, and shows the offline copy', async () => {
    await page.getByRole('button', { name: 'Agents', exact: true }).click()
    const dialog = await visible(agentsDialog())
    await dialog.getByRole('button', { name: 'Add agent' }).click()
    await visible(dialog.getByRole('heading', { name: 'Add an agent', level: 2 }))

    // The address is a setting: point it at the mirror, which the fixture server then sees asked for.
    await dialog.getByText('Registry address').click()
    const address = dialog.getByRole('textbox', { name: /Address of registry\.json/ })
    expect(await address.inputValue()).toBe(registry.url)
    await address.fill(`${registry.origin}/mirror/registry.json`)
    const mirrorAsked = registry.waitForHit('/mirror/registry.json')
    await dialog.getByRole('button', { name: 'Use this address' }).click()
    await mirrorAsked
    const fixture = await visible(registryItem('Fixture Agent'))
    await visible(registryItem('Package Agent'))
    // Registry text is text: the <b> in the description is shown, not applied.
    await visible(fixture.getByText('A scripted ACP agent, <b>downloaded</b> as a tar.gz archive.'))
    await visible(fixture.getByText('Bosun tests, ACP · MIT · via download'))
    await until<HTMLImageElement>(fixture.locator('img'), (img) => img.complete && img.naturalWidth > 0 && img.src.startsWith('data:image/svg+xml;base64,'))

    await dialog.getByRole('searchbox', { name: 'Search the registry' }).fill('package')
    await gone(registryItem('Fixture Agent'))
    await visible(registryItem('Package Agent'))
    await dialog.getByRole('searchbox', { name: 'Search the registry' }).fill('')

    // A download that stalls shows its progress and can be cancelled; nothing is installed.
    const stall = registry.stall('/dl/fixture-1.0.0.tar.gz')
    await fixture.getByRole('button', { name: 'Install Fixture Agent' }).click()
    await visible(fixture.getByRole('progressbar', { name: 'Installing Fixture Agent' }))
    await visible(fixture.getByText(/^Downloading 16 B of [\d.]+ (B|KiB)$/))
    await screenshotBothSchemes('registry-progress')
    await fixture.getByRole('button', { name: 'Cancel', exact: true }).click()
    await visible(fixture.getByText('Cancelled. Nothing was installed.'))
    stall.release()

    await fixture.getByRole('button', { name: 'Install Fixture Agent' }).click()
    await visible(fixture.getByText('Installed 1.0.0.'))
    await visible(fixture.getByText('Installed 1.0.0', { exact: true }))
    await screenshotBothSchemes('registry-installed')

    publish('1.1.0')
    await dialog.getByRole('button', { name: 'Refresh' }).click()
    await visible(fixture.getByText('Update: 1.0.0 → 1.1.0'))
    await screenshotBothSchemes('registry-update')
    await fixture.getByRole('button', { name: 'Update Fixture Agent' }).click()
    await visible(fixture.getByText('Updated to 1.1.0.'))
    await visible(fixture.getByText('Installed 1.1.0', { exact: true }))
    const listed = dialog.getByRole('navigation', { name: 'Agents' })
    await visible(listed.getByRole('button', { name: /^Fixture Agent / }))

    await fixture.getByRole('button', { name: 'Uninstall Fixture Agent' }).click()
    await fixture.getByRole('button', { name: 'Confirm uninstalling Fixture Agent' }).click()
    await visible(fixture.getByRole('button', { name: 'Install Fixture Agent' }))
    await gone(listed.getByRole('button', { name: /^Fixture Agent / }))

    await registry.close()
    await dialog.getByRole('button', { name: 'Refresh' }).click()
    await visible(dialog.getByText(/Offline:/))
    await visible(dialog.getByText(/showing the copy from/))
    await visible(registryItem('Fixture Agent'))
    await screenshotBothSchemes('registry-offline')
  })
})
