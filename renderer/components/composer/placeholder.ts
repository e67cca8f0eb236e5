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
  return candidates.find(fits) ?? 'Message'
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
