import { useCallback, useEffect, useRef } from 'react'

/**
 * Runs a change of layout now, or, while a pointer is pressed, once its press is over (after the click it makes): a
 * field that loses the focus to a press and changes its height moved what was pressed from under the pointer.
 */
export function useAfterPress(): (change: () => void) => void {
  const pressed = useRef(false)
  const pending = useRef<(() => void) | null>(null)
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined
    const down = () => {
      pressed.current = true
    }
    const up = () => {
      pressed.current = false
      const change = pending.current
      pending.current = null
      // After the click that this release makes, which comes in the same task.
      if (change) timer = setTimeout(change, 0)
    }
    window.addEventListener('pointerdown', down, true)
    window.addEventListener('pointerup', up, true)
    window.addEventListener('pointercancel', up, true)
    return () => {
      window.removeEventListener('pointerdown', down, true)
      window.removeEventListener('pointerup', up, true)
      window.removeEventListener('pointercancel', up, true)
      clearTimeout(timer)
      pending.current = null
    }
  }, [])
  return useCallback((change: () => void) => {
    if (pressed.current) pending.current = change
    else change()
  }, [])
}
