import type { AgentEvent } from '../../shared/events.js';
import type { AgentHost } from '../agent/host.js';
import { errorMessage } from '../errors.js';
import { approvalActions, approvalText, resolvedText, type ChatApproval } from './approval-prompts.js';
import { ReplyStream } from './reply-stream.js';
import type { MessageEvent, PlatformAdapter } from './types.js';

/** What one chat turn needs from the gateway around it. */
export interface ChatTurnContext {
  host: AgentHost;
  adapter: PlatformAdapter;
  /** The message that started the turn: its sender owns the turn's approvals. */
  event: MessageEvent;
  sessionId: string;
  /** The conversation continued in another session (context compression): remember it for this chat. */
  onSessionMoved(sessionId: string): void;
  /** An approval was posted in the chat and may be answered; `withdraw` when it is resolved. */
  registerApproval(approval: ChatApproval): void;
  withdrawApproval(id: string): ChatApproval | undefined;
  /** A clarify question is open: the owner's next message in the chat answers it. */
  setClarify(id: string | null): void;
  warn(message: string): void;
  now(): number;
}

/** How the turn ended, for the gateway's bookkeeping. */
export interface ChatTurnResult {
  reason: 'stop' | 'budget' | 'aborted' | 'error';
  /** Ids of the messages the answer went out as. */
  replyIds: string[];
}

/**
 * Runs one turn of a chat's session and carries it into the chat: the answer streamed (by edits where the platform
 * allows), approval questions posted with buttons or `/approve ID`, clarify questions asked, failures said in the
 * chat. Text after an approval continues in a new message below the question, so the conversation reads in order.
 */
export async function runChatTurn(ctx: ChatTurnContext, text: string): Promise<ChatTurnResult> {
  const { adapter, event } = ctx;
  const target = { chatId: event.chat.id, ...(event.threadId === undefined ? {} : { threadId: event.threadId }) };
  let reply = new ReplyStream(adapter, { ...target, replyTo: event.messageId }, ctx.warn);
  const replyIds: string[] = [];
  const typing = (): void => {
    adapter.typing(event.chat.id, event.threadId).catch((err: unknown) => ctx.warn(`${adapter.platform}: the typing indicator failed: ${errorMessage(err)}`));
  };
  /** Sends what the answer has so far and starts the next piece in a new message. */
  const cutReply = async (): Promise<void> => {
    await reply.finish();
    replyIds.push(...reply.messageIds);
    reply = new ReplyStream(adapter, target, ctx.warn);
  };
  const posted = new Set<string>();

  typing();
  let reason: ChatTurnResult['reason'] = 'error';
  for await (const agentEvent of ctx.host.send(ctx.sessionId, text)) {
    switch (agentEvent.type) {
      case 'text_delta':
        reply.append(agentEvent.delta);
        break;
      case 'tool_start':
        reply.paragraph();
        typing();
        break;
      case 'approval_request': {
        await cutReply();
        const approval: ChatApproval = {
          id: agentEvent.id,
          platform: adapter.platform,
          ...target,
          ownerId: event.user.id,
          ...(event.user.name === undefined ? {} : { ownerName: event.user.name }),
          sessionId: ctx.sessionId,
          request: agentEvent,
        };
        // Registered before it is posted, so a press that races the send is not refused as unknown.
        ctx.registerApproval(approval);
        const { messageId } = await adapter.send({
          ...target,
          text: approvalText(approval, adapter.limits.hasButtons, ctx.now()),
          ...(adapter.limits.hasButtons ? { actions: approvalActions(agentEvent.id) } : {}),
        });
        approval.messageId = messageId;
        posted.add(agentEvent.id);
        break;
      }
      case 'approval_resolved': {
        const approval = ctx.withdrawApproval(agentEvent.id);
        if (approval?.messageId !== undefined) {
          await adapter.edit(approval.chatId, approval.messageId, resolvedText(approval, agentEvent.approved, agentEvent.reason), []).catch((err: unknown) => ctx.warn(`${adapter.platform}: could not mark the approval answered: ${errorMessage(err)}`));
        }
        break;
      }
      case 'clarify_request': {
        await cutReply();
        const choices = agentEvent.choices.length > 0 ? `\n${agentEvent.choices.map((c, i) => `${i + 1}. ${c}`).join('\n')}` : '';
        ctx.setClarify(agentEvent.id);
        await adapter.send({ ...target, text: `❓ ${agentEvent.question}${choices}\n(Your next message answers it.)` });
        break;
      }
      case 'compressed':
        ctx.onSessionMoved(agentEvent.sessionId);
        break;
      case 'notice':
        if (agentEvent.level === 'error') reply.append(`\n\n⚠️ ${agentEvent.message}`);
        else ctx.warn(`session ${ctx.sessionId}: ${agentEvent.message}`);
        break;
      case 'turn_end':
        reason = agentEvent.reason;
        finishLine(reply, agentEvent);
        break;
      default:
        break;
    }
  }
  ctx.setClarify(null);
  // Questions the turn left open (it was interrupted) are withdrawn with it.
  for (const id of posted) ctx.withdrawApproval(id);
  await reply.finish();
  replyIds.push(...reply.messageIds);
  return { reason, replyIds };
}

/** What the chat sees at the end besides the streamed text: the final answer if nothing streamed, or why it stopped. */
function finishLine(reply: ReplyStream, end: Extract<AgentEvent, { type: 'turn_end' }>): void {
  if (!reply.hasText && end.final.trim() !== '') reply.append(end.final);
  if (end.reason === 'error') reply.append(`\n\n⚠️ The turn failed: ${end.error?.message ?? 'unknown error'}`);
  else if (end.reason === 'aborted') reply.append('\n\n(stopped)');
  else if (end.reason === 'budget') reply.append('\n\n(stopped: the turn reached its step limit; send "continue" to go on)');
}
