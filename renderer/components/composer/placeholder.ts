/**
 * The message box's placeholder, the longest of its wordings that fits on the box's one line (Chromium does not
 * ellipsize a placeholder: one too long for a narrow window was cut mid-word). Each says whom the message goes
 * to; the longer ones add how to reach the commands, the files and a new line.
 */
export function composerPlaceholder(agentName: string, options: { files: boolean; fits?: (text: string) => boolean }): string {
  const files = options.files ? ', @ for files' : ''
  const candidates = [
    `Message ${agentName} (/ for commands${files}, Shift+Enter for a new line)`,
    `Message ${agentName} (/ for commands${files})`,
    `Message ${agentName}`,
  ]
  const fits = options.fits ?? (() => true)
  return candidates.find(fits) ?? cutName(agentName, fits) ?? 'Message'
}

/**
 * "Message Claude Code Enterprise…": the longest start of a name too long for the box that fits with an ellipsis, so the
 * box still says whose it is (it fell back to "Message"). Null when not even a few letters fit.
 */
function cutName(agentName: string, fits: (text: string) => boolean): string | null {
  const letters = Array.from(agentName)
  const wording = (count: number) => `Message ${letters.slice(0, count).join('').trimEnd()}…`
  let [low, high, best] = [4, letters.length - 1, null as string | null]
  while (low <= high) {
    const middle = (low + high) >> 1
    if (fits(wording(middle))) [best, low] = [wording(middle), middle + 1]
    else high = middle - 1
  }
  return best
}

let canvas: HTMLCanvasElement | undefined
/** How wide `text` is drawn in `font` (a CSS font shorthand), in CSS pixels. */
export function textWidth(text: string, font: string): number {
  canvas ??= document.createElement('canvas')
  const context = canvas.getContext('2d')
  if (!context) return 0
  context.font = font
  return context.measureText(text).width
}
