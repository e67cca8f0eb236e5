/**
 * What Bosun thinks of a URL an agent wants the person to open (URL-mode elicitation, checklist G19/J1).
 * Parsed with the WHATWG URL parser (the one browsers use), so what we show is what would be opened.
 *
 * Pure (no Node or DOM APIs beyond `URL`): the consent dialog and main's chokepoint call the same
 * function, so the chokepoint refuses exactly what the dialog refuses.
 */
import { getDomain, parse } from 'tldts'
import { HIDDEN_BEYOND_C0_CLASS } from './hidden-characters'

export type UrlWarning =
  /** The host has `xn--` labels (IDN): it may imitate another name. */
  | 'punycode'
  /** A host label mixes scripts (e.g. Latin and Cyrillic). */
  | 'mixed-script'
  /** `user:pass@` before the host: the text before `@` is not where the link goes. */
  | 'userinfo'
  /** Plain http, allowed only to this machine. */
  | 'http-loopback'
  /** The host is a bare IP address. */
  | 'ip-address'
  /** Invisible or direction-changing characters in the text. */
  | 'zero-width'
  /** `%2F`, `%5C` or `%40` in the part before the path: an encoded slash or `@` hiding the real host. */
  | 'encoded-slash'
  /** A backslash, which browsers read as `/`. */
  | 'backslash'
  /** Control characters or surrounding whitespace that the parser silently dropped. */
  | 'control-characters'
  /** `example.com.`: a trailing dot. */
  | 'trailing-dot'
  /** A port other than the scheme's default. */
  | 'port'
  /** The part before the site looks like another site (`google.com.attacker.example`). */
  | 'lookalike-subdomain'

export interface UrlCheck {
  ok: boolean
  /** The parsed, normalised URL: the text to show and the only text ever opened. `''` if it did not parse. */
  href: string
  scheme: string
  /** The host as parsed (ASCII, Punycode for IDN; IPv6 in brackets). */
  host: string
  /** The host with Punycode labels decoded, for display next to `host`. */
  hostUnicode: string
  /** `href` split around the host, so the dialog can emphasise it. */
  highlight: { before: string; host: string; after: string }
  /**
   * The registrable domain (public suffix + one label, from the public-suffix list via tldts): who owns
   * the host. The whole host when there is none (an IP address, `localhost`). `''` if it did not parse.
   */
  site: string
  warnings: UrlWarning[]
  /** Why it is refused, in a sentence for the person. */
  refusal?: string
}

/** Person-facing explanations of each warning. */
export const urlWarningText: Record<UrlWarning, string> = {
  punycode: 'The address uses international characters (Punycode). It may imitate a different, familiar name.',
  'mixed-script': 'The host name mixes alphabets (for example Latin and Cyrillic letters), a common way to imitate other sites.',
  userinfo: 'The address contains text before an "@". That text is not the site you will visit; the highlighted host is.',
  'http-loopback': 'The address uses unencrypted http. Bosun allows this only for addresses on this computer.',
  'ip-address': 'The host is a bare IP address rather than a name.',
  'zero-width': 'The address contains invisible or text-direction characters.',
  'encoded-slash': 'The address hides a "/", "\\" or "@" as an encoded character before the path.',
  backslash: 'The address contains a backslash, which browsers treat as "/".',
  'control-characters': 'The address contained spaces or control characters that were removed.',
  'trailing-dot': 'The host name ends with a dot.',
  port: 'The address uses an unusual port.',
  'lookalike-subdomain': 'The address starts with what looks like another site’s name; the site you will visit is the one in bold.',
}

export const maxUrlLength = 8192

/** A path on this computer: absolute (`/x`, not `//host`), relative to here or home (`./x`, `../x`, `~/x`), or a drive's (`C:\\x`, `C:/x`). */
const filePathRe = /^(\/(?!\/)|\.{1,2}[/\\]|~[/\\]|[A-Za-z]:[/\\])/
const FILE_PATH_REFUSAL = 'This is a file on this computer, not a web address: Bosun does not open files from links. Copy its path to open it yourself.'

// What the window marks as hidden elsewhere (zero-width, bidi, fillers, variation selectors, tags…): the host's mapping
// drops some of them without a trace (`pay\u034Fpal.com` is paypal.com), and the agent that put them there is named.
const invisibleRe = new RegExp(`[${HIDDEN_BEYOND_C0_CLASS}]`, 'u')
// eslint-disable-next-line no-control-regex
const controlRe = /[\u0000-\u001F\u007F]/
const emptyHighlight = { before: '', host: '', after: '' }

