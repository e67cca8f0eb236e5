import { lazy, Suspense, useState } from 'react'
import type { ElicitationCard as Card, ElicitationCardProps } from './ElicitationCard'

/**
 * The elicitation UI (forms, URL consent) is loaded with the first elicitation shown, not with the app: its checks
 * carry the public-suffix list (tldts) and a regular-expression engine (re2js), about 0.7 MiB of the page's heap that
 * a session without an elicitation never needs.
 */
let loaded: typeof Card | null = null
let loading: Promise<typeof Card> | null = null

/** Loads the elicitation card's code (once); later cards render at once. */
export function loadElicitationCard(): Promise<typeof Card> {
  loading ??= import('./ElicitationCard').then((module) => (loaded = module.ElicitationCard))
  return loading
}

const LazyCard = lazy(() => loadElicitationCard().then((component) => ({ default: component })))

/**
 * {@link Card}, loaded on first use (nothing is shown for the first card's few milliseconds). A card keeps the way it
 * was first rendered (a change of component would make a new card and lose what the person typed).
 */
export function LazyElicitationCard(props: ElicitationCardProps) {
  const [Loaded] = useState(() => loaded)
  if (Loaded) return <Loaded {...props} />
  return (
    <Suspense fallback={null}>
      <LazyCard {...props} />
    </Suspense>
  )
}
