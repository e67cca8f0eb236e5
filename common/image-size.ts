/**
 * An image's pixel size read from its header, from the base64 an agent sent, without decoding the image: a
 * 20000 × 20000 PNG is a few kilobytes of base64 and gigabytes once decoded, so the renderer asks first.
 * PNG, JPEG, GIF, WebP (VP8, VP8L, VP8X), BMP and AVIF (its `ispe` box). Environment-free and pure.
 */

export type ImageFormat = 'png' | 'jpeg' | 'gif' | 'webp' | 'bmp' | 'avif'

export interface ImageSize {
  format: ImageFormat
  width: number
  height: number
}

/**
 * How much of the base64 is decoded at most: a JPEG's size comes after its metadata segments (EXIF, ICC, XMP), which
 * are usually well inside this; one whose size is further in is reported as unknown.
 */
export const MAX_HEADER_BASE64_CHARS = 256 * 1024

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
const VALUE = new Int16Array(128).fill(-1)
for (let i = 0; i < ALPHABET.length; i++) VALUE[ALPHABET.charCodeAt(i)] = i
// The URL-safe alphabet's two letters, as some encoders write them.
VALUE['-'.charCodeAt(0)] = 62
VALUE['_'.charCodeAt(0)] = 63

/** The bytes of the first `maxChars` characters of `base64` (whitespace skipped; stops at `=` or anything else). */
export function decodeBase64Prefix(base64: string, maxChars = MAX_HEADER_BASE64_CHARS): Uint8Array {
  const end = Math.min(base64.length, maxChars)
  const out = new Uint8Array(Math.ceil((end * 3) / 4))
  let length = 0
  let bits = 0
  let count = 0
  for (let i = 0; i < end; i++) {
    const code = base64.charCodeAt(i)
    if (code === 32 || code === 9 || code === 10 || code === 13) continue
    const value = code < 128 ? VALUE[code]! : -1
    if (value < 0) break
    bits = (bits << 6) | value
    count += 6
    if (count >= 8) {
      count -= 8
      out[length++] = (bits >> count) & 0xff
      bits &= (1 << count) - 1
    }
  }
  return out.subarray(0, length)
}

const be16 = (b: Uint8Array, i: number) => (b[i]! << 8) | b[i + 1]!
const le16 = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8)
const be32 = (b: Uint8Array, i: number) => ((b[i]! << 24) | (b[i + 1]! << 16) | (b[i + 2]! << 8) | b[i + 3]!) >>> 0
const le24 = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16)
const le32 = (b: Uint8Array, i: number) => (b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24)) >>> 0
const ascii = (b: Uint8Array, i: number, text: string) => {
  if (i + text.length > b.length) return false
  for (let k = 0; k < text.length; k++) if (b[i + k] !== text.charCodeAt(k)) return false
  return true
}

/** The SOF markers, whose segment holds the frame's size (not DHT C4, JPG C8, DAC CC). */
const isStartOfFrame = (marker: number) => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc

function jpegSize(b: Uint8Array): ImageSize | null {
  let i = 2
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return null
    const marker = b[i + 1]!
    // Fill bytes before a marker.
    if (marker === 0xff) {
      i++
      continue
    }
    // Markers without a length.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      i += 2
      continue
    }
    if (isStartOfFrame(marker)) return { format: 'jpeg', height: be16(b, i + 5), width: be16(b, i + 7) }
    // The image data starts (or ends) before any frame header: not a JPEG we can size.
    if (marker === 0xda || marker === 0xd9) return null
    i += 2 + be16(b, i + 2)
  }
  return null
}

function webpSize(b: Uint8Array): ImageSize | null {
  if (ascii(b, 12, 'VP8 ') && b.length >= 30) return { format: 'webp', width: le16(b, 26) & 0x3fff, height: le16(b, 28) & 0x3fff }
  if (ascii(b, 12, 'VP8L') && b.length >= 25) {
    const bits = le32(b, 21)
    return { format: 'webp', width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 }
  }
  if (ascii(b, 12, 'VP8X') && b.length >= 30) return { format: 'webp', width: le24(b, 24) + 1, height: le24(b, 27) + 1 }
  return null
}

