/** Shared test data: the URL strings the consent dialog and the chokepoint are checked against. */
import type { UrlWarning } from '../../../common/url-safety'

/** One string of the corpus and what `checkUrl` must say about it. */
export interface UrlCase {
  url: string
  ok: boolean
  host?: string
  hostUnicode?: string
  href?: string
  /** Warnings that must be present. */
  warn?: UrlWarning[]
  /** Warnings that must be absent (default for an ok case without `warn`: none at all). */
  noWarn?: UrlWarning[]
}

/**
 * The URL checker's corpus (schemes, IDN, mixed script, userinfo tricks, zero-width characters, encoded
 * slashes, loopback http): `url-safety.test.ts` checks every verdict, `open-external.test.ts` runs every
 * refused string through the chokepoint.
 */
export const urlCorpus: readonly UrlCase[] = [
  // Plain https.
  { url: 'https://example.com', ok: true, host: 'example.com', href: 'https://example.com/' },
  { url: 'https://example.com/connect?state=abc#frag', ok: true, host: 'example.com' },
  { url: 'https://sub.domain.example.co.uk/a/b', ok: true, host: 'sub.domain.example.co.uk' },
  { url: 'https://example.com/cb?redirect_uri=https%3A%2F%2Fother.example%2Fx', ok: true, host: 'example.com' },
  // Uppercase schemes and hosts are normalised.
  { url: 'HTTPS://EXAMPLE.COM/Path', ok: true, host: 'example.com', href: 'https://example.com/Path' },
  { url: 'HtTpS://Example.Com', ok: true, host: 'example.com' },
  { url: 'HTTP://LOCALHOST:3000/', ok: true, host: 'localhost', warn: ['http-loopback', 'port'] },
  // Refused schemes.
  { url: 'javascript:alert(1)', ok: false },
  { url: 'JAVASCRIPT:alert(1)', ok: false },
  { url: ' javascript:alert(1)', ok: false },
  { url: 'java\tscript:alert(1)', ok: false },
  { url: 'file:///etc/passwd', ok: false },
  { url: 'file://host/share', ok: false },
  { url: 'data:text/html,<script>alert(1)</script>', ok: false },
  { url: 'vbscript:msgbox(1)', ok: false },
  { url: 'blob:https://example.com/uuid', ok: false },
  { url: 'ftp://example.com/file', ok: false },
  { url: 'ssh://git@example.com', ok: false },
  { url: 'vscode://extension/x', ok: false },
  { url: 'myapp://callback', ok: false },
  { url: 'mailto:a@example.com', ok: false },
  { url: 'about:blank', ok: false },
  { url: 'chrome://settings', ok: false },
  { url: 'ws://localhost:1234', ok: false },
  // Not URLs.
  { url: '', ok: false },
  { url: 'example.com', ok: false },
  { url: '//example.com/path', ok: false },
  { url: 'https://', ok: false },
  { url: 'https://exa mple.com', ok: false },
  { url: 'https://[::1', ok: false },
  // http: only loopback.
  { url: 'http://example.com', ok: false },
  { url: 'http://10.0.0.1/', ok: false },
  { url: 'http://localhost/cb', ok: true, warn: ['http-loopback'] },
  { url: 'http://127.0.0.1:8080/cb', ok: true, warn: ['http-loopback', 'port'], noWarn: ['ip-address'] },
  { url: 'http://127.1/', ok: true, host: '127.0.0.1', warn: ['http-loopback'] },
  { url: 'http://0x7f.0.0.1/', ok: true, host: '127.0.0.1', warn: ['http-loopback'] },
  { url: 'http://127.255.255.254/', ok: true, warn: ['http-loopback'] },
  { url: 'http://[::1]:9000/', ok: true, host: '[::1]', warn: ['http-loopback'] },
  { url: 'http://app.localhost/', ok: true, warn: ['http-loopback'] },
  { url: 'http://localhost.example.com/', ok: false },
  { url: 'http://128.0.0.1/', ok: false },
  { url: 'http://[::2]/', ok: false },
  // IP hosts.
  { url: 'https://93.184.216.34/', ok: true, warn: ['ip-address'] },
  { url: 'https://[2001:db8::1]/x', ok: true, host: '[2001:db8::1]', warn: ['ip-address'] },
  { url: 'https://3232235777/', ok: true, host: '192.168.1.1', warn: ['ip-address'] },
  // IDN / Punycode / mixed script.
  { url: 'https://xn--pple-43d.com/login', ok: true, hostUnicode: 'аpple.com', warn: ['punycode', 'mixed-script'] },
  { url: 'https://аpple.com/', ok: true, host: 'xn--pple-43d.com', warn: ['punycode', 'mixed-script'] },
  { url: 'https://xn--mnchen-3ya.de/', ok: true, hostUnicode: 'münchen.de', warn: ['punycode'], noWarn: ['mixed-script'] },
  { url: 'https://münchen.de/', ok: true, host: 'xn--mnchen-3ya.de', warn: ['punycode'] },
  { url: 'https://例え.jp/', ok: true, hostUnicode: '例え.jp', warn: ['punycode'], noWarn: ['mixed-script'] },
  { url: 'https://gооgle.com/', ok: true, warn: ['punycode', 'mixed-script'] },
  { url: 'https://раураӏ.com/', ok: true, warn: ['punycode'], noWarn: ['mixed-script'] },
  { url: 'https://παypal.com/', ok: true, warn: ['punycode', 'mixed-script'] },
  { url: 'https://EXAMPLE.XN--P1AI/', ok: true, host: 'example.xn--p1ai', hostUnicode: 'example.рф', warn: ['punycode'], noWarn: ['mixed-script'] },
  // Userinfo tricks.
  { url: 'https://a.com%2f@b.com', ok: true, host: 'b.com', warn: ['userinfo', 'encoded-slash'] },
  { url: 'https://google.com@evil.example/', ok: true, host: 'evil.example', warn: ['userinfo'] },
  { url: 'https://user:pass@example.com/', ok: true, host: 'example.com', warn: ['userinfo'] },
  { url: 'https://good.com%40evil.com/', ok: false },
  { url: 'https://good.com%5c@evil.com/', ok: true, host: 'evil.com', warn: ['userinfo', 'encoded-slash'] },
  // Backslashes (read as "/").
  { url: 'https://evil.com\\@good.com/', ok: true, host: 'evil.com', warn: ['backslash'] },
  { url: 'https:\\\\example.com\\path', ok: true, host: 'example.com', warn: ['backslash'] },
  // Invisible and control characters.
  { url: 'https://exam\u200Bple.com/', ok: true, host: 'example.com', warn: ['zero-width'] },
  { url: 'https://example.com/\u202Etxt.exe', ok: true, warn: ['zero-width'] },
  { url: 'https://example.com/\u2066x\u2069', ok: true, warn: ['zero-width'] },
  { url: 'https://ex\u00ADample.com/', ok: true, host: 'example.com', warn: ['zero-width'] },
  // Characters the host's mapping drops without a trace (a combining grapheme joiner, a variation selector, a tag).
  { url: 'https://pay\u034Fpal.com/', ok: true, host: 'paypal.com', warn: ['zero-width'] },
  { url: 'https://example.com\uFE00/', ok: true, host: 'example.com', warn: ['zero-width'] },
  { url: 'https://example.com/\u{E0041}\u{E0042}', ok: true, warn: ['zero-width'] },
  { url: '\uFEFFhttps://example.com/', ok: false },
  { url: '  https://example.com/  ', ok: true, host: 'example.com', warn: ['control-characters'] },
  { url: 'https://exa\nmple.com/', ok: true, host: 'example.com', warn: ['control-characters'] },
  // Trailing dots and ports.
  { url: 'https://example.com./', ok: true, host: 'example.com.', warn: ['trailing-dot'] },
  { url: 'https://example.com:443/', ok: true, href: 'https://example.com/' },
  { url: 'https://example.com:8443/', ok: true, warn: ['port'] },
]
