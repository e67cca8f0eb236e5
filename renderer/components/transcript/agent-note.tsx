import { VisibleText } from '../permissions/VisibleText'

/**
 * What an agent told its model of a call the person stopped (`stopNoteOf`), folded: the card says what happened
 * in its own words ("Cancelled", "stopped by you"), and the agent's instruction to its model is there to read.
 */
export function AgentNote({ note }: { note: string }) {
  return (
    <details className="disclosure tool-agent-note">
      <summary>What the agent told its model</summary>
      <p className="tool-agent-note-text">
        <VisibleText text={note} keepNewlines />
      </p>
    </details>
  )
}
