import type { AgentEvent } from '../../shared/events.js';

export interface TurnStatsSnapshot {
  tokensPerSecond: number | null;
  contextUsed: number | null;
}

/**
 * What the status bar shows about the last model response: output tokens per second, measured from the
 * request (`status: thinking`) to its usage report, and the context it filled (prompt + output tokens).
 */
export class TurnStats {
  private requestStartedAt: number | null = null;
  private snapshotValue: TurnStatsSnapshot = { tokensPerSecond: null, contextUsed: null };

  constructor(private readonly now: () => number = Date.now) {}

  observe(event: AgentEvent): void {
    if (event.type === 'status' && event.state === 'thinking') this.requestStartedAt = this.now();
    // A failed turn leaves no speed to show: the last one belonged to a response that worked.
    if (event.type === 'turn_end' && event.reason === 'error') {
      this.snapshotValue = { ...this.snapshotValue, tokensPerSecond: null };
      this.requestStartedAt = null;
      return;
    }
    if (event.type !== 'usage') return;
    const seconds = this.requestStartedAt === null ? 0 : (this.now() - this.requestStartedAt) / 1000;
    this.snapshotValue = {
      // Under a millisecond means the provider reported usage without a measurable response; no rate then.
      tokensPerSecond: seconds > 0.001 && event.outputTokens > 0 ? event.outputTokens / seconds : this.snapshotValue.tokensPerSecond,
      contextUsed: event.inputTokens + event.outputTokens,
    };
    this.requestStartedAt = null;
  }

  /** Another model: the old one's speed and context say nothing about it. */
  reset(): void {
    this.snapshotValue = { tokensPerSecond: null, contextUsed: null };
    this.requestStartedAt = null;
  }

  snapshot(): TurnStatsSnapshot {
    return this.snapshotValue;
  }
}
