/** What `npm run bench` runs: a list of sections, each printing its own figures (no thresholds anywhere). */
export interface BenchContext {
  /** Figures a later section compares with (e.g. the bare loop's time at 100k for the browser's ratio). */
  readonly shared: Map<string, number>
}

export interface BenchSection {
  name: string
  run(context: BenchContext): Promise<void>
}
