import { HearthError, abortError, errorMessage, isHearthError } from '../errors.js';
import type { ChatModel, ChatRequest, ModelDescription, ModelEvent } from './types.js';

/**
 * A ChatModel that tries its models in order (e.g. local → cloud). It moves on only when a model
 * failed before producing any output — a half answer from one model is never continued by another —
 * and only for failures another model can fix: unreachable, bad credentials, rate limited, server
 * errors (after that model's own retries), a model that will not load or whose host crashed, or a
 * timeout. Bad requests (4xx) and aborts are not reasons to switch.
 */

export interface FallbackChainOptions {
  /** Shown as the model id; defaults to `fallback(<ids>)`. */
  id?: string;
}

export interface FailedAttempt {
  model: string;
  code: string;
  message: string;
}

const OUTPUT_EVENTS: ReadonlySet<ModelEvent['type']> = new Set(['text', 'reasoning', 'tool_call']);

export function isFallbackReason(err: unknown): boolean {
  if (!isHearthError(err)) return false;
  switch (err.code) {
    case 'model_connection':
    case 'model_auth':
    case 'model_rate_limited':
    case 'model_load_failed':
    case 'model_host_crashed':
    case 'model_timeout':
      return true;
    case 'model_http': {
      const status = err.details?.status;
      return typeof status === 'number' && status >= 500;
    }
    default:
      return false;
  }
}

export class FallbackChain implements ChatModel {
  readonly id: string;
  readonly contextLength: number | undefined;
  private active: ChatModel;

  constructor(
    private readonly models: ChatModel[],
    options: FallbackChainOptions = {},
  ) {
    const first = models[0];
    if (first === undefined) throw new HearthError('model_not_configured', 'A fallback chain needs at least one model.');
    this.active = first;
    this.id = options.id ?? `fallback(${models.map((m) => m.id).join(', ')})`;
    // Any model in the chain may end up answering, so budget prompts for the smallest known window.
    const known = models.map((m) => m.contextLength).filter((n): n is number => typeof n === 'number');
    this.contextLength = known.length > 0 ? Math.min(...known) : undefined;
  }

  /** The link answering now: the one that served (or is serving) the latest request; the first before any. */
  describe(): ModelDescription {
    return { ...this.active.describe(), fallbacks: this.models.length - 1 };
  }

  async *stream(request: ChatRequest, signal: AbortSignal): AsyncGenerator<ModelEvent, void, undefined> {
    const failures: FailedAttempt[] = [];
    for (const [index, model] of this.models.entries()) {
      let producedOutput = false;
      this.active = model;
      try {
        for await (const event of model.stream(request, signal)) {
          if (OUTPUT_EVENTS.has(event.type)) producedOutput = true;
          yield event;
        }
        return;
      } catch (err) {
        if (signal.aborted || isHearthError(err, 'aborted')) throw isHearthError(err, 'aborted') ? err : abortError(signal);
        if (producedOutput || !isFallbackReason(err)) throw err;
        failures.push({ model: model.id, code: isHearthError(err) ? err.code : 'unknown', message: errorMessage(err) });
        const next = this.models[index + 1];
        if (next) yield { type: 'fallback', from: model.id, to: next.id, reason: errorMessage(err) };
      }
    }
    const list = failures.map((f) => `- ${f.model}: ${f.message}`).join('\n');
    throw new HearthError('all_models_failed', `Every configured model failed:\n${list}`, { details: { failures } });
  }

  /** Any link may have served the session (a fallback mid-conversation): each forgets it. */
  releaseSession(sessionKey: string): void {
    for (const model of this.models) model.releaseSession?.(sessionKey);
  }

  async dispose(): Promise<void> {
    const results = await Promise.allSettled(this.models.map((m) => m.dispose?.()));
    const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed.length > 0) throw new AggregateError(failed.map((r) => r.reason as unknown), 'Some models failed to dispose.');
  }
}
