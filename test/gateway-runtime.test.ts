import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dm, lastUserText, nextMessageId, startGatewayHarness, type GatewayHarness } from './fixtures/gateway/harness.js';
import { PLAIN_LIMITS } from './fixtures/gateway/test-adapter.js';
import { basicFields, skillMd, writeSkill } from './fixtures/skills/write-skill.js';

/**
 * The gateway on the real engine (encrypted store file, AgentHost, scripted model over HTTP) with an in-test
 * adapter: ordering per chat, chats side by side, de-duplication across a restart, queue and steer, long answers,
 * chat commands, authorization. Each test names the bug it would catch.
 */
const harnesses: GatewayHarness[] = [];
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.close();
});

const ALLOWED = '  admins: ["telegram:admin"]\n  telegram:\n    allowed_users: ["alice", "bob", "carol", "dave"]\n';

async function harness(script: Parameters<typeof startGatewayHarness>[0], options: Parameters<typeof startGatewayHarness>[1] = {}): Promise<GatewayHarness> {
  const h = await startGatewayHarness(script, { gatewayConfig: ALLOWED, ...options });
  harnesses.push(h);
  return h;
}

/** The model answers `echo:<what the user wrote>` after `delayMs`. */
const echo = (delayMs = 0) => (request: unknown) => ({ text: `echo:${lastUserText(request)}`, delayMs });

function texts(h: GatewayHarness, chatId: string): string[] {
  return h.adapter.shown(chatId).map((m) => m.text);
}

describe('gateway: order, parallelism, never interleaved', () => {
  // Catches a gateway that runs a chat's messages concurrently (two turns in one session fail, or answers swap
  // places) or one that serialises all chats behind one queue (one slow chat stalls everyone).
  it('answers each chat in order, one turn at a time, while other chats run alongside', async () => {
    const h = await harness(echo(120));
    for (const n of [1, 2, 3]) {
      await h.adapter.deliver(dm('alice', `a${n}`));
      await h.adapter.deliver(dm('bob', `b${n}`));
    }
    await h.gateway.idle();
    expect(texts(h, 'chat-alice')).toEqual(['echo:a1', 'echo:a2', 'echo:a3']);
    expect(texts(h, 'chat-bob')).toEqual(['echo:b1', 'echo:b2', 'echo:b3']);
    // Never interleaved: each of alice's requests already carries the previous answer in its history.
    const aliceRequests = h.server.requests.filter((r) => lastUserText(r).startsWith('a'));
    expect(aliceRequests.map(lastUserText)).toEqual(['a1', 'a2', 'a3']);
    expect(JSON.stringify(aliceRequests[1])).toContain('echo:a1');
    expect(JSON.stringify(aliceRequests[2])).toContain('echo:a2');
    // Side by side: bob's first answer went out before alice's last one (serialised chats would take 6 turns).
    const sends = h.adapter.ops.filter((o) => o.op === 'send');
    const bobFirst = sends.findIndex((o) => o.chatId === 'chat-bob');
    const aliceLast = sends.map((o) => o.chatId).lastIndexOf('chat-alice');
    expect(bobFirst).toBeLessThan(aliceLast);
    // One session per DM, created by the gateway (source 'gateway').
    const sessions = h.engine.sessions.store.listSessions({ limit: 10 });
    expect(sessions.filter((s) => s.source === 'gateway')).toHaveLength(2);
  });

  // Catches an answer that is sent only at the end on a platform that can edit (no streaming), or streamed as
  // many messages instead of one growing message.
  it('streams by editing one message where the platform can edit', async () => {
    const long = 'word '.repeat(60).trim();
    const h = await harness([{ text: long, delayMs: 5 }]);
    await h.adapter.deliver(dm('alice', 'talk'));
    await h.gateway.idle();
    const sends = h.adapter.ops.filter((o) => o.op === 'send');
    const edits = h.adapter.ops.filter((o) => o.op === 'edit');
    expect(sends).toHaveLength(1);
    expect(edits.length).toBeGreaterThan(0);
    expect(texts(h, 'chat-alice')).toEqual([long]);
    expect(sends[0]).toMatchObject({ replyTo: expect.stringMatching(/^msg-/) });
  });
});

