/**
 * The elicitation components in a real browser (Debian's Chromium through Playwright): keyboard,
 * validation display and accessibility wiring that a static render cannot show. The components are
 * bundled with esbuild into one inline page; every network request is recorded and refused.
 */
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build, stop as stopEsbuild } from 'esbuild'
import { chromium, type Browser, type Page } from 'playwright'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..')

const harness = `
import { createRoot } from 'react-dom/client'
import { ElicitationForm } from './renderer/components/elicitation/ElicitationForm'
import { UrlConsentDialog } from './renderer/components/elicitation/UrlConsentDialog'
const w = window
w.calls = []
w.nextResult = { ok: true }
const root = createRoot(document.getElementById('root'))
w.renderForm = (view) => root.render(<ElicitationForm key={view.elicitationRequestId} elicitation={view} autoFocus onRespond={async (answer) => { w.calls.push(answer); return w.nextResult }} />)
w.renderUrl = (view) => root.render(
  <UrlConsentDialog key={view.elicitationRequestId + view.status} elicitation={view}
    onOpen={async () => { w.calls.push('open'); return w.nextResult }}
    onRetry={async () => { w.calls.push('retry'); return w.nextResult }}
    onDecline={() => w.calls.push('decline')}
    onCancel={() => w.calls.push('cancel')}
    onDismiss={() => w.calls.push('dismiss')}
    openInPage={(href) => w.calls.push('page:' + href)} />)
`

let browser: Browser
let html: string
let page: Page
let requests: string[]

beforeAll(async () => {
  const bundle = await build({
    stdin: { contents: harness, resolveDir: repoRoot, loader: 'tsx', sourcefile: 'harness.tsx' },
    bundle: true,
    write: false,
    outdir: 'out',
    format: 'iife',
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"development"' },
    logLevel: 'silent',
  })
  const js = bundle.outputFiles.find((f) => f.path.endsWith('.js'))!.text
  const css = bundle.outputFiles.find((f) => f.path.endsWith('.css'))?.text ?? ''
  html = `<!doctype html><html><head><meta charset="utf-8"><style>${css}</style></head><body><div id="root"></div><script>${js.replace(/<\/script/gi, '<\\/script')}</script></body></html>`
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  })
})

afterAll(async () => {
  await browser?.close()
  // esbuild's service process (started by build) would otherwise run on until the worker ends.
  await stopEsbuild()
})

beforeEach(async () => {
  page = await browser.newPage()
  requests = []
  await page.route('**/*', (route) => {
    requests.push(route.request().url())
    return route.abort()
  })
  await page.setContent(html)
  return async () => {
    await page.close()
  }
})

const formView = {
  elicitationRequestId: 'el-1',
  agentId: 'a',
  agentName: 'Agent A',
  sessionId: 's1',
  mode: 'form',
  message: 'Set up the project. Docs: https://docs.example.com',
  createdAt: 0,
  status: 'pending',
  requestedSchema: {
    type: 'object',
    properties: {
      name: { type: 'string', title: 'Project name', minLength: 2 },
      count: { type: 'integer', title: 'Workers', minimum: 1, maximum: 8, default: 2 },
      email: { type: 'string', title: 'Contact', format: 'email' },
      lang: { type: 'string', title: 'Language', oneOf: [{ const: 'ts', title: 'TypeScript' }, { const: 'rs', title: 'Rust' }] },
      tags: { type: 'array', title: 'Extras', items: { anyOf: [{ const: 'ci', title: 'CI' }, { const: 'lint', title: 'Lint' }] } },
      agree: { type: 'boolean', title: 'Create a git repository' },
    },
    required: ['name', 'lang'],
  },
}

const calls = () => page.evaluate(() => (window as unknown as { calls: unknown[] }).calls)

