/**
 * Characters an agent can use to make text read as something else: C1 controls, bidi embeddings/overrides/isolates/
 * marks, zero-width and other invisible format characters; characters that draw nothing (the combining grapheme
 * joiner, Hangul and Khmer fillers, the blank Braille pattern, musical formatting); variation selectors other than the
 * emoji ones (U+FE0E, U+FE0F); and the tag characters, which can spell a whole hidden command. The window shows them
 * as markers (`renderer/components/permissions/reveal-text.ts`); main leaves them out of system notifications.
 *
 * A character class body (no brackets), for a RegExp with the `u` flag; the C0 controls are left to each use, as
 * each keeps its own (a tab, a line feed).
 */
export const HIDDEN_BEYOND_C0_CLASS =
  '\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\u2800\u3164' +
  '\ufe00-\ufe0d\ufeff\uffa0\ufff9-\ufffb\u{1d173}-\u{1d17a}\u{e0000}-\u{e007f}\u{e0100}-\u{e01ef}'