export function checkUrl(raw: string): UrlCheck {
  const warnings = new Set<UrlWarning>()
  const refused = (refusal: string, partial?: Partial<UrlCheck>): UrlCheck => ({
    ok: false,
    href: '',
    scheme: '',
    host: '',
    hostUnicode: '',
    highlight: emptyHighlight,
    site: '',
    ...partial,
    warnings: [...warnings],
    refusal,
  })

  if (typeof raw !== 'string' || raw.length === 0) return refused('The agent did not give an address.')
  if (raw.length > maxUrlLength) return refused('The address is too long to check.')
  if (invisibleRe.test(raw)) warnings.add('zero-width')
  if (controlRe.test(raw) || raw.trim() !== raw) warnings.add('control-characters')
  if (raw.includes('\\')) warnings.add('backslash')
  const authority = /^[^:/?#]*:\/*([^/?#]*)/.exec(raw.replace(/\\/g, '/'))?.[1] ?? ''
  if (/%(2f|5c|40)/i.test(authority)) warnings.add('encoded-slash')

  // A file's path (agents link the files they talk about: `[app.ts](src/app.ts#L42)`, `/home/me/x.ts`): the parser
  // fails on most, or reads `C:/x` as a scheme; said as what it is.
  if (filePathRe.test(raw)) return refused(FILE_PATH_REFUSAL)
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    // `notes.txt`, `src/app.ts#L42`, `example.com`: no scheme at all.
    if (/^[^:/?#]+(\/|$)/.test(raw)) return refused('This is not a web address: one starts with https://. If it names a file, Bosun does not open files from links.')
    return refused('This is not a valid web address.')
  }
  const scheme = url.protocol.replace(/:$/, '')
  const href = url.href
  const host = url.hostname
  const hostUnicode = host.split('.').map(decodeLabel).join('.')
  const before = `${url.protocol}//${url.username ? url.username + (url.password ? ':' + url.password : '') + '@' : ''}`
  const highlight =
    host && href.startsWith(before + host)
      ? { before, host, after: href.slice(before.length + host.length) }
      : { before: href, host: '', after: '' }
  const site = registrableDomain(host)
  const parsed = { href, scheme, host, hostUnicode, highlight, site }

  if (scheme === 'file') return refused(FILE_PATH_REFUSAL, parsed)
  if (scheme !== 'https' && scheme !== 'http') {
    return refused(`Bosun only opens https addresses; this one uses "${scheme}:".`, parsed)
  }
  const loopback = isLoopback(host)
  if (scheme === 'http') {
    if (!loopback) return refused('Bosun opens unencrypted http addresses only on this computer (localhost); use https.', parsed)
    warnings.add('http-loopback')
  }
  if (url.username || url.password) warnings.add('userinfo')
  if (!loopback && isIpAddress(host)) warnings.add('ip-address')
  if (host.split('.').some((label) => label.startsWith('xn--'))) warnings.add('punycode')
  if (hostUnicode.split('.').some(isMixedScript)) warnings.add('mixed-script')
  if (host.endsWith('.')) warnings.add('trailing-dot')
  if (url.port !== '') warnings.add('port')
  if (looksLikeAnotherSite(host, site)) warnings.add('lookalike-subdomain')
  return { ok: true, ...parsed, warnings: [...warnings] }
}

/**
 * How tldts reads a host: the public-suffix list's, whether or not the name is one DNS could hold. Its own check
 * refused a label over 63 characters, one starting with a hyphen, an empty label or a `*`, and the whole host was
 * then the site (`-x.google.com.evil.com`, with no lookalike warning); the URL parser accepts them, and the
 * browser would go to evil.com's servers.
 */
const suffixOptions = { allowPrivateDomains: true, validateHostname: false } as const

/** The registrable domain of `host` (ICANN and private suffixes), or the host itself when it has none. */
export function registrableDomain(host: string): string {
  if (!host) return ''
  const domain = getDomain(host.replace(/\.$/, ''), suffixOptions)
  return domain ?? host
}

/** `google.com.attacker.example`: the labels before the site form a registrable name of their own. */
function looksLikeAnotherSite(host: string, site: string): boolean {
  if (!site || host === site || !host.endsWith(`.${site}`)) return false
  const subdomain = host.slice(0, -(site.length + 1))
  // Only a suffix the list really has counts (`sub.domain` is not a site; `google.com` is).
  const parsed = parse(subdomain, suffixOptions)
  return parsed.domain !== null && parsed.domain !== parsed.publicSuffix && (parsed.isIcann === true || parsed.isPrivate === true)
}

function isIpAddress(host: string): boolean {
  return host.startsWith('[') || /^\d{1,3}(\.\d{1,3}){3}$/.test(host)
}

/** 127.0.0.0/8, [::1] (and its IPv4-mapped form) and `localhost` (RFC 6761: also `*.localhost`). */
export function isLoopback(host: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '')
  if (h === 'localhost' || h.endsWith('.localhost')) return true
  if (h === '[::1]') return true
  const mapped = /^\[::ffff:(7f[0-9a-f]{2}):[0-9a-f]{1,4}\]$/.exec(h)
  if (mapped) return true
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h)
}