describe('ElicitationForm in a browser', () => {
  it('exposes every control by role and accessible name, with the first field focused', async () => {
    await page.evaluate((v) => (window as unknown as { renderForm(v: unknown): void }).renderForm(v), formView)
    await expect.poll(() => page.getByRole('textbox', { name: /Project name/ }).evaluate((el) => el === document.activeElement)).toBe(true)
    expect(await page.getByRole('spinbutton', { name: 'Workers' }).inputValue()).toBe('2')
    expect(await page.getByRole('textbox', { name: 'Contact' }).count()).toBe(1)
    expect(await page.getByRole('radio', { name: 'TypeScript' }).count()).toBe(1)
    expect(await page.getByRole('radiogroup', { name: /Language/ }).count()).toBe(1)
    expect(await page.getByRole('checkbox', { name: 'CI' }).count()).toBe(1)
    expect(await page.getByRole('checkbox', { name: 'Create a git repository' }).count()).toBe(1)
    expect(await page.getByRole('button', { name: 'Accept' }).count()).toBe(1)
    expect(await page.getByRole('button', { name: 'Decline' }).count()).toBe(1)
    expect(await page.getByRole('button', { name: 'Cancel' }).count()).toBe(1)
    // The URL in the message is text, not a link.
    expect(await page.getByRole('link').count()).toBe(0)
  })

  it('blocks submit on invalid input and shows errors by their fields', async () => {
    await page.evaluate((v) => (window as unknown as { renderForm(v: unknown): void }).renderForm(v), formView)
    await page.getByRole('spinbutton', { name: 'Workers' }).fill('9')
    await page.getByRole('button', { name: 'Accept' }).click()
    const name = page.getByRole('textbox', { name: /Project name/ })
    await expect.poll(() => name.getAttribute('aria-invalid')).toBe('true')
    const describedBy = (await name.getAttribute('aria-describedby')) ?? ''
    const errorText = await page.evaluate((ids) => ids.split(' ').map((id) => document.getElementById(id)?.textContent).join(' '), describedBy)
    expect(errorText).toContain('Required.')
    expect(await page.getByRole('spinbutton', { name: 'Workers' }).getAttribute('aria-invalid')).toBe('true')
    expect(await page.getByText('Must be at most 8.').count()).toBe(1)
    expect(await name.evaluate((el) => el === document.activeElement)).toBe(true)
    expect(await calls()).toEqual([])

    // Fixing the fields clears the errors live, and Accept sends the content.
    await name.fill('demo')
    await page.getByRole('spinbutton', { name: 'Workers' }).fill('3')
    await page.getByRole('radio', { name: 'Rust' }).check()
    await page.getByRole('checkbox', { name: 'Lint' }).check()
    await expect.poll(() => name.getAttribute('aria-invalid')).toBe(null)
    await page.getByRole('button', { name: 'Accept' }).click()
    await expect.poll(calls).toEqual([{ action: 'accept', content: { name: 'demo', count: 3, lang: 'rs', tags: ['lint'], agree: false } }])
  })

  it('shows errors main sends back', async () => {
    await page.evaluate((v) => {
      const w = window as unknown as { renderForm(v: unknown): void; nextResult: unknown }
      w.nextResult = { ok: false, message: 'The agent’s pattern could not be checked.', errors: { name: 'Bosun could not check this answer' } }
      w.renderForm(v)
    }, formView)
    await page.getByRole('textbox', { name: /Project name/ }).fill('demo')
    await page.getByRole('radio', { name: 'Rust' }).check()
    await page.getByRole('button', { name: 'Accept' }).click()
    await expect.poll(() => page.getByRole('alert').first().textContent()).toContain('could not be checked')
    expect(await page.getByRole('textbox', { name: /Project name/ }).getAttribute('aria-invalid')).toBe('true')
  })

  it('Escape cancels; Decline declines', async () => {
    await page.evaluate((v) => (window as unknown as { renderForm(v: unknown): void }).renderForm(v), formView)
    await page.getByRole('textbox', { name: /Project name/ }).press('Escape')
    await expect.poll(calls).toEqual([{ action: 'cancel' }])
    await page.getByRole('button', { name: 'Decline' }).click()
    await expect.poll(calls).toEqual([{ action: 'cancel' }, { action: 'decline' }])
  })

  it('Escape on a changed form asks first: Keep editing has the focus, Escape again keeps editing, Discard cancels', async () => {
    await page.evaluate((v) => (window as unknown as { renderForm(v: unknown): void }).renderForm(v), formView)
    const name = page.getByRole('textbox', { name: /Project name/ })
    const focused = (locator: ReturnType<Page['getByRole']>) => locator.evaluate((el) => el === document.activeElement)
    await name.fill('my-app')
    await name.press('Escape')
    const question = page.getByRole('group', { name: 'Discard your answers?' })
    await expect.poll(() => question.count()).toBe(1)
    // The question stands in for the actions; its safe answer has the focus; nothing was sent.
    expect(await page.getByRole('button', { name: 'Accept' }).count()).toBe(0)
    await expect.poll(() => focused(question.getByRole('button', { name: 'Keep editing' }))).toBe(true)
    expect(await calls()).toEqual([])

    // Escape again keeps editing: the question goes, the focus is back in the field, the answer is still there.
    await page.keyboard.press('Escape')
    await expect.poll(() => question.count()).toBe(0)
    await expect.poll(() => focused(name)).toBe(true)
    expect(await name.inputValue()).toBe('my-app')
    expect(await calls()).toEqual([])

    // Keep editing by click does the same.
    await name.press('Escape')
    await question.getByRole('button', { name: 'Keep editing' }).click()
    await expect.poll(() => question.count()).toBe(0)
    await expect.poll(() => focused(name)).toBe(true)
    expect(await calls()).toEqual([])

    // Discard cancels the form.
    await page.getByRole('radio', { name: 'Rust' }).check()
    await page.getByRole('radio', { name: 'Rust' }).press('Escape')
    await question.getByRole('button', { name: 'Discard' }).click()
    await expect.poll(calls).toEqual([{ action: 'cancel' }])
  })

  it('a waiting form that leaves the page and comes back still holds what the person typed; an answered one is forgotten', async () => {
    const render = (v: unknown) => page.evaluate((view) => (window as unknown as { renderForm(v: unknown): void }).renderForm(view), v)
    await render(formView)
    await page.getByRole('textbox', { name: /Project name/ }).fill('half-typed')
    await page.getByRole('radio', { name: 'Rust' }).check()
    // Another form takes its place (as when another session is shown), then it comes back.
    await render({ ...formView, elicitationRequestId: 'el-other' })
    await expect.poll(() => page.getByRole('textbox', { name: /Project name/ }).inputValue()).toBe('')
    await render(formView)
    await expect.poll(() => page.getByRole('textbox', { name: /Project name/ }).inputValue()).toBe('half-typed')
    expect(await page.getByRole('radio', { name: 'Rust' }).isChecked()).toBe(true)
    // Still a changed form: Escape asks.
    await page.getByRole('textbox', { name: /Project name/ }).press('Escape')
    await expect.poll(() => page.getByRole('group', { name: 'Discard your answers?' }).count()).toBe(1)
    await page.getByRole('button', { name: 'Discard' }).click()
    await expect.poll(calls).toEqual([{ action: 'cancel' }])
    // Given up: shown again it starts from the agent's defaults, whether or not main's "cancelled" came first.
    await render({ ...formView, elicitationRequestId: 'el-other' })
    await expect.poll(() => page.getByRole('textbox', { name: /Project name/ }).inputValue()).toBe('')
    await render(formView)
    await expect.poll(() => page.getByRole('textbox', { name: /Project name/ }).inputValue()).toBe('')
    await render({ ...formView, status: 'cancelled' })
    await render({ ...formView, elicitationRequestId: 'el-other' })
    await render(formView)
    await expect.poll(() => page.getByRole('textbox', { name: /Project name/ }).inputValue()).toBe('')
  })

  it('a form changed back to its defaults cancels on Escape; the Cancel button never asks', async () => {
    await page.evaluate((v) => (window as unknown as { renderForm(v: unknown): void }).renderForm(v), formView)
    const workers = page.getByRole('spinbutton', { name: 'Workers' })
    await workers.fill('5')
    await workers.fill('2')
    await workers.press('Escape')
    await expect.poll(calls).toEqual([{ action: 'cancel' }])

    await page.evaluate((v) => (window as unknown as { renderForm(v: unknown): void }).renderForm(v), { ...formView, elicitationRequestId: 'el-9' })
    await page.getByRole('textbox', { name: /Project name/ }).fill('typed')
    await page.getByRole('button', { name: 'Cancel' }).click()
    await expect.poll(calls).toEqual([{ action: 'cancel' }, { action: 'cancel' }])
  })
})

