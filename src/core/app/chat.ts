import { existsSync } from 'node:fs';
import type { RouteHandlers } from '../../shared/contract.js';
import type { AgentEvent } from '../../shared/events.js';
import { errorMessage } from '../errors.js';
import type { ChatModel } from '../llm/types.js';
import { composeMessage } from './attachments.js';
import type { AppContext } from './context.js';
import { AppError } from './errors.js';
import { TurnStats } from './turn-stats.js';

export type ChatRoutes = 'app.status' | 'chat.start' | 'chat.send' | 'chat.interrupt' | 'chat.steer' | 'approvals.answer' | 'approvals.pending' | 'clarify.answer';

/**
 * Chat over the AgentHost: a turn runs in the background and every AgentEvent goes out as an `agent`
 * UiEvent for its session, so any number of windows see the same conversation. `chat.send` while a turn
 * runs is refused (conflict) rather than turned into steering: the UI has `chat.steer` for that, and a
 * message silently becoming guidance would surprise the user.
 */
export class ChatController {
  private readonly stats = new TurnStats();
  /** Turns started from this surface, until their last event has been forwarded. */
  private readonly forwarding = new Map<string, Promise<void>>();
  private readonly stopBackground: () => void;
  private readonly stopLoadProgress: () => void;
  private readonly stopModelChange: () => void;
  private loadProgress: number | null = null;
  private lastLoadEmit = 0;

  constructor(private readonly ctx: AppContext) {
    this.stopBackground = ctx.engine.sessions.host.onBackgroundEvent((sessionId, event) => this.forward(sessionId, event));
    this.stopLoadProgress = ctx.engine.models.onLoadProgress((progress) => this.modelLoading(progress));
    // Another model was chosen: every UI updates its status bar (and leaves onboarding once a model is set up).
    this.stopModelChange = ctx.engine.models.onChange(() => {
      this.stats.reset();
      ctx.events.emit({ channel: 'status', status: this.status() });
    });
  }

  handlers(): Pick<RouteHandlers, ChatRoutes> {
    const { host } = this.ctx.engine.sessions;
    return {
      'app.status': async () => this.status(),
      'chat.start': async (input) => ({ sessionId: host.startSession({ source: this.ctx.source, ...(input.title === undefined ? {} : { title: input.title }) }) }),
      'chat.send': async (input) => this.send(input.sessionId, input.text, input.attachments),
      'chat.interrupt': async (input) => ({ interrupted: host.interrupt(input.sessionId) }),
      'chat.steer': async (input) => ({ accepted: host.steer(input.sessionId, input.text) }),
      // The engine holds open questions, not the page that showed them: any surface answers, the first answer wins,
      // and a later one (another tab, a reloaded page with a stale dialog) gets accepted: false.
      'approvals.answer': async (input) => ({ accepted: host.answerApproval(input.id, input.choice) }),
      'approvals.pending': async () => host.pendingQuestions(),
      'clarify.answer': async (input) => ({ accepted: host.answerClarify(input.id, input.text) }),
    };
  }

  /** Interrupts the turns this surface started and waits until their events have all gone out. */
  async close(): Promise<void> {
    this.stopBackground();
    this.stopLoadProgress();
    this.stopModelChange();
    for (const sessionId of this.forwarding.keys()) this.ctx.engine.sessions.host.interrupt(sessionId);
    await Promise.all(this.forwarding.values());
  }

  private send(sessionId: string, text: string, attachments: readonly { name: string; content: string }[]): { ok: true } {
    const { host } = this.ctx.engine.sessions;
    if (host.isRunning(sessionId) || this.forwarding.has(sessionId)) {
      throw new AppError('conflict', 'A turn is already running in this session: steer it, interrupt it, or wait for it to end.');
    }
    if (text.trim() === '' && attachments.length === 0) throw new AppError('invalid_input', 'The message is empty.');
    const message = composeMessage(text.trim() === '' ? 'See the attached files.' : text, attachments);
    // Throws before anything starts when the session does not exist; that reaches the caller as not_found.
    const events = host.send(sessionId, message.text);
    this.forwarding.set(sessionId, this.pump(sessionId, events, message.warnings));
    return { ok: true };
  }

  /**
   * Forwards a turn's events as they come. The host lets go of the turn before its `turn_end` goes out, and
   * this surface does too, so a UI that sends the next message the moment it sees `turn_end` is accepted.
   */
  private async pump(sessionId: string, events: AsyncIterable<AgentEvent>, warnings: readonly string[]): Promise<void> {
    let ended = false;
    const end = (event: AgentEvent): void => {
      ended = true;
      this.forwarding.delete(sessionId);
      this.forward(sessionId, event);
    };
    try {
      for await (const event of events) {
        if (event.type === 'turn_end') {
          end(event);
          continue;
        }
        this.forward(sessionId, event);
        // After `session`, which a UI takes as the start of the turn.
        if (event.type === 'session') for (const message of warnings) this.forward(sessionId, { type: 'notice', level: 'warning', message });
      }
    } catch (err) {
      // The host reports turn failures as turn_end; reaching here means the stream itself broke.
      if (!ended) end({ type: 'turn_end', reason: 'error', final: '', error: { code: 'internal', message: errorMessage(err) } });
    }
    // A stream that ended without turn_end still frees the session (after turn_end, the next turn may own the entry).
    if (!ended) this.forwarding.delete(sessionId);
  }

  private forward(sessionId: string, event: AgentEvent): void {
    this.stats.observe(event);
    this.ctx.events.emit({ channel: 'agent', sessionId, event });
    // The status bar follows the last response's speed and context without polling.
    if (event.type === 'usage' || event.type === 'model_fallback' || (event.type === 'turn_end' && event.reason === 'error')) this.ctx.events.emit({ channel: 'status', status: this.status() });
  }

  /** Load progress to every UI, at most ~10 updates a second plus the first and the last. */
  private modelLoading(progress: number): void {
    const now = Date.now();
    const done = progress >= 1;
    this.loadProgress = done ? null : progress;
    if (!done && this.lastLoadEmit !== 0 && now - this.lastLoadEmit < 100) return;
    this.lastLoadEmit = done ? 0 : now;
    this.ctx.events.emit({ channel: 'status', status: this.status() });
  }

  private status() {
    const { chat: model } = this.ctx.engine.models;
    const stats = this.stats.snapshot();
    return {
      model: model.id,
      device: deviceOf(model),
      tokensPerSecond: stats.tokensPerSecond,
      contextUsed: stats.contextUsed,
      contextSize: model.contextLength ?? null,
      needsSetup: needsSetup(model),
      loadProgress: this.loadProgress,
    };
  }
}

/** A local model reports where it runs once loaded; a remote one runs elsewhere (a fallback chain: the link answering now). */
function deviceOf(model: ChatModel): 'gpu' | 'cpu' | 'remote' | 'unknown' {
  const description = model.describe();
  if (description.kind === 'remote') return 'remote';
  return description.device ?? 'unknown';
}

/** Only a local model whose file is missing, with nothing to fall back to: the first-run case. */
function needsSetup(model: ChatModel): boolean {
  const description = model.describe();
  return description.kind === 'local' && description.file !== undefined && (description.fallbacks ?? 0) === 0 && !existsSync(description.file);
}
