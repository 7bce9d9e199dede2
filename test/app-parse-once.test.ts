import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { dispatchParsed, type RouteSchemas } from '../src/core/app/dispatch.js';
import { createIpcRouter } from '../src/main/ipc-router.js';
import { WebSocketBridge } from '../src/server/ws-bridge.js';
import { ROUTES } from '../src/shared/contract.js';
import { startAppHarness, type AppHarness } from './fixtures/app-engine.js';
import { WebClient } from './fixtures/web-client.js';

/**
 * Each transport parses a call's input once, at its edge: the IPC router for a window, dispatch for the
 * WebSocket. The route table is the contract's, with `sessions.list`'s real schema followed by a transform that
 * records each time it runs; the handlers are the real engine's.
 */
const parses: unknown[] = [];
const routes: RouteSchemas = {
  ...ROUTES,
  'sessions.list': { input: ROUTES['sessions.list'].input.transform((value) => (parses.push(value), value)) },
};

let app: AppHarness;
let http: Server;
let client: WebClient;
beforeAll(async () => {
  app = await startAppHarness([]);
  const bridge = new WebSocketBridge({ handlers: app.service.handlers, onInternalError: () => undefined, routes });
  const sockets = new WebSocketServer({ noServer: true });
  http = createServer();
  http.on('upgrade', (request, socket, head) => sockets.handleUpgrade(request, socket, head, (ws) => bridge.attach(ws)));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  client = await WebClient.connect(`ws://127.0.0.1:${(http.address() as AddressInfo).port}`);
});
afterAll(async () => {
  await client.close();
  await new Promise((resolve) => http.close(resolve));
  await app.close();
});
beforeEach(() => {
  parses.length = 0;
});

describe('one parse per call', () => {
  const router = () =>
    createIpcRouter({ routes, dispatch: (route, parsed) => dispatchParsed(app.service.handlers, route, parsed, { routes }), log: () => undefined });
  const window = { senderFrame: { url: 'app://hearth/index.html', parent: null } };

  // Catches the router handing on the raw input and dispatch parsing it again (a transform or default run twice).
  it('through the IPC router: the schema runs once and the handler gets its output', async () => {
    await expect(router()(window, 'sessions.list', { limit: 5 })).resolves.toEqual({ ok: true, output: [] });
    expect(parses).toEqual([{ limit: 5, offset: 0 }]);
  });

  it('through the WebSocket bridge: the schema runs once', async () => {
    await expect(client.call('sessions.list', { limit: 5 })).resolves.toMatchObject({ ok: true, output: [] });
    expect(parses).toEqual([{ limit: 5, offset: 0 }]);
  });

  // Catches the single parse losing the error a client acts on (the failing field, by path).
  it('bad input still gets invalid_input with its issues, on both paths', async () => {
    const viaIpc = await router()(window, 'sessions.list', { limit: 'ten' });
    const viaWs = await client.call('sessions.list', { limit: 'ten' });
    for (const reply of [viaIpc, viaWs]) {
      expect(reply).toMatchObject({ ok: false, error: { code: 'invalid_input', message: 'Invalid input for sessions.list.' } });
      if (!reply.ok) expect(reply.error.issues?.map((i) => i.path)).toEqual(['limit']);
    }
    expect(parses).toEqual([]);
  });

  // Catches dispatchParsed trusting the route name it is given (a handler lookup reaching an inherited property).
  it('dispatchParsed still refuses a name that is not a route', async () => {
    await expect(dispatchParsed(app.service.handlers, 'constructor', {})).resolves.toMatchObject({ ok: false, error: { code: 'unknown_route' } });
  });
});
