import { describe, expect, it } from 'vitest'
import { decodeBase64Prefix, imageSizeOfBase64, isShowableImageSize, MAX_SHOWN_IMAGE_PIXELS } from '../../../common/image-size'

const b64 = (bytes: number[] | Uint8Array) => Buffer.from(Uint8Array.from(bytes)).toString('base64')
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0))
const be32 = (n: number) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]
const be16 = (n: number) => [(n >>> 8) & 255, n & 255]
const le16 = (n: number) => [n & 255, (n >>> 8) & 255]
const le24 = (n: number) => [n & 255, (n >>> 8) & 255, (n >>> 16) & 255]
const le32 = (n: number) => [n & 255, (n >>> 8) & 255, (n >>> 16) & 255, (n >>> 24) & 255]

const png = (w: number, h: number) => [0x89, ...ascii('PNG\r\n\x1a\n'), ...be32(13), ...ascii('IHDR'), ...be32(w), ...be32(h), 8, 6, 0, 0, 0, 0, 0, 0, 0]
const segment = (marker: number, body: number[]) => [0xff, marker, ...be16(body.length + 2), ...body]
const jpeg = (w: number, h: number, exifBytes = 0, sof = 0xc0) => [
  0xff, 0xd8,
  ...segment(0xe0, [...ascii('JFIF\0'), 1, 1, 0, 0, 1, 0, 1, 0, 0]),
  // Metadata in segments of at most 60,000 bytes (a segment's length is 16 bits).
  ...Array.from({ length: Math.ceil(exifBytes / 60_000) }, (_, k) => segment(0xe1, [...ascii('Exif\0\0'), ...new Array<number>(Math.min(60_000, exifBytes - k * 60_000)).fill(0)])).flat(),
  ...segment(0xdb, new Array<number>(65).fill(1)),
  ...segment(sof, [8, ...be16(h), ...be16(w), 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]),
  0xff, 0xda, 0, 12,
]

describe('imageSizeOfBase64', () => {
  it('reads a PNG’s size from its IHDR', () => {
    expect(imageSizeOfBase64(b64(png(20000, 20000)))).toEqual({ format: 'png', width: 20000, height: 20000 })
    expect(imageSizeOfBase64(b64(png(1, 2)))).toEqual({ format: 'png', width: 1, height: 2 })
  })

  it('reads a JPEG’s size from its frame header, past metadata segments, baseline or progressive', () => {
    expect(imageSizeOfBase64(b64(jpeg(640, 480)))).toEqual({ format: 'jpeg', width: 640, height: 480 })
    expect(imageSizeOfBase64(b64(jpeg(30000, 20000, 60_000, 0xc2)))).toEqual({ format: 'jpeg', width: 30000, height: 20000 })
  })

  it('a JPEG whose frame header is past what is read, or that has none, is unknown', () => {
    expect(imageSizeOfBase64(b64(jpeg(640, 480, 250_000)))).toBeNull()
    expect(imageSizeOfBase64(b64([0xff, 0xd8, 0xff, 0xda, 0, 4, 0, 0, 0, 0, 0, 0]))).toBeNull()
  })

  it('reads GIF, BMP (top-down too) and the three WebP kinds', () => {
    expect(imageSizeOfBase64(b64([...ascii('GIF89a'), ...le16(300), ...le16(200), 0, 0, 0]))).toEqual({ format: 'gif', width: 300, height: 200 })
    const bmp = (h: number) => [...ascii('BM'), ...new Array<number>(16).fill(0), ...le32(800), ...le32(h >>> 0), 1, 0]
    expect(imageSizeOfBase64(b64(bmp(600)))).toEqual({ format: 'bmp', width: 800, height: 600 })
    expect(imageSizeOfBase64(b64(bmp(-600)))).toEqual({ format: 'bmp', width: 800, height: 600 })
    const riff = (chunk: string, body: number[]) => [...ascii('RIFF'), ...le32(100), ...ascii('WEBP'), ...ascii(chunk), ...le32(body.length), ...body]
    expect(imageSizeOfBase64(b64(riff('VP8 ', [0, 0, 0, 0x9d, 0x01, 0x2a, ...le16(1024), ...le16(768), 0, 0])))).toEqual({ format: 'webp', width: 1024, height: 768 })
    // VP8L: 14 bits of width - 1, then 14 bits of height - 1, after the 0x2f signature.
    const bits = (16383 - 1) | ((9000 - 1) << 14)
    expect(imageSizeOfBase64(b64(riff('VP8L', [0x2f, ...le32(bits), 0])))).toEqual({ format: 'webp', width: 16383, height: 9000 })
    expect(imageSizeOfBase64(b64(riff('VP8X', [0, 0, 0, 0, ...le24(20000 - 1), ...le24(20000 - 1)])))).toEqual({ format: 'webp', width: 20000, height: 20000 })
  })

  it('reads an AVIF’s size from its ispe box', () => {
    const avif = [...be32(24), ...ascii('ftypavif'), 0, 0, 0, 0, ...ascii('mif1avif'), ...be32(20), ...ascii('ispe'), 0, 0, 0, 0, ...be32(4000), ...be32(3000)]
    expect(imageSizeOfBase64(b64(avif))).toEqual({ format: 'avif', width: 4000, height: 3000 })
  })

  it('is null for what is no image it knows, cut headers and bad base64', () => {
    expect(imageSizeOfBase64('')).toBeNull()
    expect(imageSizeOfBase64(b64(ascii('hello, this is text and not an image at all')))).toBeNull()
    expect(imageSizeOfBase64(b64(png(10, 10).slice(0, 20)))).toBeNull()
    expect(imageSizeOfBase64('!!!!' + b64(png(10, 10)))).toBeNull()
  })

  it('reads base64 with line breaks and the URL-safe letters', () => {
    const text = b64(png(4096, 2160)).replace(/(.{8})/g, '$1\n')
    expect(imageSizeOfBase64(text)).toEqual({ format: 'png', width: 4096, height: 2160 })
    expect(decodeBase64Prefix('-_-_')).toEqual(Uint8Array.from(Buffer.from('+/+/', 'base64')))
  })
})

describe('isShowableImageSize', () => {
  it('is false past the pixel bound and for an empty size', () => {
    expect(isShowableImageSize({ format: 'png', width: 5000, height: 5000 })).toBe(true)
    expect(MAX_SHOWN_IMAGE_PIXELS).toBe(25_000_000)
    expect(isShowableImageSize({ format: 'png', width: 5001, height: 5000 })).toBe(false)
    expect(isShowableImageSize({ format: 'png', width: 20000, height: 20000 })).toBe(false)
    expect(isShowableImageSize({ format: 'gif', width: 0, height: 10 })).toBe(false)
  })
})
