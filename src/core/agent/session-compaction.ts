import type { AgentEvent } from '../../shared/events.js';
import { isHearthError } from '../errors.js';
import type { LearningLoop, SessionView } from '../learning/learning-loop.js';
import type { ChatMessage, ChatModel } from '../llm/types.js';
import type { SessionRecord, SessionStore } from '../store/types.js';
import type { ToolRegistry } from '../tools/registry.js';
import { compressContext, conversationThreshold, estimateTokens, needsCompression, type CompressionConfig } from './compression/index.js';

export interface CompactableSession {
  record: SessionRecord;
  systemPrompt: string;
}

export interface CompactionOutcome {
  history: ChatMessage[];
  /** The child session the conversation continues in; null when the turns were kept in place. */
  child: SessionRecord | null;
}

/** After a failed or unhelpful compression, wait for this many new messages before trying again. */
const RETRY_AFTER_MESSAGES = 4;

/**
 * Decides when a live session's context is compressed and carries it out (issue 3, PARITY §6): a
 * memory flush review first, then `compressContext`, then a child session linked to its parent that
 * holds the new context, so a resume continues from it. When summarising fails, every turn is kept,
 * the user gets a warning, and nothing is retried until the conversation has grown.
 */
export class SessionCompactor {
  private readonly failedAt = new Map<string, number>();

  constructor(
    private readonly deps: {
      store: SessionStore;
      model: ChatModel;
      tools: ToolRegistry;
      config: CompressionConfig;
      learning?: LearningLoop;
      workspace: string;
      approvals: SessionView['approvals'];
    },
  ) {}

  /** Compress when the next prompt would pass the threshold; `force` (/compress) skips that check. */
  async maybeCompact(
    session: CompactableSession,
    conversation: readonly ChatMessage[],
    signal: AbortSignal,
    emit: (event: AgentEvent) => void,
    options: { force?: boolean; focus?: string } = {},
  ): Promise<CompactionOutcome | null> {
    const { config, model, tools, store } = this.deps;
    const contextLength = model.contextLength;
    if (!config.enabled || contextLength === undefined) return null;
    if (!options.force) {
      const failedAt = this.failedAt.get(session.record.id);
      if (failedAt !== undefined && conversation.length < failedAt + RETRY_AFTER_MESSAGES) return null;
      const schemas = tools.schemas();
      const promptTokens = estimateTokens(session.systemPrompt, conversation, schemas);
      const threshold = conversationThreshold(config.threshold, estimateTokens(session.systemPrompt, [], schemas), contextLength);
      if (!needsCompression({ promptTokens, contextLength, threshold })) return null;
    }

    emit({ type: 'notice', level: 'info', message: 'The conversation is near the model\'s context limit: saving what matters, then compressing.' });
    await this.flush(session, conversation, signal, emit);
    const result = await compressContext({
      model,
      systemPrompt: session.systemPrompt,
      history: conversation,
      contextLength,
      config,
      toolSchemas: tools.schemas(),
      signal,
      ...(options.focus === undefined ? {} : { focus: options.focus }),
    });
    if (!result.ok) {
      this.failedAt.set(session.record.id, conversation.length);
      emit({ type: 'notice', level: 'warning', message: result.warning });
      return result.prunedToolOutputs > 0 ? { history: result.history, child: null } : null;
    }
    if (result.warning !== undefined) emit({ type: 'notice', level: 'warning', message: result.warning });

    const parent = session.record;
    const child = store.createSession({
      source: parent.source,
      model: model.id,
      parentSessionId: parent.id,
      ...(parent.title === null ? {} : { title: parent.title }),
    });
    for (const message of result.history) store.appendMessage(child.id, message);
    emit({
      type: 'compressed',
      parentSessionId: parent.id,
      sessionId: child.id,
      summarizedMessages: result.summarizedMessages,
      prunedToolOutputs: result.prunedToolOutputs,
      tokensBefore: result.tokensBefore,
      tokensAfter: result.tokensAfter,
    });
    return { history: result.history, child: store.getSession(child.id) ?? child };
  }

  /** The memory flush turn: failures are reported, never fatal (compression must still happen). */
  private async flush(session: CompactableSession, conversation: readonly ChatMessage[], signal: AbortSignal, emit: (event: AgentEvent) => void): Promise<void> {
    const learning = this.deps.learning;
    if (learning === undefined) return;
    const { model, tools, workspace, approvals } = this.deps;
    try {
      await learning.flush({ sessionId: session.record.id, model, systemPrompt: session.systemPrompt, history: [...conversation], tools, approvals, workspace }, signal);
    } catch (err) {
      if (isHearthError(err, 'aborted')) throw err;
      emit({ type: 'notice', level: 'warning', message: `Saving memories before compression failed: ${err instanceof Error ? err.message : String(err)}` });
    }
  }
}
