import { describe, expect, it } from 'vitest'
import { checkUrl, isLoopback, punycodeDecode } from '../../../common/url-safety'
import { urlCorpus as corpus } from './url-corpus'

describe('checkUrl corpus', () => {
  it('has at least 50 strings', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(50)
  })

  it.each(corpus.map((c) => [JSON.stringify(c.url), c] as const))('%s', (_name, c) => {
    const result = checkUrl(c.url)
    expect(result.ok, result.refusal).toBe(c.ok)
    if (!c.ok) {
      expect(result.refusal).toBeTruthy()
      return
    }
    expect(result.refusal).toBeUndefined()
    if (c.host !== undefined) expect(result.host).toBe(c.host)
    if (c.hostUnicode !== undefined) expect(result.hostUnicode).toBe(c.hostUnicode)
    if (c.href !== undefined) expect(result.href).toBe(c.href)
    if (c.warn) for (const w of c.warn) expect(result.warnings).toContain(w)
    if (!c.warn && !c.noWarn) expect(result.warnings).toEqual([])
    for (const w of c.noWarn ?? []) expect(result.warnings).not.toContain(w)
    // The highlight always reassembles the href, with the host in the middle.
    expect(result.highlight.before + result.highlight.host + result.highlight.after).toBe(result.href)
    expect(result.highlight.host).toBe(result.host)
  })

  it('shows the parsed URL for refused schemes too', () => {
    const r = checkUrl('JavaScript:alert(1)')
    expect(r.scheme).toBe('javascript')
    expect(r.href).toBe('javascript:alert(1)')
    expect(r.refusal).toMatch(/https/)
  })

  it('refuses absurdly long input', () => {
    expect(checkUrl('https://example.com/' + 'a'.repeat(9000)).ok).toBe(false)
  })
})

describe('helpers', () => {
  it('decodes Punycode (RFC 3492 samples)', () => {
    expect(punycodeDecode('mnchen-3ya')).toBe('münchen')
    expect(punycodeDecode('pple-43d')).toBe('аpple')
    expect(punycodeDecode('r8jz45g')).toBe('例え')
    expect(punycodeDecode('!!!')).toBeNull()
  })
  it('knows loopback hosts', () => {
    expect(isLoopback('localhost')).toBe(true)
    expect(isLoopback('127.0.0.1')).toBe(true)
    expect(isLoopback('[::1]')).toBe(true)
    expect(isLoopback('[::ffff:7f00:1]')).toBe(true)
    expect(isLoopback('example.com')).toBe(false)
    expect(isLoopback('[::ffff:a00:1]')).toBe(false)
  })
})

describe('registrable domain (issue 13)', () => {
  it('names the site that owns the host, from the public-suffix list', () => {
    expect(checkUrl('https://google.com.attacker.example/login')).toMatchObject({ ok: true, site: 'attacker.example', warnings: ['lookalike-subdomain'] })
    expect(checkUrl('https://accounts.google.com/o/oauth2')).toMatchObject({ site: 'google.com', warnings: [] })
    expect(checkUrl('https://www.example.co.uk/')).toMatchObject({ site: 'example.co.uk', warnings: [] })
    expect(checkUrl('https://paypal.com.evil.co.uk/')).toMatchObject({ site: 'evil.co.uk', warnings: ['lookalike-subdomain'] })
    expect(checkUrl('https://someone.github.io/x')).toMatchObject({ site: 'someone.github.io' })
    expect(checkUrl('http://localhost:3000/cb')).toMatchObject({ site: 'localhost' })
  })
})

describe('a host the public-suffix list would not validate (hostile12)', () => {
  // tldts refuses such a host name outright, and the whole host was shown as the site, without the lookalike warning.
  it.each([
    ['a label over 63 characters', `https://${'a'.repeat(200)}.google.com.evil.com/`],
    ['a label starting with a hyphen', 'https://-x.google.com.evil.com/'],
    ['an empty label', 'https://google.com..evil.com/'],
    ['a star', 'https://*.google.com.evil.com/'],
    ['a host over 253 characters', `https://${'a.'.repeat(130)}google.com.evil.com/`],
  ])('still names the site that owns it, and warns of the lookalike: %s', (_, url) => {
    const check = checkUrl(url)
    expect(check).toMatchObject({ ok: true, site: 'evil.com' })
    expect(check.warnings).toContain('lookalike-subdomain')
  })
})

describe('a file path where an address goes (agents12: links real agents write in their answers)', () => {
  // Claude and OpenCode link the files they talk about; clicking one said "This is not a valid web address." only.
  it.each([
    ['an absolute path', '/tmp/project/notes.txt'],
    ['an absolute path and a line', '/tmp/project/big.ts:1010'],
    ['a path from here', './src/app.ts'],
    ['a path from the parent', '../README.md'],
    ['a path from home', '~/notes.md'],
    ['a drive path', 'C:\\Users\\me\\app.ts'],
    ['a drive path with slashes', 'C:/Users/me/app.ts'],
    ['a file: URL', 'file:///tmp/project/notes.txt'],
  ])('refuses it as a file, not a web address: %s', (_, url) => {
    expect(checkUrl(url)).toMatchObject({ ok: false, refusal: 'This is a file on this computer, not a web address: Bosun does not open files from links. Copy its path to open it yourself.' })
  })

  it.each([['notes.txt'], ['src/app.ts#L42'], ['example.com']])('says a web address starts with https:// when there is no scheme: %s', (url) => {
    expect(checkUrl(url)).toMatchObject({ ok: false, refusal: 'This is not a web address: one starts with https://. If it names a file, Bosun does not open files from links.' })
  })

  it('leaves what only looks like a path to the parser: a host-relative address, a broken one', () => {
    expect(checkUrl('//example.com/path').refusal).toBe('This is not a valid web address.')
    expect(checkUrl('https://exa mple.com').refusal).toBe('This is not a valid web address.')
  })
})