describe('gateway: restarts', () => {
  // Catches dedupe kept in memory only: Telegram redelivers updates whose offset was not confirmed before a
  // restart, and the user would get the same answer twice (and its tools run twice).
  it('answers a message once even when the platform delivers it again after a restart', async () => {
    const h = await harness(echo());
    const message = dm('alice', 'hello once');
    await h.adapter.deliver(message);
    await h.gateway.idle();
    await h.restart();
    await h.adapter.deliver(message);
    await h.adapter.deliver(dm('alice', 'second'));
    await h.gateway.idle();
    expect(h.server.requests.map(lastUserText)).toEqual(['hello once', 'second']);
    expect(texts(h, 'chat-alice')).toEqual(['echo:second']);
    // The same conversation continues after the restart: the second request carries the first exchange.
    expect(JSON.stringify(h.server.requests[1])).toContain('echo:hello once');
  });

  // Catches a message lost at shutdown: it waited behind a running turn, the gateway stopped, and nothing
  // remembered it.
  it('answers after a restart what was still waiting when the gateway stopped', async () => {
    const h = await harness(echo(250));
    await h.adapter.deliver(dm('alice', 'first'));
    await h.adapter.deliver(dm('alice', 'waiting'));
    await expect.poll(() => h.server.requests.length).toBe(1);
    await h.restart();
    await h.gateway.idle();
    expect(h.server.requests.map(lastUserText)).toEqual(['first', 'waiting']);
    expect(texts(h, 'chat-alice')).toEqual(['echo:waiting']);
  });

  // Catches a crash mid-turn leading to the turn being run again (its tools would run twice): the user is told.
  it('reports a turn a crash cut off instead of running it again', async () => {
    const h = await harness(echo());
    const event = { platform: 'telegram' as const, sentAt: Date.now(), attachments: [], mentionsBot: false, ...dm('alice', 'cut off'), user: { id: 'alice', name: 'alice', isBot: false } };
    // As a process killed during the turn leaves the store: taken in, marked running, never finished.
    expect(h.gateway.store.admit(event)).toBe(true);
    h.gateway.store.markRunning(event);
    await h.restart();
    await h.gateway.idle();
    expect(h.server.requests).toHaveLength(0);
    expect(texts(h, 'chat-alice')).toEqual([expect.stringContaining('restarted while answering')]);
    await h.restart();
    await h.gateway.idle();
    expect(texts(h, 'chat-alice')).toEqual([]);
  });
});

describe('gateway: a message during a running turn', () => {
  const toolThenAnswer = (request: unknown, index: number) =>
    index === 0 ? { toolCalls: [{ name: 'terminal', arguments: { command: 'echo tool-ran' } }], delayMs: 150 } : { text: `done:${lastUserText(request)}` };

  // Catches a second turn started in a busy session (AgentHost refuses it: the message would be lost) and a
  // queued message answered before the running one.
  it('queues it as the next turn by default', async () => {
    const h = await harness(toolThenAnswer);
    await h.adapter.deliver(dm('alice', 'start'));
    await expect.poll(() => h.server.requests.length).toBe(1);
    await h.adapter.deliver(dm('alice', 'follow-up'));
    await h.gateway.idle();
    expect(h.server.requests).toHaveLength(3);
    expect(lastUserText(h.server.requests[2])).toBe('follow-up');
    expect(texts(h, 'chat-alice').at(-1)).toBe('done:follow-up');
  });

  // Catches `while_busy: steer` being ignored: the text must reach the running turn, not start another.
  it('steers the running turn with `while_busy: steer`', async () => {
    const h = await harness(toolThenAnswer, { gatewayConfig: `${ALLOWED}  while_busy: steer\n` });
    await h.adapter.deliver(dm('alice', 'start'));
    await expect.poll(() => h.server.requests.length).toBe(1);
    await h.adapter.deliver(dm('alice', 'use tabs please'));
    await h.gateway.idle();
    expect(h.server.requests).toHaveLength(2);
    expect(JSON.stringify(h.server.requests[1])).toContain('use tabs please');
  });
});

