import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../src/shared/contract.js';
import { SHELL_ROUTES } from '../../src/shared/shell-contract.js';
import { createIpcRouter, senderProblem, type DispatchResult, type InvokeEventLike } from '../../src/main/ipc-router.js';

/**
 * The IPC router is the only way a window reaches the engine. These tests drive it with the same
 * (event, route, input) arguments Electron's ipcMain.handle passes; the event is a plain object with the
 * two WebFrameMain fields the check reads (Electron itself cannot run here).
 */

const topFrame = (url: string): InvokeEventLike => ({ senderFrame: { url, parent: null } });
const subFrame = (url: string): InvokeEventLike => ({ senderFrame: { url, parent: { url: 'app://hearth/index.html', parent: null } } });

function harness() {
  const calls: { route: string; input: unknown }[] = [];
  const logs: string[] = [];
  const router = createIpcRouter({
    routes: ROUTES,
    dispatch: async (route, input): Promise<DispatchResult> => {
      calls.push({ route, input });
      return { ok: true, output: { sessionId: 'from-dispatch' } };
    },
    log: (m) => logs.push(m),
  });
  return { router, calls, logs };
}

describe('IPC router: sender check', () => {
  it('passes a well-formed call from the app top frame through to dispatch, unchanged', async () => {
    const { router, calls } = harness();
    const reply = await router(topFrame('app://hearth/index.html?view=quick-prompt'), 'chat.start', { title: 'hi' });
    expect(reply).toEqual({ ok: true, output: { sessionId: 'from-dispatch' } });
    expect(calls).toEqual([{ route: 'chat.start', input: { title: 'hi' } }]);
  });

  // Bug caught: an iframe (e.g. an injected one inside rendered content) calling the engine.
  it('refuses a sub-frame of the app page', async () => {
    const { router, calls } = harness();
    const reply = await router(subFrame('app://hearth/frame.html'), 'chat.start', {});
    expect(reply).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(calls).toEqual([]);
  });

  // Bug caught: a window navigated to another origin keeping the preload's powers.
  it.each([
    ['https://evil.example/index.html'],
    ['file:///home/user/index.html'],
    ['app://other/index.html'],
    ['app://hearth.evil/index.html'],
    ['app://hearth:8080/index.html'],
    ['app://user:pw@hearth/index.html'],
    ['http://hearth/index.html'],
    ['not a url'],
    [''],
  ])('refuses a top frame at %j', async (url) => {
    const { router, calls } = harness();
    const reply = await router(topFrame(url), 'sessions.list', {});
    expect(reply).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(calls).toEqual([]);
  });

  it('refuses a sender whose frame is gone (senderFrame null)', async () => {
    const { router, calls } = harness();
    expect(await router({ senderFrame: null }, 'sessions.list', {})).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(calls).toEqual([]);
  });

  // Bug caught: secrets (an API key being saved) ending up in logs when a call is refused.
  it('logs a refusal with the origin only, never the payload or the full frame URL', async () => {
    const { router, logs } = harness();
    await router(topFrame('https://evil.example/steal?token=abc123'), 'secrets.setApiKey', { provider: 'openai', key: 'sk-SECRET-VALUE' });
    expect(logs).toHaveLength(1);
    expect(logs[0]).toContain('https://evil.example');
    expect(logs[0]).not.toContain('sk-SECRET-VALUE');
    expect(logs[0]).not.toContain('abc123');
  });

  it('senderProblem names the reason', () => {
    expect(senderProblem({ url: 'app://hearth/', parent: null })).toBeNull();
    expect(senderProblem({ url: 'app://hearth/', parent: {} })).toMatch(/sub-frame/);
    expect(senderProblem({ url: 'https://a.example/', parent: null })).toMatch(/https:\/\/a\.example/);
  });
});

describe('IPC router: malformed payloads', () => {
  const app = topFrame('app://hearth/index.html');

  it.each([
    ['an unknown route', ['no.such.route', {}], 'unknown_route'],
    ['a non-string route', [42, {}], 'unknown_route'],
    ['a prototype key as route', ['constructor', {}], 'unknown_route'],
    ['a missing required field', ['chat.send', { text: 'hi' }], 'invalid_input'],
    ['a wrong type', ['sessions.list', { limit: 'ten' }], 'invalid_input'],
    ['an extra key on a strict schema', ['chat.interrupt', { sessionId: 's', extra: true }], 'invalid_input'],
    ['input that is not an object', ['chat.steer', 'text'], 'invalid_input'],
    ['no arguments at all', [], 'invalid_input'],
    ['too many arguments', ['sessions.list', {}, 'third'], 'invalid_input'],
  ])('%s → typed %s error, dispatch not called', async (_name, args, code) => {
    const { router, calls } = harness();
    const reply = await router(app, ...(args as unknown[]));
    expect(reply).toMatchObject({ ok: false, error: { code } });
    expect(calls).toEqual([]);
  });

  it('an invalid input lists the failing field', async () => {
    const { router } = harness();
    const reply = await router(app, 'chat.send', { sessionId: 's' });
    expect(reply.ok).toBe(false);
    if (!reply.ok) expect(reply.error.issues?.map((i) => i.path)).toContain('text');
  });

  // Bug caught: a throwing dispatch crashing the handler, and Electron sending the raw stack to the page.
  it('a dispatch that throws becomes an internal error, logged, without the message reaching the window', async () => {
    const logs: string[] = [];
    const router = createIpcRouter({
      routes: ROUTES,
      dispatch: async () => {
        throw new Error('disk exploded at /home/user/.hearth/state.db');
      },
      log: (m) => logs.push(m),
    });
    const reply = await router(app, 'sessions.list', {});
    expect(reply).toMatchObject({ ok: false, error: { code: 'internal' } });
    expect(JSON.stringify(reply)).not.toContain('/home/user');
    expect(logs.join('\n')).toContain('disk exploded');
  });

  it('checks shell routes against the shell contract', async () => {
    const calls: string[] = [];
    const router = createIpcRouter({
      routes: SHELL_ROUTES,
      dispatch: async (route) => {
        calls.push(route);
        return { ok: true, output: { ok: true } };
      },
      log: () => undefined,
    });
    expect(await router(app, 'chat.start', {})).toMatchObject({ ok: false, error: { code: 'unknown_route' } });
    expect(await router(app, 'quickPrompt.continueInMain', { sessionId: '' })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(await router(app, 'quickPrompt.continueInMain', { sessionId: 's1' })).toEqual({ ok: true, output: { ok: true } });
    expect(calls).toEqual(['quickPrompt.continueInMain']);
  });
});
