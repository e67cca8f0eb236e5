import type { ConfirmationRequest, ConfirmationService } from '../../main/trust/confirmation'

/** A stand-in for the person answering main's confirmations: records every question, answers `answer`. */
export class RecordingConfirmation implements ConfirmationService {
  readonly asked: ConfirmationRequest[] = []
  constructor(public answer: boolean = true) {}
  async confirm(request: ConfirmationRequest) {
    this.asked.push(request)
    return { confirmed: this.answer, by: 'person' as const }
  }
  /** The questions of one kind. */
  of(kind: ConfirmationRequest['kind']): ConfirmationRequest[] {
    return this.asked.filter((r) => r.kind === kind)
  }
}
