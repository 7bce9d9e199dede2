/**
 * A push-to-pull bridge: the running turn pushes events, a surface consumes them with `for await`.
 * Events are buffered (a slow renderer never loses one), and when the consumer stops early
 * (`break`), `onAbandon` runs so the producer can stop too.
 */
export class EventChannel<T> implements AsyncIterable<T> {
  private readonly buffer: T[] = [];
  private waiting: ((result: IteratorResult<T>) => void) | null = null;
  private ended = false;
  private iterated = false;

  constructor(private readonly onAbandon: () => void = () => undefined) {}

  push(value: T): void {
    if (this.ended) return;
    if (this.waiting !== null) {
      const deliver = this.waiting;
      this.waiting = null;
      deliver({ value, done: false });
    } else this.buffer.push(value);
  }

  end(): void {
    this.ended = true;
    if (this.waiting !== null && this.buffer.length === 0) {
      const deliver = this.waiting;
      this.waiting = null;
      deliver({ value: undefined, done: true });
    }
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    // One consumer only: two would each see half the events.
    if (this.iterated) throw new Error('this event stream is already being consumed');
    this.iterated = true;
    return {
      next: () => {
        if (this.buffer.length > 0) return Promise.resolve({ value: this.buffer.shift() as T, done: false });
        if (this.ended) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => (this.waiting = resolve));
      },
      return: () => {
        if (!this.ended) {
          this.ended = true;
          this.buffer.length = 0;
          this.onAbandon();
        }
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}
