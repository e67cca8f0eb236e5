import type { SessionAction, SessionState } from '../../common/session/types'
import { applyBatches } from '../../common/session/reducer'

/**
 * Below this many entries a batch is applied as soon as it is sent: copying the entries array costs less than
 * keeping the batch.
 */
export const APPLIED_AT_ONCE_BELOW = 4096

/**
 * Batches wait until they carry at least one update or action per this many entries of the session: each
 * application copies the entries array once (the reducer is pure), so the copying stays a few pointers per update
 * however long the session grows, and a flood's cost stays linear in its size.
 */
export const ENTRIES_PER_PENDING_ACTION = 8

/**
 * Main's copy of one session's state: the batches already sent to the windows, in order, and applied to it when
 * the state is read (or when they are enough, see {@link ENTRIES_PER_PENDING_ACTION}). Every reader of
 * {@link state} gets the state with every batch applied, the same state `applyActions` applied batch by batch gives.
 */
export class LazyState {
  private applied: SessionState
  private pending: SessionAction[][] = []
  private weight = 0

  constructor(state: SessionState) {
    this.applied = state
  }

  /** The state with every batch added so far applied. */
  get state(): SessionState {
    if (this.pending.length > 0) {
      this.applied = applyBatches(this.applied, this.pending)
      this.pending = []
      this.weight = 0
    }
    return this.applied
  }

  /** Replaces the state (read first when it is derived from it: batches not applied yet are dropped). */
  set state(state: SessionState) {
    this.applied = state
    this.pending = []
    this.weight = 0
  }

  /** Adds a batch (after the ones added before it); its `seq`, the one the state has once it is applied. */
  add(actions: SessionAction[]): number {
    this.pending.push(actions)
    for (const action of actions) this.weight += action.type === 'updates' && Array.isArray(action.updates) ? action.updates.length : 1
    const entries = this.applied.entries.length
    if (entries < APPLIED_AT_ONCE_BELOW || this.weight * ENTRIES_PER_PENDING_ACTION >= entries) return this.state.seq
    return this.applied.seq + this.pending.length
  }

  /** The state as last applied, without the batches that wait (reading it applies nothing). */
  get last(): SessionState {
    return this.applied
  }

  /** Batches added and not applied yet. */
  get waiting(): number {
    return this.pending.length
  }
}
