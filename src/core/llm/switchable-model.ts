import type { ChatModel, ChatRequest, ModelDescription, ModelEvent } from './types.js';

/**
 * The engine's model, replaceable while Hearth runs: the user picks another model, downloads one, or saves an
 * API key in the app, and the next request goes to the new chain without a restart. Everything that holds the
 * engine's model (the agent host, reviews, compression) holds this object, so nothing keeps the old one.
 *
 * A response already streaming finishes on the model it started with; the old model is disposed (its host
 * process ended) once its last stream is done.
 */
export class SwitchableModel implements ChatModel {
  private current: ChatModel;
  private readonly streaming = new Map<ChatModel, number>();
  private readonly retired = new Set<ChatModel>();

  constructor(initial: ChatModel) {
    this.current = initial;
  }

  get id(): string {
    return this.current.id;
  }

  get contextLength(): number | undefined {
    return this.current.contextLength;
  }

  describe(): ModelDescription {
    return this.current.describe();
  }

  async *stream(request: ChatRequest, signal: AbortSignal): AsyncIterable<ModelEvent> {
    const model = this.current;
    this.streaming.set(model, (this.streaming.get(model) ?? 0) + 1);
    try {
      yield* model.stream(request, signal);
    } finally {
      const left = (this.streaming.get(model) ?? 1) - 1;
      if (left > 0) this.streaming.set(model, left);
      else {
        this.streaming.delete(model);
        if (this.retired.delete(model)) await model.dispose?.();
      }
    }
  }

  /** The session may have run on a model since retired (still streaming) as well as on the current one. */
  releaseSession(sessionKey: string): void {
    for (const model of new Set([this.current, ...this.retired])) model.releaseSession?.(sessionKey);
  }

  /** Makes `next` the model for every request from now on; the old one is disposed when no stream uses it. */
  async swap(next: ChatModel): Promise<void> {
    const previous = this.current;
    if (previous === next) return;
    this.current = next;
    if (this.streaming.has(previous)) this.retired.add(previous);
    else await previous.dispose?.();
  }

  async dispose(): Promise<void> {
    const all = [this.current, ...this.retired];
    this.retired.clear();
    await Promise.all(all.map((model) => model.dispose?.()));
  }
}
