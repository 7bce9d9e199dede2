// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { webSocketApi, type WebSocketHearthApi } from '../../src/renderer/api/websocket-api.js';
import { createServices, type Services } from '../../src/renderer/app/services.js';
import type { AgentEvent } from '../../src/shared/events.js';
import { eventually, RouteError, startContractServer, type ContractServer } from './fixtures/contract-server.js';

/** The chat store's actions end to end over the real transport: which routes a user action calls. */
let server: ContractServer;
let api: WebSocketHearthApi;
let services: Services;

afterEach(async () => {
  services.dispose();
  api.close();
  await server.close();
});

async function setUp(options: { steerAccepted?: boolean; sendFails?: boolean } = {}) {
  const emit = (event: AgentEvent) => server.emit({ channel: 'agent', sessionId: 'new-1', event });
  server = await startContractServer({
    'chat.start': async () => ({ sessionId: 'new-1' }),
    'chat.send': async () => {
      if (options.sendFails) throw new RouteError('unavailable', 'no model configured');
      setTimeout(() => {
        emit({ type: 'status', state: 'thinking' });
        emit({ type: 'text_delta', delta: 'Hel' });
        emit({ type: 'text_delta', delta: 'lo' });
      }, 5);
      return { ok: true as const };
    },
    'chat.steer': async () => ({ accepted: options.steerAccepted ?? true }),
    'chat.interrupt': async () => {
      setTimeout(() => emit({ type: 'turn_end', final: '', reason: 'aborted' }), 5);
      return { interrupted: true };
    },
  });
  api = webSocketApi(server.location);
  services = createServices(api);
  return emit;
}

describe('chat store actions', () => {
  it('the first message starts a session, then streams; text sent while streaming steers; stop interrupts', async () => {
    // Catches mid-turn text starting a second concurrent turn instead of steering the running one.
    await setUp();
    const chat = services.chat;
    await chat.getState().send('hi there', [{ name: 'a.txt', content: 'file body' }]);
    await eventually(() => expect(chat.getState().items.at(-1)).toMatchObject({ kind: 'assistant', text: 'Hello' }));
    expect(chat.getState().phase).toBe('streaming');
    expect(chat.getState().items[0]).toMatchObject({ kind: 'user', text: 'hi there', attachments: ['a.txt'] });

    await chat.getState().send('use French');
    await chat.getState().interrupt();
    await eventually(() => expect(chat.getState().phase).toBe('idle'));
    expect(server.calls.map((c) => c.route)).toEqual(['chat.start', 'chat.send', 'chat.steer', 'chat.interrupt']);
    expect(server.calls[1]?.input).toEqual({ sessionId: 'new-1', text: 'hi there', attachments: [{ name: 'a.txt', content: 'file body' }] });
    expect(server.calls[2]?.input).toEqual({ sessionId: 'new-1', text: 'use French' });
  });

  it('a steer the engine no longer accepts (turn just ended) is sent as the next message', async () => {
    // Catches the user's text vanishing when it races the end of a turn.
    await setUp({ steerAccepted: false });
    const chat = services.chat;
    await chat.getState().send('first');
    await eventually(() => expect(chat.getState().phase).toBe('streaming'));
    await chat.getState().send('second');
    expect(server.calls.map((c) => c.route)).toEqual(['chat.start', 'chat.send', 'chat.steer', 'chat.send']);
    expect(chat.getState().items.filter((i) => i.kind === 'user').map((i) => (i.kind === 'user' ? i.text : ''))).toEqual(['first', 'second']);
  });

  it('a refused send returns to idle with the engine’s message in the thread', async () => {
    // Catches a UI stuck in "loading" when chat.send fails before the turn starts.
    await setUp({ sendFails: true });
    await services.chat.getState().send('hello');
    expect(services.chat.getState().phase).toBe('idle');
    expect(services.chat.getState().items.at(-1)).toMatchObject({ kind: 'notice', event: { type: 'turn_error', code: 'unavailable', message: 'no model configured' } });
  });

  it('syncPending shows what the engine holds open and opens the session that waits; a refused late answer closes the dialog', async () => {
    // Catches a reloaded page that never learns of the approval it was asked before the reload, or one that shows
    // the dialog with no way back to the conversation it belongs to.
    const request = { type: 'approval_request' as const, id: 'a1', command: 'rm -rf /srv', reasons: ['recursive delete'], expiresAt: Date.now() + 60_000, callId: 'c1', irreversible: true };
    server = await startContractServer({
      'approvals.pending': async () => ({ approvals: [{ sessionId: 'waiting-1', request }], clarifications: [] }),
      'sessions.open': async () => ({
        session: { id: 'waiting-1', title: 't', source: 'web', model: 'm', parentSessionId: null, startedAt: 0, updatedAt: 0, messageCount: 2, inputTokens: 0, outputTokens: 0, lastError: null, hasReply: true },
        messages: [
          { id: 1, role: 'user' as const, content: 'clean up', reasoning: null, toolCalls: [], toolCallId: null, toolName: null, outcome: null, createdAt: 0 },
          { id: 2, role: 'assistant' as const, content: '', reasoning: null, toolCalls: [{ id: 'c1', name: 'terminal', arguments: '{}' }], toolCallId: null, toolName: null, outcome: null, createdAt: 0 },
        ],
      }),
      'approvals.answer': async () => ({ accepted: false }),
    });
    api = webSocketApi(server.location);
    services = createServices(api);
    const chat = services.chat;
    await chat.getState().syncPending();
    expect(chat.getState().sessionId).toBe('waiting-1');
    expect(chat.getState().phase).toBe('waiting-for-user');
    expect(chat.getState().approvals).toMatchObject([{ id: 'a1', sessionId: 'waiting-1', callId: 'c1', irreversible: true }]);
    expect(server.calls.map((c) => c.route)).toEqual(['approvals.pending', 'sessions.open', 'approvals.pending']);
    await chat.getState().answerApproval('a1', 'once');
    expect(chat.getState().approvals).toEqual([]);
    expect(chat.getState().actionError).toBeNull();
  });
});
