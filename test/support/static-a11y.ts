/** Accessibility checks over static markup (`renderToStaticMarkup`), for components' unit tests. */

/** The input/select/textarea tags without an accessible name: neither a `<label for>` nor an aria-label. */
export function unlabelledControls(html: string): string[] {
  const labelled = new Set([...html.matchAll(/<label[^>]*for="([^"]+)"/g)].map((m) => m[1]))
  return [...html.matchAll(/<(input|select|textarea)\b[^>]*>/g)]
    .map((m) => m[0])
    .filter((tag) => !/aria-label="[^"]+"/.test(tag) && !labelled.has(/id="([^"]+)"/.exec(tag)?.[1]))
}

/** The buttons with neither text nor an aria-label. */
export function namelessButtons(html: string): string[] {
  return [...html.matchAll(/<button\b([^>]*)>([\s\S]*?)<\/button>/g)]
    .filter(([, attrs, body]) => !/aria-label="[^"]+"/.test(attrs!) && body!.replace(/<[^>]+>/g, '').trim() === '')
    .map((m) => m[0])
}
