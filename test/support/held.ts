/** An async function whose every call waits until `release()`, then answers `value` (a call main cannot finish yet). */
export function heldUntilReleased<T>(value: T): { run: () => Promise<T>; release: () => void } {
  let release!: () => void
  const released = new Promise<void>((resolve) => (release = resolve))
  return {
    run: async () => {
      await released
      return value
    },
    release,
  }
}
