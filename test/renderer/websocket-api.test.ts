// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { ApiCallError } from '../../src/renderer/api/api-error.js';
import { webSocketApi, webSocketUrl, type WebSocketHearthApi } from '../../src/renderer/api/websocket-api.js';
import type { UiEvent } from '../../src/shared/contract.js';
import { eventually, RouteError, startContractServer, type ContractServer } from './fixtures/contract-server.js';

/** The web-mode transport against a real `ws` server speaking the contract frames. */
let server: ContractServer | undefined;
let api: WebSocketHearthApi | undefined;
afterEach(async () => {
  api?.close();
  await server?.close();
  api = undefined;
  server = undefined;
});

const session = (id: string, title: string) => ({
  id,
  title,
  source: 'desktop',
  model: 'm',
  parentSessionId: null,
  startedAt: 0,
  updatedAt: 0,
  messageCount: 0,
  inputTokens: 0,
  outputTokens: 0,
  lastError: null,
  hasReply: false,
});

describe('webSocketApi', () => {
  it('builds the socket URL from the page: same host, /ws, the token from ?token= (wss on https)', () => {
    // Catches a client that connects to a fixed port or drops the token (the server would refuse it).
    expect(webSocketUrl({ protocol: 'http:', host: '127.0.0.1:4000', search: '?token=a%2Bb' })).toBe('ws://127.0.0.1:4000/ws?token=a%2Bb');
    expect(webSocketUrl({ protocol: 'https:', host: 'h', search: '?x=1&token=t' })).toBe('wss://h/ws?token=t');
  });

  it('matches replies to requests by id, even when they come back out of order', async () => {
    // Catches resolving the oldest pending call with whatever reply arrives first.
    server = await startContractServer({
      'sessions.open': async ({ sessionId }) => {
        await new Promise((resolve) => setTimeout(resolve, sessionId === 'slow' ? 150 : 5));
        return { session: session(sessionId, sessionId), messages: [] };
      },
    });
    api = webSocketApi(server.location);
    const [slow, fast] = await Promise.all([api.invoke('sessions.open', { sessionId: 'slow' }), api.invoke('sessions.open', { sessionId: 'fast' })]);
    expect(slow.session.id).toBe('slow');
    expect(fast.session.id).toBe('fast');
    expect(server.tokensSeen).toEqual(['secret-token']);
  });

  it('turns error frames into rejected promises carrying code, message and issues', async () => {
    // Catches errors resolved as values, or thrown away so the caller hangs.
    server = await startContractServer({
      'sessions.delete': async () => {
        throw new RouteError('not_found', 'no session nope');
      },
    });
    api = webSocketApi(server.location);
    const notFound = await api.invoke('sessions.delete', { sessionId: 'nope' }).catch((e: unknown) => e);
    expect(notFound).toBeInstanceOf(ApiCallError);
    expect(notFound).toMatchObject({ code: 'not_found', message: 'no session nope' });

    // An empty title fails the route's own zod schema on the server side.
    const invalid = await api.invoke('sessions.rename', { sessionId: 's', title: '' }).catch((e: unknown) => e);
    expect(invalid).toMatchObject({ code: 'invalid_input' });
    expect((invalid as ApiCallError).issues[0]?.path).toBe('title');
  });

  it('delivers {event} frames to every listener until it unsubscribes', async () => {
    // Catches events dropped, or delivered to a listener that already left.
    server = await startContractServer({});
    api = webSocketApi(server.location);
    const first: UiEvent[] = [];
    const second: UiEvent[] = [];
    api.onEvent((e) => first.push(e));
    const off = api.onEvent((e) => second.push(e));
    await eventually(() => expect(api?.connectionState()).toBe('open'));
    const delta: UiEvent = { channel: 'agent', sessionId: 's1', event: { type: 'text_delta', delta: 'hi' } };
    server.emit(delta);
    await eventually(() => expect(second).toEqual([delta]));
    off();
    server.emit({ channel: 'agent', sessionId: 's1', event: { type: 'text_delta', delta: 'again' } });
    await eventually(() => expect(first).toHaveLength(2));
    expect(second).toHaveLength(1);
  });

  it('reconnects after the server drops the socket: in-flight calls fail as unavailable, later ones go through', async () => {
    // Catches a client that stays dead after a drop, or leaves the interrupted call hanging forever.
    let release: (() => void) | undefined;
    server = await startContractServer({
      'skills.list': async () => [],
      'chat.interrupt': () => new Promise((resolve) => (release = () => resolve({ interrupted: true }))),
    });
    api = webSocketApi(server.location, { backoffMs: () => 50 });
    const states: string[] = [];
    api.onConnectionChange((s) => states.push(s));
    await eventually(() => expect(api?.connectionState()).toBe('open'));

    const inFlight = api.invoke('chat.interrupt', { sessionId: 's' }).catch((e: unknown) => e);
    await eventually(() => expect(release).toBeDefined());
    server.dropConnections();
    expect(await inFlight).toMatchObject({ code: 'unavailable' });

    // Asked while the socket is down: queued, then sent once it is back.
    const queued = api.invoke('skills.list', {});
    expect(await queued).toEqual([]);
    expect(states).toEqual(['open', 'reconnecting', 'open']);
    expect(server.openSockets()).toBe(1);
    release?.();
  });

  it('never connects with a wrong token, and keeps the token out of storage', async () => {
    // Catches a client that ignores the page token, or persists it where any script on the origin can read it.
    server = await startContractServer({}, 'right');
    api = webSocketApi({ ...server.location, search: '?token=wrong' }, { backoffMs: () => 30 });
    await eventually(() => expect(server?.tokensSeen.length).toBeGreaterThanOrEqual(3));
    // Never opened: the page says it cannot reach Hearth at this address (not "connection lost").
    await eventually(() => expect(api?.connectionState()).toBe('unreachable'));
    expect(server.openSockets()).toBe(0);
    expect(JSON.stringify({ ...localStorage })).not.toContain('wrong');
    expect(JSON.stringify({ ...sessionStorage })).not.toContain('wrong');
  });
});
