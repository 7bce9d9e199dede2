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
 * The next animation frame, with a timer as a floor: a hidden window gets no animation frames, and an
 * approval request must still reach the state (and the native prompt) while it is hidden.
 */
export const animationFrameScheduler: FrameScheduler = {
  schedule(flush) {
    let done = false;
    const run = () => {
      if (done) return;
      done = true;
      cancelAnimationFrame(frame);
      clearTimeout(timer);
      flush();
    };
    const frame = requestAnimationFrame(run);
    const timer = setTimeout(run, 100);
    return () => {
      done = true;
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  },
};

/**
 * Batches agent events so the store changes at most once per frame: at 2,000 tokens/s a re-render per delta
 * would be 30+ renders a frame. Consecutive deltas of one kind and session are joined; everything else keeps
 * its place in the order, so a tool card never appears before the text that preceded it.
 */
export class EventCoalescer {
  private buffer: SessionEvent[] = [];
  private cancel: (() => void) | null = null;

  constructor(
    private readonly apply: (events: SessionEvent[]) => void,
    private readonly scheduler: FrameScheduler = animationFrameScheduler,
  ) {}

  push(sessionId: string, event: AgentEvent): void {
    const last = this.buffer[this.buffer.length - 1];
    if (last && last.sessionId === sessionId && isDelta(event) && last.event.type === event.type && isDelta(last.event)) {
      last.event = { type: event.type, delta: last.event.delta + event.delta };
    } else {
      // Copy deltas: the joined text is written into the buffered object, never into the caller's event.
      this.buffer.push({ sessionId, event: isDelta(event) ? { ...event } : event });
    }
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

function isDelta(event: AgentEvent): event is Extract<AgentEvent, { type: 'text_delta' | 'reasoning_delta' }> {
  return event.type === 'text_delta' || event.type === 'reasoning_delta';
}