// Scripts that may share a label with Latin (UTS #39 "highly restrictive" CJK combinations).
const scriptTests: [string, RegExp][] = [
  ['Latin', /\p{Script=Latin}/u],
  ['Cyrillic', /\p{Script=Cyrillic}/u],
  ['Greek', /\p{Script=Greek}/u],
  ['Armenian', /\p{Script=Armenian}/u],
  ['Georgian', /\p{Script=Georgian}/u],
  ['Cherokee', /\p{Script=Cherokee}/u],
  ['Hebrew', /\p{Script=Hebrew}/u],
  ['Arabic', /\p{Script=Arabic}/u],
  ['Devanagari', /\p{Script=Devanagari}/u],
  ['Thai', /\p{Script=Thai}/u],
  ['Han', /\p{Script=Han}/u],
  ['Hiragana', /\p{Script=Hiragana}/u],
  ['Katakana', /\p{Script=Katakana}/u],
  ['Hangul', /\p{Script=Hangul}/u],
  ['Bopomofo', /\p{Script=Bopomofo}/u],
]
const cjk = new Set(['Han', 'Hiragana', 'Katakana', 'Hangul', 'Bopomofo'])

function isMixedScript(label: string): boolean {
  const scripts = new Set<string>()
  for (const ch of label) {
    if (!/\p{L}/u.test(ch)) continue
    const found = scriptTests.find(([, re]) => re.test(ch))
    scripts.add(found ? found[0] : 'Other')
  }
  const nonCjk = [...scripts].filter((s) => !cjk.has(s))
  return nonCjk.length > 1
}

function decodeLabel(label: string): string {
  if (!label.toLowerCase().startsWith('xn--')) return label
  return punycodeDecode(label.slice(4)) ?? label
}

/** RFC 3492 Punycode decoding; `null` if malformed. */
export function punycodeDecode(input: string): string | null {
  const base = 36
  const tMin = 1
  const tMax = 26
  const skew = 38
  const damp = 700
  const adapt = (delta: number, numPoints: number, first: boolean) => {
    let d = first ? Math.floor(delta / damp) : delta >> 1
    d += Math.floor(d / numPoints)
    let k = 0
    while (d > ((base - tMin) * tMax) >> 1) {
      d = Math.floor(d / (base - tMin))
      k += base
    }
    return k + Math.floor(((base - tMin + 1) * d) / (d + skew))
  }
  const digit = (c: number) => (c >= 48 && c <= 57 ? c - 22 : c >= 65 && c <= 90 ? c - 65 : c >= 97 && c <= 122 ? c - 97 : base)

  const output: number[] = []
  const lastDelim = input.lastIndexOf('-')
  for (let j = 0; j < Math.max(lastDelim, 0); j++) {
    const c = input.charCodeAt(j)
    if (c >= 0x80) return null
    output.push(c)
  }
  let n = 128
  let bias = 72
  let i = 0
  for (let index = lastDelim > 0 ? lastDelim + 1 : 0; index < input.length; ) {
    const oldi = i
    for (let w = 1, k = base; ; k += base) {
      if (index >= input.length) return null
      const d = digit(input.charCodeAt(index++))
      if (d >= base) return null
      i += d * w
      if (i > 0x7fffffff) return null
      const t = k <= bias ? tMin : k >= bias + tMax ? tMax : k - bias
      if (d < t) break
      w *= base - t
    }
    const len = output.length + 1
    bias = adapt(i - oldi, len, oldi === 0)
    n += Math.floor(i / len)
    if (n > 0x10ffff) return null
    i %= len
    output.splice(i++, 0, n)
  }
  try {
    return String.fromCodePoint(...output)
  } catch {
    return null
  }
}