/** AVIF (ISO BMFF): the first `ispe` property (the primary image's size) within the decoded prefix. */
function avifSize(b: Uint8Array): ImageSize | null {
  for (let i = 0; i + 16 <= b.length; i++) {
    if (b[i] === 0x69 && ascii(b, i, 'ispe')) return { format: 'avif', width: be32(b, i + 8), height: be32(b, i + 12) }
  }
  return null
}

/** The size from an image's bytes (or the first of them), or null when they are no image this reads. */
export function imageSizeOfBytes(b: Uint8Array): ImageSize | null {
  if (b.length >= 24 && be32(b, 0) === 0x89504e47 && be32(b, 4) === 0x0d0a1a0a && ascii(b, 12, 'IHDR')) {
    return { format: 'png', width: be32(b, 16), height: be32(b, 20) }
  }
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return jpegSize(b)
  if (b.length >= 10 && (ascii(b, 0, 'GIF87a') || ascii(b, 0, 'GIF89a'))) return { format: 'gif', width: le16(b, 6), height: le16(b, 8) }
  if (b.length >= 16 && ascii(b, 0, 'RIFF') && ascii(b, 8, 'WEBP')) return webpSize(b)
  if (b.length >= 26 && ascii(b, 0, 'BM')) {
    // A negative height is a top-down bitmap.
    const height = le32(b, 22) | 0
    return { format: 'bmp', width: le32(b, 18) | 0, height: Math.abs(height) }
  }
  if (b.length >= 12 && ascii(b, 4, 'ftyp') && (ascii(b, 8, 'avif') || ascii(b, 8, 'avis'))) return avifSize(b)
  return null
}

/** The size of the image `base64` encodes, read from its header; null when it cannot be read. */
export function imageSizeOfBase64(base64: string): ImageSize | null {
  // Most headers are in the first bytes: decode a little first, more only for a JPEG (its metadata comes first).
  const head = decodeBase64Prefix(base64, 64)
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8) return imageSizeOfBytes(decodeBase64Prefix(base64))
  if (head.length >= 12 && ascii(head, 4, 'ftyp')) return imageSizeOfBytes(decodeBase64Prefix(base64, 16 * 1024))
  return imageSizeOfBytes(head)
}

/** Pixels above which an image is not decoded in the window: 25 million (5000 × 5000; 100 MB once decoded). */
export const MAX_SHOWN_IMAGE_PIXELS = 25_000_000

/** Whether an image of this size may be shown (decoded) in the window. */
export const isShowableImageSize = (size: ImageSize): boolean =>
  size.width > 0 && size.height > 0 && size.width * size.height <= MAX_SHOWN_IMAGE_PIXELS

const BASE64 = /^[A-Za-z0-9+/=\s]*$/
const IMAGE_MIME = /^image\/(png|jpeg|gif|webp|bmp|avif)$/i

/**
 * Inline image data of a type Bosun draws (PNG, JPEG, GIF, WebP, BMP, AVIF), as base64 without whitespace; null for
 * anything else (another type, SVG included, no data, not base64). What the window shows, and what main saves.
 */
export function inlineImageData(data: unknown, mimeType: unknown): { mimeType: string; base64: string } | null {
  if (typeof data !== 'string' || typeof mimeType !== 'string') return null
  if (!IMAGE_MIME.test(mimeType) || data.trim() === '' || !BASE64.test(data)) return null
  return { mimeType, base64: data.replace(/\s/g, '') }
}

/** The file name an image is saved under: `image-<width>x<height>.<ext>`, or `image.<ext>` when its size is unknown. */
export const imageFileName = (mimeType: string, size: ImageSize | null): string =>
  `image${size ? `-${size.width}x${size.height}` : ''}.${mimeType.slice('image/'.length).toLowerCase().replace('jpeg', 'jpg')}`
