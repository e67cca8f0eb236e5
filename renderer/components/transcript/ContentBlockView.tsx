import { memo, useMemo, useState } from 'react'
import { imageFileName, imageSizeOfBase64, inlineImageData, isShowableImageSize, type ImageSize } from '../../../common/image-size'
import { useSeams } from '../common/seams'
import type { ContentBlock } from '../../../common/session/types'
import { Markdown } from '../markdown/Markdown'
import { JsonDisclosure } from '../common/JsonView'

/** An image is shown only from inline data (a data URL we build); remote URIs are shown as text, never fetched. */
export function imageDataUrl(block: { data?: unknown; mimeType?: unknown }): string | null {
  const image = inlineImageData(block.data, block.mimeType)
  return image ? `data:${image.mimeType};base64,${image.base64}` : null
}

/**
 * An image from inline data, once its header says it is small enough to decode: an agent's 20000 × 20000 PNG is a few
 * kilobytes of base64 and 1.6 GB of pixels, decoded on the window's thread. Past the bound, or when its size cannot be
 * read, a placeholder says so instead.
 */
function ImageView({ data, mimeType, uri }: { data: unknown; mimeType: unknown; uri: unknown }) {
  // Built and checked once (the data may be a MiB of base64), and its header read only when it is an image we show.
  const src = useMemo(() => imageDataUrl({ data, mimeType }), [data, mimeType])
  const size = useMemo(() => (src !== null && typeof data === 'string' ? imageSizeOfBase64(data) : null), [src, data])
  if (src === null) return <p className="muted">[image{typeof uri === 'string' ? `: ${uri}` : ''} — not shown]</p>
  if (size && isShowableImageSize(size)) return <img className="content-image" src={src} alt={typeof uri === 'string' ? `Image ${uri}` : 'Image from the agent'} />
  const why = size ? `Image ${size.width} × ${size.height}, too large to show` : 'Image not shown: its size could not be read'
  return <ImagePlaceholder why={why} src={src} size={size} uri={uri} />
}

/**
 * An image Bosun does not draw says why, and offers its data as a file where it can be saved: the browser host
 * downloads it; in Electron main asks where and writes it, and the placeholder's line says where it went or why not.
 */
function ImagePlaceholder({ why, src, size, uri }: { why: string; src: string; size: ImageSize | null; uri: unknown }) {
  const { onSaveImage } = useSeams()
  const [saving, setSaving] = useState<{ busy: boolean; said: string | null }>({ busy: false, said: null })
  const mimeType = src.slice('data:'.length, src.indexOf(';'))
  const fileName = imageFileName(mimeType, size)
  const save = () => {
    const answer = onSaveImage?.({ fileName, mimeType, base64: src.slice(src.indexOf(',') + 1) })
    if (!answer) return
    setSaving({ busy: true, said: null })
    void answer.then(
      (result) => setSaving({ busy: false, said: result.ok ? (result.value.savedTo === null ? null : `Saved to ${result.value.savedTo}`) : `Not saved: ${result.error.message}` }),
      (error: unknown) => setSaving({ busy: false, said: `Not saved: ${error instanceof Error ? error.message : String(error)}` }),
    )
  }
  return (
    <div className="content-image-placeholder muted" title={typeof uri === 'string' ? uri : undefined}>
      <span role="img" aria-label={why}>
        {why}
      </span>
      {onSaveImage ? (
        <button type="button" className="link-button" disabled={saving.busy} onClick={save}>
          Save image
        </button>
      ) : null}
      {saving.said !== null ? (
        <span role="status" className="content-image-saved">
          {saving.said}
        </span>
      ) : null}
    </div>
  )
}

export interface ContentBlockViewProps {
  block: ContentBlock
  /** Agent text is Markdown; the person's own text is shown as typed. */
  markdown: boolean
  /** Markdown text whose every line break is kept: a tool call's output, which is lines, not prose. */
  keepLineBreaks?: boolean
  /** Text shown exactly as sent, in a monospace block: a file's text or a command's output (not Markdown). */
  verbatim?: boolean
  onOpenLink?: ((url: string) => void) | undefined
}

/**
 * Characters of one text block drawn at first, and how many more each "Show more" adds: a message of megabytes (one
 * agent's flood, a log pasted whole) would otherwise be parsed and laid out on every chunk that grows it.
 */
export const TEXT_PAGE_CHARS = 200_000

/** A text block, drawn up to a page at a time (cut at a line end where there is one near). */
function LongText({
  text,
  markdown,
  keepLineBreaks,
  verbatim,
  onOpenLink,
}: {
  text: string
  markdown: boolean
  keepLineBreaks: boolean
  verbatim: boolean
  onOpenLink?: ((url: string) => void) | undefined
}) {
  const [limit, setLimit] = useState(TEXT_PAGE_CHARS)
  let shown = text
  if (text.length > limit) {
    const lineEnd = text.lastIndexOf('\n', limit)
    shown = text.slice(0, lineEnd > limit - 20_000 ? lineEnd : limit)
  }
  const body = verbatim ? (
    <pre className="tool-output" tabIndex={0}>
      {shown}
    </pre>
  ) : markdown ? (
    <Markdown source={shown} onOpenLink={onOpenLink} keepLineBreaks={keepLineBreaks} />
  ) : (
    <p className="plain-text">{shown}</p>
  )
  if (shown.length === text.length) return body
  const left = text.length - shown.length
  return (
    <>
      {body}
      <button type="button" className="link-button" onClick={() => setLimit(shown.length + TEXT_PAGE_CHARS)}>
        Show more ({left.toLocaleString('en')} more characters)
      </button>
    </>
  )
}

export const ContentBlockView = memo(function ContentBlockView({
  block,
  markdown,
  keepLineBreaks = false,
  verbatim = false,
  onOpenLink,
}: ContentBlockViewProps) {
  const b = block as Record<string, unknown>
  switch (block.type) {
    case 'text': {
      const text = typeof b.text === 'string' ? b.text : ''
      return <LongText text={text} markdown={markdown} keepLineBreaks={keepLineBreaks} verbatim={verbatim} onOpenLink={onOpenLink} />
    }
    case 'image':
      return <ImageView data={b.data} mimeType={b.mimeType} uri={b.uri} />
    case 'audio':
      return <p className="muted">[audio {typeof b.mimeType === 'string' ? b.mimeType : ''} — not played]</p>
    case 'resource_link':
      return (
        <p className="resource-link">
          <span className="resource-name">{typeof b.title === 'string' ? b.title : String(b.name ?? 'resource')}</span>{' '}
          <span className="muted resource-uri">{String(b.uri ?? '')}</span>
        </p>
      )
    case 'resource': {
      const res = (b.resource ?? {}) as Record<string, unknown>
      return (
        <div className="embedded-resource">
          <div className="muted resource-uri">{String(res.uri ?? 'embedded resource')}</div>
          {typeof res.text === 'string' ? (
            <pre className="resource-text" tabIndex={0}>
              {res.text}
            </pre>
          ) : (
            <p className="muted">[binary resource]</p>
          )}
        </div>
      )
    }
    default:
      return <JsonDisclosure summary={`Unknown content (${String(block.type)})`} value={block} />
  }
})
