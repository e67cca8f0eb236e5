/**
 * Every spinner turns in the same phase. A spinner steps 20 times a second (app.css), and each step is a frame the
 * display compositor draws and swaps; two spinners started at different moments step at different moments, so a
 * session at work (its header's spinner and its sidebar row's) had the display swap 40 frames a second, three
 * spinners 60, where one phase for all needs 20 (measured in Chromium's trace: Display::DrawAndSwap).
 *
 * A spinner's animation is started at the document timeline's origin when it starts: a time it has already passed,
 * so the spinner shows the angle every other spinner shows, and steps when they do. Nothing else changes (its
 * duration, steps and reduced-motion pace stay the stylesheet's), and it stays on the compositor.
 */

/** The `@keyframes` of `.spinner` (renderer/styles/app.css). */
export const SPINNER_KEYFRAMES = 'spin'

/** Aligns every spinner `doc` shows from now on; the function returned stops it. */
export function alignSpinners(doc: Document): () => void {
  const onStart = (event: AnimationEvent) => {
    if (event.animationName !== SPINNER_KEYFRAMES || !(event.target instanceof Element)) return
    for (const animation of event.target.getAnimations()) {
      if ((animation as CSSAnimation).animationName === SPINNER_KEYFRAMES && animation.startTime !== 0) animation.startTime = 0
    }
  }
  doc.addEventListener('animationstart', onStart, true)
  return () => doc.removeEventListener('animationstart', onStart, true)
}
