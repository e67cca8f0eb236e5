/**
 * Serving the built renderer safely, shared by the `bosun://` protocol handler and the browser host:
 * only files under the root, no traversal (encoded or not), no symlink escapes, known content types.
 */
import { readFile, realpath, stat } from 'node:fs/promises'
import { extname, resolve, sep } from 'node:path'

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
}

export function contentTypeFor(path: string): string {
  return CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream'
}

/**
 * Maps a URL pathname (still percent-encoded) to a file under `root`, or null when it would leave the root
 * or is malformed. `/` is `index.html`.
 */
export function resolveStaticPath(root: string, pathname: string): string | null {
  let decoded: string
  try {
    decoded = decodeURIComponent(pathname)
  } catch {
    return null
  }
  // Backslashes and NULs have no business in our asset names; refusing them closes Windows-style traversal.
  if (decoded.includes('\0') || decoded.includes('\\')) return null
  if (!decoded.startsWith('/')) decoded = '/' + decoded
  if (decoded.split('/').some((segment) => segment === '..')) return null
  if (decoded.endsWith('/')) decoded += 'index.html'
  const base = resolve(root)
  const full = resolve(base, '.' + decoded)
  if (full !== base && !full.startsWith(base + sep)) return null
  return full
}

export type StaticFile =
  | { ok: true; path: string; body: Buffer; contentType: string }
  | { ok: false; status: 400 | 403 | 404 }

/** Reads the file a pathname names under `root`; refuses traversal (403) and answers 404 for anything else missing. */
export async function readStaticFile(root: string, pathname: string): Promise<StaticFile> {
  const path = resolveStaticPath(root, pathname)
  if (path === null) return { ok: false, status: 403 }
  try {
    // A symlink inside the root must not lead outside it.
    const [realRoot, realFile] = await Promise.all([realpath(resolve(root)), realpath(path)])
    if (realFile !== realRoot && !realFile.startsWith(realRoot + sep)) return { ok: false, status: 403 }
    const info = await stat(realFile)
    if (!info.isFile()) return { ok: false, status: 404 }
    return { ok: true, path: realFile, body: await readFile(realFile), contentType: contentTypeFor(realFile) }
  } catch {
    return { ok: false, status: 404 }
  }
}

/**
 * The Content-Security-Policy for the renderer: only our own scripts (no inline, no eval, no remote origins).
 * `connectSrc` adds the browser host's WebSocket origin. Inline styles stay allowed because React style props
 * and the meta CSP in `renderer/index.html` allow them; scripts never.
 */
export function contentSecurityPolicy(options: { connectSrc?: readonly string[] } = {}): string {
  const connect = ["'self'", ...(options.connectSrc ?? [])].join(' ')
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src ${connect}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-src 'none'",
    "frame-ancestors 'none'",
  ].join('; ')
}
