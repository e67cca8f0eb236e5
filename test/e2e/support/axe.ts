/**
 * axe-core (WCAG 2 A/AA) on the page or inside one element, as readable lines. Same rules as
 * accessibility.test.ts, which keeps its own copy; new tests use this one.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Page } from 'playwright'
import { expect } from 'vitest'

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

interface AxeViolation {
  id: string
  impact: string | null
  help: string
  nodes: { target: string[] }[]
}

export async function axeViolations(page: Page, selector?: string): Promise<string[]> {
  await page.evaluate(axeSource)
  const found = await page.evaluate(async (context) => {
    const axe = (window as unknown as { axe: { run: (c: unknown, o: unknown) => Promise<{ violations: AxeViolation[] }> } }).axe
    const result = await axe.run(context ?? document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }, resultTypes: ['violations'] })
    return result.violations
  }, selector ?? null)
  return found.flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${v.help} at ${n.target.join(' ')}`))
}

/** No violations on the page (or inside `selector`) in the light theme and in the dark one. */
export async function expectAxeCleanInBothThemes(page: Page, what: string, selector?: string): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme })
    expect(await axeViolations(page, selector), `${what} (${colorScheme})`).toEqual([])
  }
  await page.emulateMedia({ colorScheme: 'light' })
}

/**
 * Every axe rule (WCAG A/AA and axe's best practices: landmarks, unique ids, headings, scrollable regions…), but
 * only what axe rates `serious` or `critical`, on the page or inside `selector`.
 */
export async function axeSeriousViolations(page: Page, selector?: string): Promise<string[]> {
  await page.evaluate(axeSource)
  const found = await page.evaluate(async (context) => {
    const axe = (window as unknown as { axe: { run: (c: unknown, o: unknown) => Promise<{ violations: AxeViolation[] }> } }).axe
    const result = await axe.run(context ?? document, { resultTypes: ['violations'] })
    return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
  }, selector ?? null)
  return found.flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${v.help} at ${n.target.join(' ')}`))
}

/** {@link axeSeriousViolations} in the light theme and the dark one, both listed before the test fails. */
export async function expectNoSeriousAxeInBothThemes(page: Page, what: string, selector?: string): Promise<void> {
  const found: string[] = []
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme })
    for (const line of await axeSeriousViolations(page, selector)) found.push(`${what} (${colorScheme}): ${line}`)
  }
  await page.emulateMedia({ colorScheme: 'light' })
  expect(found).toEqual([])
}
