import { useCallback, useLayoutEffect, useRef, useState } from 'react'
import { isAtBottom, type ScrollBox } from './dom-helpers'

/**
 * Keeps a scrolling box pinned to its end while new content arrives, unless the person scrolled up to read;
 * `following` is false then (show a "Jump to latest" button that calls `jumpToEnd`).
 */
export function useFollowTail(contentKey: unknown) {
  const ref = useRef<ScrollBox | null>(null)
  const [following, setFollowing] = useState(true)
  const followingRef = useRef(true)

  useLayoutEffect(() => {
    const el = ref.current
    if (el && followingRef.current) el.scrollTop = el.scrollHeight
  }, [contentKey])

  const onScroll = useCallback(() => {
    const el = ref.current
    if (!el) return
    const atEnd = isAtBottom(el)
    if (atEnd !== followingRef.current) {
      followingRef.current = atEnd
      setFollowing(atEnd)
    }
  }, [])

  const jumpToEnd = useCallback(() => {
    const el = ref.current
    followingRef.current = true
    setFollowing(true)
    if (el) el.scrollTop = el.scrollHeight
  }, [])

  // Typed loosely so a <pre> or <div> ref can take it (the DOM types are not in every compile).
  return { ref: ref as never, onScroll, following, jumpToEnd }
}
