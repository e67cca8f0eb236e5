/**
 * The renderer page's meta CSP: `frame-ancestors` is ignored in a `<meta>` (browsers say so in the console),
 * so it lives only in the HTTP header both hosts send (main/web/server.ts, main/shell/protocol.ts).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { contentSecurityPolicy } from '../../../main/web/static-files'

const html = readFileSync(join(__dirname, '..', '..', '..', 'renderer', 'index.html'), 'utf8')
const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html)?.[1]

describe('renderer/index.html CSP', () => {
  it('has a meta CSP without frame-ancestors; the header policy keeps it', () => {
    expect(meta).toBeDefined()
    expect(meta).toContain("script-src 'self'")
    expect(meta).not.toContain('frame-ancestors')
    expect(contentSecurityPolicy()).toContain("frame-ancestors 'none'")
  })
})
