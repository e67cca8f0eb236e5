/**
 * Spinners turn in one phase (spinner-phase.ts): one started later than another shows the same angle at every moment,
 * so the display swaps one frame for a step of both instead of one for each. Read through the Web Animations API with
 * the app's styles.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { browserHarness } from '../../support/browser-bundle'

const entry = `
import { alignSpinners } from './renderer/components/common/spinner-phase'
const stop = alignSpinners(document)
/** Adds a spinner; resolves once its animation has started (and been aligned). */
window.addSpinner = () => new Promise((resolve) => {
  const spinner = document.createElement('span')
  spinner.className = 'spinner'
  spinner.addEventListener('animationstart', () => resolve(), { once: true })
  document.getElementById('root').append(spinner)
})
window.stopAligning = stop
`

const harness = browserHarness(entry)
const styles = readFileSync('renderer/styles/app.css', 'utf8')

type Spinners = { addSpinner(): Promise<void>; stopAligning(): void }

/** Adds a spinner, waits `gapMs` (a moment that is not a whole turn), adds another; their animations' current times, over a turn. */
async function phases(page: Awaited<ReturnType<typeof harness.open>>, aligned: boolean): Promise<{ duration: number; first: number; second: number }> {
  return page.evaluate(async (aligned) => {
    const w = window as unknown as Spinners
    if (!aligned) w.stopAligning()
    await w.addSpinner()
    // A third of a turn later (the spinner's turn is 0.8 s): the second spinner starts at another angle.
    await new Promise<void>((resolve) => {
      const [first] = document.getAnimations()
      const check = () => (Number(first!.currentTime) >= 270 ? resolve() : requestAnimationFrame(check))
      check()
    })
    await w.addSpinner()
    const [first, second] = document.getAnimations()
    const duration = Number(first!.effect!.getComputedTiming().duration)
    return { duration, first: Number(first!.currentTime) % duration, second: Number(second!.currentTime) % duration }
  }, aligned)
}

describe('spinners', { timeout: 30_000 }, () => {
  it('turn in one phase: a spinner started later shows the angle the first one shows', async () => {
    const page = await harness.open({ viewport: { width: 300, height: 100 }, styles })
    try {
      const { duration, first, second } = await phases(page, true)
      expect(duration).toBeGreaterThan(0)
      expect(second).toBeCloseTo(first, 3)
      expect(page.errors).toEqual([])
    } finally {
      await page.close()
    }
  })

  it('without the alignment, the second spinner turns in a phase of its own (what the test above would see)', async () => {
    const page = await harness.open({ viewport: { width: 300, height: 100 }, styles })
    try {
      const { duration, first, second } = await phases(page, false)
      expect(Math.abs(first - second)).toBeGreaterThan(duration / 10)
    } finally {
      await page.close()
    }
  })
})
