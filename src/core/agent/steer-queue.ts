/**
 * Text the user sends while a turn runs. It is not a new user turn (roles must keep alternating and
 * the model is mid-task); the loop folds it into the next tool result the model will read.
 */
export class SteerQueue {
  private readonly pending: string[] = [];

  push(text: string): void {
    const trimmed = text.trim();
    if (trimmed.length > 0) this.pending.push(trimmed);
  }

  get size(): number {
    return this.pending.length;
  }

  /** Everything queued so far, in order, or null when nothing is. Empties the queue. */
  take(): string | null {
    if (this.pending.length === 0) return null;
    return this.pending.splice(0).join('\n');
  }
}

export function steerNote(text: string): string {
  return `\n\n[User steer: ${text}]`;
}
