/* eslint-disable no-var -- ambient declarations of globals */
/**
 * The WHATWG globals common/ may use: every host Bosun runs in (Node, Chromium, Electron's renderer) has them.
 * Only tsconfig.common.json includes this file; main and renderer typecheck against Node's and the DOM's own
 * declarations. Anything else a file in common/ reaches for (fs, window, electron) fails that typecheck.
 */
interface URL {
  hash: string
  host: string
  hostname: string
  href: string
  readonly origin: string
  password: string
  pathname: string
  port: string
  protocol: string
  search: string
  username: string
  toString(): string
}
declare var URL: {
  prototype: URL
  new (url: string, base?: string | URL): URL
  canParse(url: string, base?: string): boolean
}
interface TextDecoder {
  decode(input?: ArrayBufferView | ArrayBuffer, options?: { stream?: boolean }): string
}
declare var TextDecoder: {
  prototype: TextDecoder
  new (label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean }): TextDecoder
}
