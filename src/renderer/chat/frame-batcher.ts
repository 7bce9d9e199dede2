import type { AgentEvent } from '../../shared/events.js';

export interface SessionEvent {
  sessionId: string;
  event: AgentEvent;
}

export interface FrameScheduler {
  /** Calls `flush` once, soon; returns a cancel function. */
  schedule(flush: () => void): () => void;
}

/**
 * Applies agent events to the store at most once per frame, in the order they arrived. It does not join
 * deltas: the engine's event hub already sends consecutive deltas joined per display frame, so one message
 * carries a frame's text (decision 0024). What batching still saves is renders: several messages landing in one
 * frame (a hub flush and a tool card, a burst of tool output) become one store update instead of one each.
 */
export class FrameBatcher {
  private buffer: SessionEvent[] = [];
  private cancel: (() => void) | null = null;

  constructor(
    private readonly apply: (events: SessionEvent[]) => void,
    private readonly scheduler: FrameScheduler,
  ) {}

  push(sessionId: string, event: AgentEvent): void {
    this.buffer.push({ sessionId, event });
    this.cancel ??= this.scheduler.schedule(() => this.flush());
  }

  /** Applies everything buffered now (also used before a local action that must see the latest state). */
  flush(): void {
    this.cancel?.();
    this.cancel = null;
    if (this.buffer.length === 0) return;
    const events = this.buffer;
    this.buffer = [];
    this.apply(events);
  }

  dispose(): void {
    this.cancel?.();
    this.cancel = null;
    this.buffer = [];
  }
}
