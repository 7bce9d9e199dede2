import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApprovalDecision, ApprovalRequest } from '../src/core/safety/approvals/broker.js';
import { REASONS } from '../src/core/safety/approvals/detector.js';
import { ApprovalPolicyBroker } from '../src/core/safety/approvals/policy.js';
import { createSendMessageTools, MessagingHub, type MessageSender } from '../src/core/tools/send-message.js';
import { runTool, toolContext } from './fixtures/tool-harness.js';

/** The gateway's side of the port, recording what it was asked to deliver. */
function recordingSender(known: string[]) {
  const sent: Array<{ target: string; text?: string; path?: string; caption?: string }> = [];
  const sender: MessageSender = {
    knownRecipients: () => known.map((target) => ({ target, label: `chat ${target}` })),
    async send(target, text) {
      if (target.endsWith(':broken')) throw new Error('chat not found');
      sent.push({ target, text });
      return { messageId: String(sent.length) };
    },
    async sendFile(target, path, caption) {
      sent.push({ target, path, ...(caption === undefined ? {} : { caption }) });
      return { messageId: String(sent.length) };
    },
  };
  return { sender, sent };
}

function brokerAnswering(answer: ApprovalDecision) {
  const asked: ApprovalRequest[] = [];
  const broker = new ApprovalPolicyBroker();
  broker.setPromptHandler(async (request) => {
    asked.push(request);
    return answer;
  });
  return { broker, asked };
}

const workspace = mkdtempSync(join(tmpdir(), 'hearth-send-'));

describe('send_message and send_file', () => {
  it('say that nothing was sent when no gateway is attached, instead of pretending', async () => {
    const [sendMessage] = createSendMessageTools(new MessagingHub());
    const result = await runTool(sendMessage, { target: 'telegram:1', text: 'hi' }, toolContext({ workspace }));
    expect(result).toMatchObject({ isError: true });
    expect(result.content).toMatch(/No chat platform is connected/);
  });

  it('write to a known chat without asking', async () => {
    const hub = new MessagingHub();
    const { sender, sent } = recordingSender(['telegram:1']);
    hub.attach(sender);
    const { broker, asked } = brokerAnswering('deny');
    const [sendMessage] = createSendMessageTools(hub);
    const result = await runTool(sendMessage, { target: 'telegram:1', text: 'build is green' }, toolContext({ workspace, approvals: broker }));
    expect(result.isError).toBeFalsy();
    expect(sent).toEqual([{ target: 'telegram:1', text: 'build is green' }]);
    expect(asked).toHaveLength(0);
  });

  it('ask before writing to a new chat; a denial sends nothing and names the chats it may use', async () => {
    const hub = new MessagingHub();
    const { sender, sent } = recordingSender(['telegram:1']);
    hub.attach(sender);
    const { broker, asked } = brokerAnswering('deny');
    const [sendMessage] = createSendMessageTools(hub);
    const result = await runTool(sendMessage, { target: 'discord:99', text: 'hello stranger' }, toolContext({ workspace, approvals: broker }));
    expect(result).toMatchObject({ isError: true });
    expect(result.content).toMatch(/new recipient.*not approved.*telegram:1/s);
    expect(sent).toEqual([]);
    expect(asked[0]).toMatchObject({ kind: 'message', reasons: [REASONS.newRecipient], irreversible: true });
    expect(asked[0]?.command).toContain('discord:99: hello stranger');
  });

  it('send to a new chat once approved, and a file with its caption', async () => {
    const hub = new MessagingHub();
    const { sender, sent } = recordingSender([]);
    hub.attach(sender);
    const { broker } = brokerAnswering('once');
    const [sendMessage, sendFile] = createSendMessageTools(hub);
    const ctx = toolContext({ workspace, approvals: broker });
    expect((await runTool(sendMessage, { target: 'slack:C1:171.2', text: 'in thread' }, ctx)).isError).toBeFalsy();
    writeFileSync(join(workspace, 'report.txt'), 'r');
    expect((await runTool(sendFile, { target: 'slack:C1', path: 'report.txt', caption: 'the report' }, ctx)).isError).toBeFalsy();
    expect(sent).toEqual([
      { target: 'slack:C1:171.2', text: 'in thread' },
      { target: 'slack:C1', path: join(workspace, 'report.txt'), caption: 'the report' },
    ]);
  });

  it('report a platform failure as a failed call, and refuse a malformed target before anything runs', async () => {
    const hub = new MessagingHub();
    hub.attach(recordingSender(['telegram:broken']).sender);
    const [sendMessage] = createSendMessageTools(hub);
    const failed = await runTool(sendMessage, { target: 'telegram:broken', text: 'x' }, toolContext({ workspace }));
    expect(failed).toMatchObject({ isError: true });
    expect(failed.content).toMatch(/failed: chat not found/);
    expect(() => sendMessage.input.parse({ target: 'telegram 1', text: 'x' })).toThrow(/platform:chat_id/);
  });

  it('detaching a replaced sender leaves the new one in place', () => {
    const hub = new MessagingHub();
    const first = recordingSender([]).sender;
    const second = recordingSender([]).sender;
    const detachFirst = hub.attach(first);
    hub.attach(second);
    detachFirst();
    expect(hub.current()).toBe(second);
  });
});
