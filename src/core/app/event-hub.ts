import type { UiEvent } from '../../shared/contract.js';

export type UiEventListener = (event: UiEvent) => void;

/**
 * Fans UiEvents out to every connected UI. A listener that throws (a socket that broke mid-send) is
 * reported and skipped: one broken window must not cut a turn's events off from the others.
 */
export class EventHub {
  private readonly listeners = new Set<UiEventListener>();
  private closed = false;

  constructor(private readonly onListenerError: (err: unknown) => void) {}

  on(listener: UiEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event: UiEvent): void {
    if (this.closed) return;
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (err) {
        this.onListenerError(err);
      }
    }
  }

  close(): void {
    this.closed = true;
    this.listeners.clear();
  }
}
