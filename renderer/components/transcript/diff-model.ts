import { structuredPatch } from 'diff'
import { TRUNCATION_MARKER } from '../../../common/bounded'

/** One displayed line of a unified diff. */
export interface DiffLine {
  kind: 'add' | 'del' | 'context' | 'hunk' | 'meta'
  text: string
  oldNo?: number
  newNo?: number
}

/** A v2 structured change (`DiffChange`), always listed: `changes` is authoritative for paths and operations. */
export interface DiffChangeView {
  operation: string
  path: string
  oldPath?: string
  /** `fileType` when the agent sent one: `text`, `binary`, `directory`, `symlink` or a custom/future type. */
  fileType?: string
}

/** The ACP-defined patch format: git's `--patch` text with absolute paths (`DiffPatchFormat`). */
export const GIT_PATCH_FORMAT = 'git_patch'

/** A v2 diff's `patch`: parsed when it is a git patch, otherwise shown as sent, with its format's name. */
export type DiffPatchView = { kind: 'git'; lines: DiffLine[]; added: number; removed: number } | { kind: 'raw'; format: string; text: string }

export type DiffModel =
  | {
      kind: 'unified'
      path: string
      isNewFile: boolean
      /** The agent says the file was deleted (codex-acp's `_meta.kind: "delete"`; ACP's v1 diff has no word for it). */
      isDeletedFile: boolean
      lines: DiffLine[]
      added: number
      removed: number
      /** `false`: the old text is only the replaced snippet and nothing says where it is, so its lines carry no numbers. */
      numbered: boolean
      /**
       * Bosun kept only the start of the old or new text (a text past its bound ends with its marker): both are compared
       * up to this many whole lines, which the cut side has whole; nothing is known of the file after them.
       */
      cutAfterLines?: number
    }
  | { kind: 'changes'; changes: DiffChangeView[]; patch: DiffPatchView | null }
  | { kind: 'invalid'; raw: unknown }

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined)

/**
 * How far the line diff may search: past this many edits, or this long, two texts are too different for a line-by-line
 * comparison to help, and the search (O(N·D)) would hold the page for seconds (50,000 changed lines: minutes).
 */
export const MAX_DIFF_EDITS = 2_000
export const MAX_DIFF_MS = 150

/**
 * v1 `{path, oldText, newText}` → a real unified diff (3 lines of context); texts too different to compare within
 * {@link MAX_DIFF_EDITS} / {@link MAX_DIFF_MS} are shown whole, the old lines removed and the new ones added.
 */
export function unifiedDiffLines(oldText: string, newText: string, context = 3, firstLine: number | null = 1): { lines: DiffLine[]; added: number; removed: number } {
  const patch = structuredPatch('a', 'b', oldText, newText, undefined, undefined, { context, maxEditLength: MAX_DIFF_EDITS, timeout: MAX_DIFF_MS })
  if (!patch) return renumbered(wholeReplacement(oldText, newText), firstLine)
  return renumbered(hunkLines(patch.hunks, oldText, newText), firstLine)
}

/**
 * The lines of a diff of texts that start at `firstLine` of the file (their own line 1 is the file's `firstLine`), or,
 * with `null`, at a place nothing tells: no numbers, and each hunk's header only a gap between parts.
 */
function renumbered(diff: { lines: DiffLine[]; added: number; removed: number }, firstLine: number | null): { lines: DiffLine[]; added: number; removed: number } {
  if (firstLine === 1) return diff
  const shift = (n: number | undefined) => (n === undefined || firstLine === null ? undefined : n + firstLine - 1)
  const lines = diff.lines.flatMap((line, i): DiffLine[] => {
    if (line.kind === 'hunk') {
      if (firstLine === null) return i === 0 || diff.lines[i - 1]?.kind === 'meta' ? [] : [{ kind: 'hunk', text: '⋯' }]
      const header = /^@@ -(\d+)(,\d+)? \+(\d+)(,\d+)? @@/.exec(line.text)
      return header ? [{ kind: 'hunk', text: `@@ -${shift(Number(header[1]))}${header[2] ?? ''} +${shift(Number(header[3]))}${header[4] ?? ''} @@` }] : [line]
    }
    const { oldNo, newNo, ...rest } = line
    const out: DiffLine = { ...rest }
    if (shift(oldNo) !== undefined) out.oldNo = shift(oldNo)
    if (shift(newNo) !== undefined) out.newNo = shift(newNo)
    return [out]
  })
  return { ...diff, lines }
}

