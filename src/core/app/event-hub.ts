import type { UiEvent } from '../../shared/contract.js';

export type UiEventListener = (event: UiEvent) => void;

type DeltaEvent = UiEvent & { channel: 'agent'; event: { type: 'text_delta' | 'reasoning_delta'; delta: string } };

function isDelta(event: UiEvent): event is DeltaEvent {
  return event.channel === 'agent' && (event.event.type === 'text_delta' || event.event.type === 'reasoning_delta');
}

/** How long consecutive deltas are joined before they go out: one display frame. */
export const DEFAULT_DELTA_BATCH_MS = 16;

/**
 * Fans UiEvents out to every connected UI. A listener that throws (a socket that broke mid-send) is
 * reported and skipped: one broken window must not cut a turn's events off from the others.
 *
 * Consecutive text/reasoning deltas of one session are joined and sent at most once per `deltaBatchMs`:
 * a local model streams thousands of tokens a second, and one WebSocket frame or IPC message per token
 * cost the page more than drawing them (bench/ui-render.ts: 38 fps unjoined, 56 joined, at 2,000 tokens/s).
 * This is the only place deltas are joined (decision 0024): the renderer batches what arrives per frame but
 * leaves each message as it came. Any other event sends what is waiting first, so the order of events never
 * changes. 0 turns joining off.
 */
export class EventHub {
  private readonly listeners = new Set<UiEventListener>();
  private closed = false;
  private pending: DeltaEvent | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly onListenerError: (err: unknown) => void,
    private readonly deltaBatchMs = DEFAULT_DELTA_BATCH_MS,
  ) {}

  on(listener: UiEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event: UiEvent): void {
    if (this.closed) return;
    if (this.deltaBatchMs > 0 && isDelta(event)) {
      const pending = this.pending;
      if (pending !== null && pending.sessionId === event.sessionId && pending.event.type === event.event.type) {
        this.pending = { ...pending, event: { type: pending.event.type, delta: pending.event.delta + event.event.delta } };
      } else {
        this.flush();
        this.pending = { ...event, event: { ...event.event } };
      }
      this.timer ??= setTimeout(() => this.flush(), this.deltaBatchMs);
      return;
    }
    this.flush();
    this.deliver(event);
  }

  /** Sends the joined deltas now (before another event, on the timer, on close). */
  flush(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    const pending = this.pending;
    this.pending = null;
    if (pending !== null) this.deliver(pending);
  }

  close(): void {
    this.flush();
    this.closed = true;
    this.listeners.clear();
  }

  private deliver(event: UiEvent): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (err) {
        this.onListenerError(err);
      }
    }
  }
}
