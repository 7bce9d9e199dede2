import { resolve } from 'node:path';
import { z } from 'zod';
import { errorMessage } from '../errors.js';
import { defineTool, type ToolContext } from './define.js';

/**
 * `send_message` and `send_file`: the agent writing to a chat on a connected platform (issue 13). The tools live
 * here, below the gateway, so they talk to it through a port: the gateway attaches a `MessageSender` to the
 * engine's `MessagingHub` while it runs; with none attached the tools say so instead of pretending to send.
 */

export interface MessageRecipient {
  /** `platform:chat_id`, optionally `:thread_id`, e.g. `telegram:12345`. */
  target: string;
  /** What the user recognises the chat by (a name or title). */
  label: string;
}

export interface MessageSender {
  /** Chats the agent may write to without asking: the ones it talks in, paired and allowlisted users. */
  knownRecipients(): readonly MessageRecipient[];
  send(target: string, text: string): Promise<{ messageId: string }>;
  sendFile(target: string, path: string, caption?: string): Promise<{ messageId: string }>;
}

/** Where the running gateway (if any) plugs in its sender. One per engine. */
export class MessagingHub {
  private sender: MessageSender | null = null;

  /** Returns the detach function; detaching a sender that was replaced since does nothing. */
  attach(sender: MessageSender): () => void {
    this.sender = sender;
    return () => {
      if (this.sender === sender) this.sender = null;
    };
  }

  current(): MessageSender | null {
    return this.sender;
  }
}

const TARGET = /^[a-z]+:[^\s:]+(:[^\s:]+)?$/;
const Target = z.string().regex(TARGET, { error: 'expected "platform:chat_id" (optionally ":thread_id"), e.g. "telegram:12345"' }).describe('"platform:chat_id", e.g. "telegram:12345"; see the chats listed when you call with an unknown target.');

const NOT_CONNECTED = 'No chat platform is connected in this Hearth process, so nothing was sent. Messages go out while `hearth gateway` (or the desktop app with the gateway on) runs.';

/** A target the user has not seen the agent write to goes through the approval broker first (kind `message`). */
async function mayWrite(target: string, preview: string, sender: MessageSender, ctx: ToolContext): Promise<string | null> {
  if (sender.knownRecipients().some((r) => r.target === target)) return null;
  const outcome = await ctx.approvals.check(ctx.sessionId, `${target}: ${preview}`, ctx.signal, { kind: 'message', ...(ctx.origin === undefined ? {} : { origin: ctx.origin }) });
  if (outcome.approved) return null;
  const known = sender.knownRecipients().map((r) => `${r.target} (${r.label})`).join(', ');
  return `Not sent: ${target} is a new recipient and the message was not approved (${outcome.reason}).${known === '' ? '' : ` Chats you may write to: ${known}.`}`;
}

export function createSendMessageTools(hub: MessagingHub) {
  const sendMessage = defineTool({
    name: 'send_message',
    description: 'Send a text message to a chat on a connected platform (Telegram, Discord, Slack, WhatsApp, Signal). A chat you have not written to before needs the user\'s approval.',
    input: z.object({ target: Target, text: z.string().min(1).max(20_000) }),
    parallelSafe: false,
    async run(input, ctx) {
      const sender = hub.current();
      if (sender === null) return { isError: true, content: NOT_CONNECTED };
      const refused = await mayWrite(input.target, input.text.slice(0, 200), sender, ctx);
      if (refused !== null) return { isError: true, content: refused };
      try {
        const { messageId } = await sender.send(input.target, input.text);
        return `Sent to ${input.target} (message ${messageId}).`;
      } catch (err) {
        return { isError: true, content: `Sending to ${input.target} failed: ${errorMessage(err)}` };
      }
    },
  });
  const sendFile = defineTool({
    name: 'send_file',
    description: 'Send a file from the workspace to a chat on a connected platform, with an optional caption. A new chat needs the user\'s approval.',
    input: z.object({ target: Target, path: z.string().min(1).describe('File path; relative paths resolve in the workspace.'), caption: z.string().max(1000).optional() }),
    parallelSafe: false,
    paths: (input, ctx) => [resolve(ctx.workspace, input.path)],
    async run(input, ctx) {
      const sender = hub.current();
      if (sender === null) return { isError: true, content: NOT_CONNECTED };
      const path = resolve(ctx.workspace, input.path);
      const refused = await mayWrite(input.target, `file ${path}`, sender, ctx);
      if (refused !== null) return { isError: true, content: refused };
      try {
        const { messageId } = await sender.sendFile(input.target, path, input.caption);
        return `Sent ${path} to ${input.target} (message ${messageId}).`;
      } catch (err) {
        return { isError: true, content: `Sending ${path} to ${input.target} failed: ${errorMessage(err)}` };
      }
    },
  });
  return [sendMessage, sendFile] as const;
}
