import { useCallback, useEffect, useRef, type RefObject } from 'react'
import { focusAfterAnswer, holdsFocus, onArrival } from './prompt-focus'
import { announce } from '../common/announce'

/**
 * A request answered from inside it (a prompt's option, a form's Accept, Decline, Cancel or Escape) loses its buttons,
 * or goes whole as on a tool card, and the focus with them: once the answer is in (`pending` false, or the component
 * gone), the focus goes on ({@link focusAfterAnswer}). Call the returned function as the answer is given: it notes
 * whether the focus was inside `root`, so a request answered from elsewhere (the inbox, a key press in another place)
 * leaves the focus alone.
 */
export function useFocusAfterAnswer(pending: boolean, root: RefObject<{ contains?(node: unknown): boolean } | null>): () => void {
  const answeredHere = useRef(false)
  useEffect(() => {
    if (pending || !answeredHere.current) return
    answeredHere.current = false
    focusAfterAnswer()
  }, [pending])
  useEffect(
    () => () => {
      if (answeredHere.current) focusAfterAnswer()
    },
    [],
  )
  return useCallback(() => {
    answeredHere.current = holdsFocus(root.current)
  }, [root])
}

/**
 * A request appearing (a permission prompt, an agent's question) takes the focus when the person is not using it
 * (`focus`, called without a scroll of its own: the transcript keeps a request's top in view), else its `announcement`
 * is read out; once, when it first appears while pending (see {@link onArrival}). A new title or name is not a new request.
 */
export function useFocusOnArrival(requestId: string, pending: boolean, focus: () => void, announcement: () => string): void {
  useEffect(() => {
    if (!pending) return
    const arrival = onArrival(requestId)
    if (arrival === 'focus') focus()
    else if (arrival === 'announce') announce(announcement())
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [requestId])
}