const urlView = (url: string, status = 'pending') => ({
  elicitationRequestId: 'el-2',
  agentId: 'a',
  agentName: 'Agent A',
  sessionId: 's1',
  mode: 'url',
  message: 'Sign in',
  url,
  elicitationId: 'ext',
  createdAt: 0,
  status,
})

describe('UrlConsentDialog in a browser', () => {
  it('fetches nothing before consent and never renders the URL as a link', async () => {
    await page.evaluate((v) => (window as unknown as { renderUrl(v: unknown): void }).renderUrl(v), urlView('https://xn--pple-43d.com/login'))
    expect(await page.getByText('Punycode', { exact: false }).count()).toBe(1)
    expect(await page.getByRole('link').count()).toBe(0)
    expect(await page.getByRole('list', { name: 'Warnings about this address' }).count()).toBe(1)
    expect(requests).toEqual([])
  })

  it('opens through main; in the browser host the page opens the checked href', async () => {
    await page.evaluate((v) => {
      const w = window as unknown as { renderUrl(v: unknown): void; nextResult: unknown }
      w.nextResult = { ok: true, openedBy: 'page', href: 'https://auth.example.com/x' }
      w.renderUrl(v)
    }, urlView('https://auth.example.com/x'))
    await page.getByRole('button', { name: 'Open in browser' }).click()
    await expect.poll(calls).toEqual(['open', 'page:https://auth.example.com/x'])
    expect(requests).toEqual([])
  })

  it('Escape cancels; refused schemes offer no Open button', async () => {
    await page.evaluate((v) => (window as unknown as { renderUrl(v: unknown): void }).renderUrl(v), urlView('javascript:alert(1)'))
    expect(await page.getByRole('button', { name: 'Open in browser' }).count()).toBe(0)
    expect(await page.getByRole('alert').textContent()).toContain('Bosun will not open this address')
    await page.getByRole('button', { name: 'Decline' }).focus()
    await page.keyboard.press('Escape')
    await expect.poll(calls).toEqual(['cancel'])
  })

  it('while waiting for completion offers retry and dismiss', async () => {
    await page.evaluate((v) => (window as unknown as { renderUrl(v: unknown): void }).renderUrl(v), urlView('https://auth.example.com/x', 'accepted'))
    await page.getByRole('button', { name: 'Open again' }).click()
    await page.getByRole('button', { name: 'Stop waiting' }).click()
    await expect.poll(calls).toEqual(['retry', 'dismiss'])
  })
})
