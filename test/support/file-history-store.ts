import type { HistorySummary } from '../../common/contract/history'
import type { HistoryStore, SessionWrite, StoredSession } from '../../main/history/history-store'

/**
 * A history store "on a file" that keeps what it is given in memory and answers the rest with nothing: the base of the
 * tests' stores that fail, lock or hold a session (they override what they need).
 */
export class FileHistoryStore implements HistoryStore {
  readonly file: string | null = '/home/history.sqlite'
  readonly written: SessionWrite[] = []
  write(writes: SessionWrite[]): void | Promise<void> {
    this.written.push(...writes)
  }
  load(_sessionId: string): StoredSession | undefined {
    return undefined
  }
  has(_sessionId: string): boolean {
    return false
  }
  summary(_sessionId: string): HistorySummary | undefined {
    return undefined
  }
  list = (): HistorySummary[] => []
  rename = () => false
  setArchived = () => false
  delete = () => false
  search = () => []
  checkpoint(): void {}
  dispose(): void {}
}
