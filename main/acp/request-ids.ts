/**
 * The JSON-RPC ids on an agent's connection: Bosun's requests waiting for an answer, and the agent's requests
 * Bosun is still answering (mapped to ids of Bosun's own, so an id reused or spelled oddly never answers the wrong one).
 */
import { Emitter } from '../base/event'
import type { JsonRpcId } from './types'
import { scanLineHead } from './line-head'

/** Ids of our requests still waiting for a response, with their methods; the reader drops responses to anything else (B15). */
export class PendingIds {
  private readonly ids = new Map<JsonRpcId, string>()
  /** Requests Bosun withdrew, whose answer is still to come: it is taken (and frees vscode-jsonrpc's place) without a word. */
  private readonly withdrawn = new Set<JsonRpcId>()
  private readonly settledEmitter = new Emitter<JsonRpcId>()
  /** Each of Bosun's requests once answered, failed in the agent's place or withdrawn: what was scoped to it is over (G12). */
  readonly onDidSettle = this.settledEmitter.event
  add(id: JsonRpcId, method = ''): void {
    this.ids.set(id, method)
  }
  /** True when the id was pending (and is now answered), or withdrawn and now answered. */
  settle(id: JsonRpcId): boolean {
    if (!this.ids.delete(id)) return this.withdrawn.delete(id)
    this.settledEmitter.fire(id)
    return true
  }
  /** Bosun withdrew its request `id` (`$/cancel_request`): it is no longer pending, though its answer may still come. */
  withdraw(id: JsonRpcId): void {
    if (!this.ids.delete(id)) return
    this.withdrawn.add(id)
    this.settledEmitter.fire(id)
  }
  /** Whether Bosun's request `id` still waits for the agent's answer (`7` and `"7"` differ). */
  has(id: JsonRpcId): boolean {
    return this.ids.has(id)
  }
  dispose(): void {
    this.settledEmitter.dispose()
  }
  /** The method of a pending request. */
  method(id: JsonRpcId): string | undefined {
    return this.ids.get(id)
  }
  /** The pending requests, oldest first. */
  entries(): IterableIterator<[JsonRpcId, string]> {
    return this.ids.entries()
  }
  get size(): number {
    return this.ids.size
  }
}

/**
 * Agent requests in flight, each under an id of Bosun's own while vscode-jsonrpc holds it. vscode-jsonrpc keys its
 * queue and its cancellation tokens by `String(id)`, so the agent's `7` and `"7"` (two ids, B3) would share one place
 * and one of them would never be answered. The reader hands each request on under a fresh number; the writer puts
 * the agent's id back on the answer, which frees it.
 */
export class IncomingRequestIds {
  private nextId = 0
  /** Bosun's id → the agent's. */
  private readonly originals = new Map<number, JsonRpcId>()
  /** The agent's ids in flight (a Set keeps `7` and `"7"` apart). */
  private readonly inFlight = new Set<JsonRpcId>()
  /** Bosun's id → the agent's id as it wrote it, for a number JSON.parse does not keep exactly ({@link rawNumberId}). */
  private readonly rawTexts = new Map<number, string>()
  /** Those ids in flight, as written (`9007199254740993` and `9007199254740992` read as one number but are two ids). */
  private readonly rawInFlight = new Set<string>()

  /**
   * Bosun's id for the agent's request `id`, or undefined while an earlier request of that id waits for its answer.
   * `raw`: the id's text on the wire when the number read is not exactly it; the answer carries that text.
   */
  admit(id: JsonRpcId, raw?: string): number | undefined {
    if (raw === undefined ? this.inFlight.has(id) : this.rawInFlight.has(raw)) return undefined
    const internal = this.nextId++
    if (raw === undefined) this.inFlight.add(id)
    else {
      this.rawInFlight.add(raw)
      this.rawTexts.set(internal, raw)
    }
    this.originals.set(internal, id)
    return internal
  }

  /** The id text the answer to `internal` must carry, when the agent's id is a number JSON cannot write back as it came. */
  rawText(internal: JsonRpcId): string | undefined {
    return typeof internal === 'number' ? this.rawTexts.get(internal) : undefined
  }

  /** The agent's id of a request handed on as `internal`. */
  original(internal: JsonRpcId): JsonRpcId | undefined {
    return typeof internal === 'number' ? this.originals.get(internal) : undefined
  }

  /** The answer to `internal` is being written: the agent's id, free again from now on. */
  settle(internal: JsonRpcId): JsonRpcId | undefined {
    const original = this.original(internal)
    if (original === undefined) return undefined
    this.originals.delete(internal as number)
    const raw = this.rawTexts.get(internal as number)
    if (raw === undefined) this.inFlight.delete(original)
    else {
      this.rawTexts.delete(internal as number)
      this.rawInFlight.delete(raw)
    }
    return original
  }

  get size(): number {
    return this.originals.size
  }
}

/**
 * The text of a request's numeric `id` as the agent wrote it, when the number JSON.parse made of it is not exactly it:
 * an integer past 2^53 (`9007199254740993` reads as …992) or a fraction that rounds. Undefined for the ids agents use
 * (strings, safe integers), which JSON writes back as they came. Scans the line only for those rare ids.
 */
export function rawNumberId(id: JsonRpcId, line: string): string | undefined {
  if (typeof id !== 'number' || Number.isSafeInteger(id)) return undefined
  const raw = scanLineHead(line, true).idText
  if (raw === undefined || raw === JSON.stringify(id)) return undefined
  // Only a JSON number, as scanned: nothing else may go into the answer unquoted.
  return /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/.test(raw) ? raw : undefined
}
