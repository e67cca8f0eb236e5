/**
 * Counts renders per component in a page (browser-bundle tests): a stand-in for React DevTools' hook, which React
 * calls after each commit. Import it before React. A component counts as rendered in a commit when its fiber did
 * work (React's PerformedWork flag, as DevTools reads it) with props or hooks not seen before: a fiber a commit did not
 * visit keeps its old flag, props and hooks, and one that bailed out (memo with equal props) clears the flag.
 */
interface Fiber {
  type: unknown
  flags: number
  memoizedProps: unknown
  /** A function component's first hook (each render makes new ones), or null. */
  memoizedState: unknown
  child: Fiber | null
  sibling: Fiber | null
}

const PERFORMED_WORK = 1
const renders = new Map<string, number>()
const counted = new WeakSet<object>()

/** Whether a props or hooks object is new (and now seen). */
function unseen(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || counted.has(value)) return false
  counted.add(value)
  return true
}

function walk(fiber: Fiber | null): void {
  for (; fiber; fiber = fiber.sibling) {
    // A bundler renames a function whose name a binding also has (SessionHeader2 for memo's SessionHeader): the name before the digits.
    const name = typeof fiber.type === 'function' ? (fiber.type as { name?: string }).name?.replace(/\d+$/, '') : undefined
    if (name && (fiber.flags & PERFORMED_WORK) !== 0 && (unseen(fiber.memoizedProps) || unseen(fiber.memoizedState))) {
      renders.set(name, (renders.get(name) ?? 0) + 1)
    }
    walk(fiber.child)
  }
}

;(window as unknown as { __REACT_DEVTOOLS_GLOBAL_HOOK__: unknown }).__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
  supportsFiber: true,
  isDisabled: false,
  renderers: new Map(),
  inject: () => 1,
  checkDCE: () => {},
  onCommitFiberRoot: (_renderer: number, root: { current: Fiber }) => walk(root.current),
  onCommitFiberUnmount: () => {},
  onPostCommitFiberRoot: () => {},
  onScheduleFiberRoot: () => {},
}

/** Renders so far, by component (function) name. */
export const renderCounts = (): Record<string, number> => Object.fromEntries(renders)
