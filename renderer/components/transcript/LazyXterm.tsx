import { lazy, Suspense } from 'react'
import type { XtermViewProps } from './XtermView'

/**
 * xterm.js is loaded with the first terminal shown, not with the app: about 0.6 MiB of the page's heap (its code,
 * compiled) that a session without a terminal never needs. Once loaded, every later terminal renders at once.
 */
const XtermView = lazy(() => import('./XtermView').then((module) => ({ default: module.XtermView })))

/**
 * {@link XtermView}, loaded on first use. Until it is (the first terminal's few milliseconds), its host holds the place,
 * empty, with the same role and name.
 */
export function LazyXtermView(props: XtermViewProps) {
  const placeholder = <div className="xterm-host" role="log" aria-label={props.ariaLabel} />
  return (
    <Suspense fallback={placeholder}>
      <XtermView {...props} />
    </Suspense>
  )
}
