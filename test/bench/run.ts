/**
 * `npm run bench`: every section in order, figures only (no thresholds). One section per file; add yours to
 * the list. Environment knobs are described in each section (BENCH_COUNTS, BENCH_REPS, BENCH_BROWSER_COUNTS,
 * BENCH_SKIP=browser,hot-path,start-up …).
 */
import { browserSection } from './browser'
import { floodSection } from './flood'
import { hotPathSection } from './hot-path'
import type { BenchContext, BenchSection } from './section'
import { startupSection } from './startup'

const sections: BenchSection[] = [
  startupSection,
  hotPathSection,
  floodSection,
  browserSection,
  { name: 'history (SQLite persistence, open, search)', run: async () => (await import('./history')).runHistoryBench() },
]

async function main(): Promise<void> {
  const skip = new Set((process.env.BENCH_SKIP ?? '').split(',').filter(Boolean))
  const context: BenchContext = { shared: new Map() }
  console.log(`Bosun bench — node ${process.version}, ${new Date().toISOString()}`)
  for (const section of sections) {
    if ([...skip].some((word) => section.name.includes(word))) continue
    console.log(`\n## ${section.name}`)
    try {
      await section.run(context)
    } catch (error) {
      console.log(`  failed: ${error instanceof Error ? error.message : String(error)}`)
    }
  }
}

void main()