describe('gateway: long answers', () => {
  const codeLines = Array.from({ length: 80 }, (_, i) => `const value${i} = compute(${i}); // line ${i}`);
  const answer = `Intro paragraph.\n\n${'Some prose. '.repeat(30).trim()}\n\n\`\`\`ts\n${codeLines.join('\n')}\n\`\`\`\n\nClosing words.`;

  // Catches a message over the platform's limit (the platform rejects it: the answer is lost) and a cut inside a
  // code block (the rest renders as prose, the code as garbage).
  it.each([
    ['a platform that edits', { maxMessageChars: 600, canEdit: true, minEditIntervalMs: 10, hasButtons: true }],
    ['a platform that cannot edit', { ...PLAIN_LIMITS, maxMessageChars: 600 }],
  ])('splits on %s into pieces within the limit, each code piece fenced', async (_name, limits) => {
    const h = await harness([{ text: answer }], { limits });
    await h.adapter.deliver(dm('alice', 'show me code'));
    await h.gateway.idle();
    const pieces = texts(h, 'chat-alice');
    expect(pieces.length).toBeGreaterThan(2);
    for (const piece of pieces) {
      expect(piece.length).toBeLessThanOrEqual(600);
      expect((piece.match(/^```/gm) ?? []).length % 2).toBe(0);
    }
    const all = pieces.join('\n');
    for (const line of codeLines) expect(all).toContain(line);
    expect(pieces[0]).toMatch(/^Intro paragraph\./);
    expect(pieces.at(-1)).toMatch(/Closing words\.$/);
  });
});

describe('gateway: chat commands', () => {
  // Catches commands sent to the model as prose, /new that keeps the old conversation, and /status queued behind
  // the turn it reports on.
  it('answers /help /model /status /usage /new itself, and /new starts a new session', async () => {
    const h = await harness(echo());
    await h.adapter.deliver(dm('alice', 'hi'));
    await h.gateway.idle();
    const first = h.gateway.store.sessionFor('telegram:dm:chat-alice');
    for (const command of ['/help', '/model', '/status', '/usage', '/frobnicate']) await h.adapter.deliver(dm('alice', command));
    await h.gateway.idle();
    const shown = texts(h, 'chat-alice');
    expect(shown[1]).toContain('/approve ID');
    expect(shown[2]).toBe('Model: scripted:model');
    expect(shown[3]).toContain(`Session ${first ?? '?'}: idle`);
    expect(shown[4]).toMatch(/This conversation: \d+ input tokens?, \d+ output tokens?, 2 messages\./);
    expect(shown[5]).toBe('Unknown command /frobnicate. /help lists them.');
    await h.adapter.deliver(dm('alice', '/new'));
    await h.adapter.deliver(dm('alice', 'again'));
    await h.gateway.idle();
    const second = h.gateway.store.sessionFor('telegram:dm:chat-alice');
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
    expect(h.server.requests.map(lastUserText)).toEqual(['hi', 'again']);
    expect(JSON.stringify(h.server.requests[1])).not.toContain('echo:hi');
    expect(h.engine.sessions.store.getSession(first ?? '')?.endedAt).not.toBeNull();
  });

  // Catches /stop queued behind the turn it should stop (it would never act).
  it('/stop interrupts the running turn at once', async () => {
    const h = await harness([{ text: 'slow', hangMs: 30_000 }]);
    await h.adapter.deliver(dm('alice', 'long job'));
    await expect.poll(() => h.server.requests.length).toBe(1);
    await expect.poll(() => h.engine.sessions.host.isRunning(h.gateway.store.sessionFor('telegram:dm:chat-alice') ?? '')).toBe(true);
    await h.adapter.deliver(dm('alice', '/stop'));
    await h.gateway.idle();
    const shown = texts(h, 'chat-alice');
    expect(shown).toContain('Stopping.');
    expect(shown.some((t) => t.includes('(stopped)'))).toBe(true);
  });

  // Catches /<skill-name> treated as an unknown command or sent without the skill's instructions.
  it('/<skill-name> runs the skill as the terminal does: its instructions with the request', async () => {
    const h = await harness(echo(), {
      prepare: (home) => void writeSkill(join(home, 'skills'), 'release-notes', skillMd(basicFields('release-notes'), '# Steps\n\nWrite RELEASE-NOTES-MARKER for the user.\n')),
    });
    await h.adapter.deliver(dm('alice', '/skills'));
    await h.adapter.deliver(dm('alice', '/release-notes for v2'));
    await h.gateway.idle();
    expect(texts(h, 'chat-alice')[0]).toContain('/release-notes');
    expect(h.server.requests).toHaveLength(1);
    const sent = lastUserText(h.server.requests[0]);
    expect(sent).toContain('RELEASE-NOTES-MARKER');
    // The request follows the instructions (the host may add its skill hint after both).
    expect(sent.indexOf('for v2')).toBeGreaterThan(sent.indexOf('RELEASE-NOTES-MARKER'));
  });
});

describe('gateway: who may talk to the agent', () => {
  // Catches an open gateway (anyone who finds the bot runs commands on the owner's machine) and a pairing reply
  // that does not say how the owner approves.
  it('answers a stranger\'s DM with a pairing code only, and the user once the owner approves it', async () => {
    const h = await harness(echo());
    await h.adapter.deliver(dm('mallory', 'run rm -rf ~'));
    await h.gateway.idle();
    expect(h.server.requests).toHaveLength(0);
    const [reply] = texts(h, 'chat-mallory');
    const code = /pairing code is ([A-Z2-9]{8})/.exec(reply ?? '')?.[1];
    expect(code).toBeDefined();
    expect(reply).toContain(`hearth pairing approve telegram ${code ?? ''}`);
    h.gateway.pairing.approve('telegram', code ?? '');
    await h.adapter.deliver(dm('mallory', 'hello now'));
    await h.gateway.idle();
    expect(h.server.requests.map(lastUserText)).toEqual(['hello now']);
  });

  // Catches `unknown_dm: ignore` still replying (and so confirming the bot exists) and group strangers paired.
  it('ignores strangers with `unknown_dm: ignore`, and in groups, with a log line', async () => {
    const h = await harness(echo(), { gatewayConfig: `${ALLOWED}  unknown_dm: ignore\n` });
    await h.adapter.deliver(dm('mallory', 'hi'));
    await h.adapter.deliver({ messageId: nextMessageId(), text: '@bot hi', mentionsBot: true, chat: { id: 'group-1', type: 'group' }, user: { id: 'eve' } });
    await h.gateway.idle();
    expect(h.adapter.ops.filter((o) => o.op === 'send')).toHaveLength(0);
    expect(h.warnings.filter((w) => w.includes('not allowed'))).toHaveLength(2);
  });

  // Catches a group where the bot answers every message, and one shared session leaking one member's
  // conversation into another's.
  it('in groups answers mentions and replies only, one session per participant', async () => {
    const h = await harness(echo());
    const group = { id: 'group-1', type: 'group' as const, title: 'Team' };
    await h.adapter.deliver({ messageId: nextMessageId(), text: 'chatting among ourselves', chat: group, user: { id: 'alice' } });
    await h.adapter.deliver({ messageId: nextMessageId(), text: '@bot alice asks', mentionsBot: true, chat: group, user: { id: 'alice' } });
    await h.adapter.deliver({ messageId: nextMessageId(), text: 'bob replies to the bot', replyTo: { messageId: 'm1', fromBot: true }, chat: group, user: { id: 'bob' } });
    await h.gateway.idle();
    expect(h.server.requests.map(lastUserText).sort()).toEqual(['@bot alice asks', 'bob replies to the bot']);
    expect(h.gateway.store.sessionFor('telegram:group:group-1:user:alice')).toBeDefined();
    expect(h.gateway.store.sessionFor('telegram:group:group-1:user:bob')).toBeDefined();
    expect(h.gateway.store.sessionFor('telegram:group:group-1:user:alice')).not.toBe(h.gateway.store.sessionFor('telegram:group:group-1:user:bob'));
    expect(JSON.stringify(h.server.requests[1])).not.toContain('alice asks');
  });
});

describe('gateway: adapters and attachments', () => {
  // Catches attachments dropped on the floor: the agent must be told where the file is.
  it('saves attachments into the workspace and names them in the message', async () => {
    const h = await harness(echo());
    await h.adapter.deliver({ ...dm('alice', 'what is in this file?'), attachments: [{ kind: 'file', platformId: 'text:hello from the file', name: 'notes.txt' }] });
    await h.gateway.idle();
    const sent = lastUserText(h.server.requests[0]);
    const path = /\[file attached: (.+)\]/.exec(sent)?.[1];
    expect(path).toBeDefined();
    expect(path?.startsWith(h.workspace)).toBe(true);
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(path ?? '', 'utf8')).toBe('hello from the file');
  });

  // Catches an adapter state that never reaches the app (`hearth gateway status` would show nothing).
  it('reports adapter states', async () => {
    const h = await harness(echo());
    expect(h.states.map((s) => s.state.state)).toEqual(['connecting', 'connected']);
    expect(h.gateway.adapterStates().telegram).toMatchObject({ state: 'connected', account: 'test-bot' });
  });

  // Catches one failed send taking the gateway down or silently dropping the answer.
  it('logs an answer the platform refused and goes on with the next message', async () => {
    const h = await harness(echo(), { limits: PLAIN_LIMITS });
    h.adapter.failSends = 1;
    await h.adapter.deliver(dm('alice', 'one'));
    await h.adapter.deliver(dm('alice', 'two'));
    await h.gateway.idle();
    expect(h.warnings.some((w) => w.includes('send refused'))).toBe(true);
    expect(texts(h, 'chat-alice')).toEqual(['echo:two']);
  });

  // Catches send_message writing to a chat nobody talked in without asking (it must not be a known recipient),
  // and a long message the platform would refuse.
  it('gives the send_message tools the chats it talks in, and sends split to the limit', async () => {
    const h = await harness(echo(), { limits: { ...PLAIN_LIMITS, maxMessageChars: 100 } });
    const sender = h.gateway.messageSender();
    expect(sender.knownRecipients()).toEqual([]);
    await h.adapter.deliver(dm('alice', 'hi'));
    await h.gateway.idle();
    expect(sender.knownRecipients()).toEqual([{ target: 'telegram:chat-alice', label: 'telegram direct chat chat-alice' }]);
    const { messageId } = await sender.send('telegram:chat-alice', `${'a'.repeat(90)}\n\n${'b'.repeat(90)}`);
    expect(messageId).toMatch(/^m\d+$/);
    expect(texts(h, 'chat-alice').slice(-2)).toEqual(['a'.repeat(90), 'b'.repeat(90)]);
    await expect(sender.send('discord:123', 'x')).rejects.toThrow(/discord is not connected/);
    await expect(sender.send('nonsense', 'x')).rejects.toThrow(/not a chat target/);
  });
});