function hunkLines(hunks: ReturnType<typeof structuredPatch>['hunks'], oldText: string, newText: string): { lines: DiffLine[]; added: number; removed: number } {
  // "\ No newline at end of file" says a change when one side ends with a newline and the other does not, or what a
  // new (or emptied) file ends with. Two texts that end alike changed nothing there: claude-agent-acp's edits are the
  // replaced snippet and its replacement, neither ending with a newline, and each side got the note under every edit.
  const noteEnding = oldText === '' || newText === '' || oldText.endsWith('\n') !== newText.endsWith('\n')
  const lines: DiffLine[] = []
  let added = 0
  let removed = 0
  for (const hunk of hunks) {
    // An empty side's range names the line before it, as diff and git write it: a new file is `@@ -0,0 +1,5 @@`.
    const at = (start: number, count: number) => `${count === 0 ? start - 1 : start},${count}`
    lines.push({ kind: 'hunk', text: `@@ -${at(hunk.oldStart, hunk.oldLines)} +${at(hunk.newStart, hunk.newLines)} @@` })
    let oldNo = hunk.oldStart
    let newNo = hunk.newStart
    for (const line of hunk.lines) {
      const mark = line[0]
      const text = line.slice(1)
      if (mark === '+') {
        lines.push({ kind: 'add', text, newNo: newNo++ })
        added++
      } else if (mark === '-') {
        lines.push({ kind: 'del', text, oldNo: oldNo++ })
        removed++
      } else if (mark === '\\') {
        if (noteEnding) lines.push({ kind: 'meta', text: line })
      } else {
        lines.push({ kind: 'context', text, oldNo: oldNo++, newNo: newNo++ })
      }
    }
  }
  return { lines, added, removed }
}

/** Every old line removed, then every new line added: the diff of two texts too different to compare, in linear time. */
function wholeReplacement(oldText: string, newText: string): { lines: DiffLine[]; added: number; removed: number } {
  const split = (text: string) => (text === '' ? [] : text.replace(/\n$/, '').split('\n'))
  const before = split(oldText)
  const after = split(newText)
  const lines: DiffLine[] = [
    { kind: 'meta', text: `Too different to compare line by line: the old text, then the new (${before.length} lines removed, ${after.length} added).` },
    { kind: 'hunk', text: `@@ -1,${before.length} +1,${after.length} @@` },
    ...before.map((text, i): DiffLine => ({ kind: 'del', text, oldNo: i + 1 })),
    ...after.map((text, i): DiffLine => ({ kind: 'add', text, newNo: i + 1 })),
  ]
  return { lines, added: after.length, removed: before.length }
}

/** Git patch text → coloured lines with line numbers taken from the hunk headers. */
export function patchLines(text: string): { lines: DiffLine[]; added: number; removed: number } {
  const lines: DiffLine[] = []
  let added = 0
  let removed = 0
  let oldNo = 0
  let newNo = 0
  let inHunk = false
  for (const raw of text.replace(/\r\n/g, '\n').replace(/\n$/, '').split('\n')) {
    const hunk = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(raw)
    if (hunk) {
      oldNo = Number(hunk[1])
      newNo = Number(hunk[2])
      inHunk = true
      lines.push({ kind: 'hunk', text: raw })
    } else if (/^(diff --git |index |--- |\+\+\+ |new file mode|deleted file mode|old mode|new mode|similarity index|rename from|rename to|copy from|copy to|Binary files)/.test(raw)) {
      inHunk = !raw.startsWith('diff --git ') && inHunk && !raw.startsWith('--- ') && !raw.startsWith('+++ ')
      lines.push({ kind: 'meta', text: raw })
    } else if (inHunk && raw.startsWith('+')) {
      lines.push({ kind: 'add', text: raw.slice(1), newNo: newNo++ })
      added++
    } else if (inHunk && raw.startsWith('-')) {
      lines.push({ kind: 'del', text: raw.slice(1), oldNo: oldNo++ })
      removed++
    } else if (inHunk && raw.startsWith(' ')) {
      lines.push({ kind: 'context', text: raw.slice(1), oldNo: oldNo++, newNo: newNo++ })
    } else {
      lines.push({ kind: 'meta', text: raw })
    }
  }
  return { lines, added, removed }
}

/**
 * Git's header lines naming the file (`diff --git`, `index`, `---`, `+++`) before the first hunk, and a new or deleted
 * regular file's mode (codex-acp's `new file mode 100644`: the change listed above says it was created); other modes
 * (an executable, a link) and rename lines stay.
 */
