import type { ChatMessage } from '../llm/types.js';

/**
 * The conversation as the learning loop should read it: without the user-role messages Hearth wrote
 * itself (a compression summary, the step-budget request), which the model needs in its context but which
 * are not the user's words. For the memory review (learning/review.ts): after a compression its history
 * opens with the summary, and a memory saved from a summary's paraphrase is a memory the user never stated.
 * What the summary replaced was reviewed by the flush before the compression.
 */
export function withoutHearthText(history: readonly ChatMessage[]): ChatMessage[] {
  return history.filter((message) => !(message.role === 'user' && message.origin === 'hearth'));
}