function withoutFileHeader(lines: DiffLine[]): DiffLine[] {
  const firstHunk = lines.findIndex((l) => l.kind === 'hunk')
  if (firstHunk <= 0) return lines
  const header = lines.slice(0, firstHunk)
  if (!header.every((l) => l.kind === 'meta') || lines.slice(firstHunk).some((l) => l.kind === 'meta' && l.text.startsWith('diff --git '))) return lines
  return [...header.filter((l) => !/^(diff --git |index |--- |\+\+\+ |(new|deleted) file mode 100644$)/.test(l.text)), ...lines.slice(firstHunk)]
}

function changeView(raw: unknown): DiffChangeView {
  const change = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>
  const oldPath = str(change.oldPath)
  const fileType = str(change.fileType)
  return {
    operation: str(change.operation) ?? 'unknown',
    path: str(change.path) ?? '(unknown path)',
    ...(oldPath !== undefined ? { oldPath } : {}),
    ...(fileType !== undefined ? { fileType } : {}),
  }
}

/** A `patch` with text → its view: only `git_patch` is parsed (an unknown format is not git's, whatever it looks like). */
function patchView(raw: unknown): DiffPatchView | null {
  const patch = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>
  const text = str(patch.text)
  if (text === undefined || text.length === 0) return null
  const format = str(patch.format) ?? '(none)'
  return format === GIT_PATCH_FORMAT ? { kind: 'git', ...patchLines(text) } : { kind: 'raw', format, text }
}

/** What the tool call says besides the diff: where in the file it is, and what the tool was asked to replace. */
export interface DiffContext {
  locations?: readonly { path: string; line?: number | null }[]
  rawInput?: unknown
  /**
   * Which of the call's diffs of this path the block is, 0 the first, in the order sent (see {@link diffOrdinals}): the
   * n-th diff of a path is placed by the n-th location of it that gives a line.
   */
  ordinal?: number
}

/**
 * Each block's place among the blocks before it that are diffs of the same path (0 for the first and for what is not
 * a diff). claude-agent-acp sends an edit of several places (`replace_all`) as one diff per hunk, each a snippet, with
 * one location per hunk in the same order: the third hunk sits at the third location, not the first.
 */
export function diffOrdinals(blocks: readonly { type: string }[]): number[] {
  const seen = new Map<unknown, number>()
  return blocks.map((block) => {
    if (block.type !== 'diff') return 0
    const path = (block as Record<string, unknown>).path
    const n = seen.get(path) ?? 0
    seen.set(path, n + 1)
    return n
  })
}

/** Input fields of edit tools that hold the text to replace (claude-agent-acp's Edit sends that, not the file, as `oldText`). */
const REPLACED_TEXT_KEYS = ['old_string', 'oldString', 'old_str']

/**
 * Where a v1 diff's texts start in the file: line 1 of a new file; the line a location gives for the path (the n-th
 * such location for the path's n-th diff, {@link DiffContext.ordinal}) when the old text is a snippet (the tool's input
 * says so, or the diff starts at the top of it: a whole file changed further down has more before the change than
 * context); `null` for a snippet nothing places; else line 1 (ACP's `oldText` is the file's content).
 */
export function firstLineOf(path: string, oldText: string | undefined, context: DiffContext, diffStartsAtTop: () => boolean): number | null {
  if (oldText === undefined || oldText === '') return 1
  const input = context.rawInput
  const snippet = input !== null && typeof input === 'object' && REPLACED_TEXT_KEYS.some((key) => (input as Record<string, unknown>)[key] === oldText)
  const line = context.locations?.filter((l) => l.path === path && typeof l.line === 'number' && Number.isInteger(l.line) && l.line >= 1)[context.ordinal ?? 0]?.line
  if (line != null && (snippet || diffStartsAtTop())) return line
  return snippet ? null : 1
}

/**
 * A v1 diff that is only the replaced text and its replacement, with nothing placing it in its file (shown as an
 * "excerpt", unnumbered): OpenCode's completed edit, after a request that showed the file's whole diff.
 */
export function isUnplacedExcerpt(block: Record<string, unknown>, context: DiffContext): boolean {
  const path = str(block.path)
  return path !== undefined && str(block.newText) !== undefined && firstLineOf(path, str(block.oldText), context, () => false) === null
}

/** Any diff content block (v1 or v2 shape) → what the diff view shows. Never throws. */
export function diffModelOf(block: Record<string, unknown>, context: DiffContext = {}): DiffModel {
  if (Array.isArray(block.changes)) {
    const patch = patchView(block.patch)
    // One file: the change above the patch already names it, so git's header lines for it would say it again.
    if (patch?.kind === 'git' && block.changes.length === 1) patch.lines = withoutFileHeader(patch.lines)
    return { kind: 'changes', changes: block.changes.map(changeView), patch }
  }
  const path = str(block.path)
  const newText = str(block.newText)
  if (path !== undefined && newText !== undefined) {
    const oldText = str(block.oldText)
    const compared = comparable(oldText ?? '', newText)
    const diff = unifiedDiffLines(compared.oldText, compared.newText)
    const startsAtTop = () => /^@@ -1[, ]/.test(diff.lines.find((l) => l.kind === 'hunk')?.text ?? '')
    const firstLine = firstLineOf(path, oldText, context, startsAtTop)
    const meta = block._meta
    const deleted = newText === '' && typeof meta === 'object' && meta !== null && (meta as Record<string, unknown>).kind === 'delete'
    return {
      kind: 'unified',
      path,
      isNewFile: oldText === undefined,
      isDeletedFile: deleted,
      ...renumbered(diff, firstLine),
      numbered: firstLine !== null,
      ...(compared.cutAfterLines !== undefined ? { cutAfterLines: compared.cutAfterLines } : {}),
    }
  }
  return { kind: 'invalid', raw: block }
}

/** How a string Bosun cut ends: its marker, then how much more there was (`common/bounded.ts`). */
const CUT_TAIL = /^ \(\d+ more characters\)$/

/** The whole lines of `text` before Bosun's cut (the line the cut splits is left out), or null when it was not cut. */
function wholeLinesBeforeCut(text: string): string | null {
  const at = text.lastIndexOf(TRUNCATION_MARKER)
  if (at < 0 || !CUT_TAIL.test(text.slice(at + TRUNCATION_MARKER.length))) return null
  return text.slice(0, text.lastIndexOf('\n', at - 1) + 1)
}

/** `text`'s first `count` lines (each with its line break), or all of it when it has no more. */
function firstLines(text: string, count: number): string {
  let end = 0
  for (let i = 0; i < count; i++) {
    const next = text.indexOf('\n', end)
    if (next < 0) return text
    end = next + 1
  }
  return text.slice(0, end)
}

const lineCount = (text: string): number => {
  let count = 0
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) count++
  return count
}

/**
 * The two texts as they can be compared. A side Bosun cut (an agent's 30 MB file) ends inside a line, at a different
 * place than the other side: compared as they are, the cut line and everything the other side has past it read as
 * changes the agent never made, and the change it made further down is not there. Both are compared up to the whole
 * lines the cut side kept (the shorter, when both were cut).
 */
function comparable(oldText: string, newText: string): { oldText: string; newText: string; cutAfterLines?: number } {
  const oldKept = wholeLinesBeforeCut(oldText)
  const newKept = wholeLinesBeforeCut(newText)
  if (oldKept === null && newKept === null) return { oldText, newText }
  const lines = Math.min(oldKept === null ? Infinity : lineCount(oldKept), newKept === null ? Infinity : lineCount(newKept))
  return { oldText: firstLines(oldKept ?? oldText, lines), newText: firstLines(newKept ?? newText, lines), cutAfterLines: lines }
}

/** One change in words: what happened (`deleted`), to which path (`/o → /n` for a move or copy), and a note. */
export interface ChangeDescription {
  verb: string
  paths: string
  /** The file type when it is not text (`binary`), an unknown operation, or a modification with no patch text. */
  note: string | null
}

const VERBS: Record<string, string> = { add: 'added', delete: 'deleted', modify: 'modified', move: 'moved', copy: 'copied' }

/** Describes a v2 change; `hasPatch`: the diff carries patch text (so a modification is not "without text"). */
export function describeChange(change: DiffChangeView, hasPatch = false): ChangeDescription {
  const known = Object.hasOwn(VERBS, change.operation)
  const paired = change.operation === 'move' || change.operation === 'copy' || (!known && change.oldPath !== undefined)
  const paths = paired ? `${change.oldPath ?? '?'} → ${change.path}` : change.path
  const fileType = change.fileType !== undefined && change.fileType !== 'text' ? change.fileType : null
  const note = !known
    ? ['unknown operation', fileType].filter(Boolean).join(', ')
    : (fileType ?? (change.operation === 'modify' && !hasPatch ? 'no patch text' : null))
  return { verb: known ? VERBS[change.operation]! : change.operation, paths, note }
}

/** A change as one line of text: `deleted /gone`, `moved /o → /n`, `modified /logo.png (binary)`. */
export function changeText(change: DiffChangeView, hasPatch = false): string {
  const { verb, paths, note } = describeChange(change, hasPatch)
  return note ? `${verb} ${paths} (${note})` : `${verb} ${paths}`
}
