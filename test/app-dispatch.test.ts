import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatch } from '../src/core/app/dispatch.js';
import { INTERNAL_MESSAGE } from '../src/core/app/errors.js';
import { HearthError } from '../src/core/errors.js';
import type { RouteHandlers } from '../src/shared/contract.js';
import { startAppHarness, type AppHarness } from './fixtures/app-engine.js';

/** `dispatch`: the one entry both transports use. Real handlers over a real engine, one failure mode per test. */
let app: AppHarness;
beforeAll(async () => {
  app = await startAppHarness([]);
});
afterAll(() => app.close());

describe('dispatch', () => {
  // Catches a transport that lets a client call arbitrary properties (e.g. "constructor", "__proto__").
  it('refuses a route that is not in the contract, including inherited property names', async () => {
    for (const route of ['no.such.route', 'constructor', '__proto__', 42]) {
      const result = await dispatch(app.service.handlers, route, {});
      expect(result).toMatchObject({ ok: false, error: { code: 'unknown_route' } });
    }
  });

  // Catches handlers being called with unparsed input (a crash, or a wrong type reaching SQLite).
  it('parses input with the route schema and lists each problem with its path', async () => {
    const result = await dispatch(app.service.handlers, 'sessions.list', { limit: 'ten', extra: true });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('invalid_input');
    const paths = result.error.issues?.map((i) => i.path) ?? [];
    expect(paths).toContain('limit');
    expect(result.error.issues?.some((i) => /extra/.test(i.message))).toBe(true);
  });

  it('applies schema defaults, and treats a missing input as {} for routes that take none', async () => {
    await expect(dispatch(app.service.handlers, 'sessions.list', undefined)).resolves.toEqual({ ok: true, output: [] });
    await expect(dispatch(app.service.handlers, 'memory.list', undefined)).resolves.toMatchObject({ ok: true });
  });

  // Catches engine errors reaching a UI without a contract code (the UI could not branch on them).
  it('maps HearthError codes onto the contract codes and keeps their actionable message', async () => {
    const missing = await dispatch(app.service.handlers, 'sessions.open', { sessionId: 'nope' });
    expect(missing).toMatchObject({ ok: false, error: { code: 'not_found', message: expect.stringContaining('nope') } });
    const full = await dispatch({ ...app.service.handlers, 'memory.add': () => Promise.reject(new HearthError('memory_full', 'Memory is at 2,190/2,200 chars.')) }, 'memory.add', { target: 'memory', content: 'x' });
    expect(full).toEqual({ ok: false, error: { code: 'conflict', message: 'Memory is at 2,190/2,200 chars.' } });
  });

  // Catches a stack trace, a path or a secret in an unexpected error's text leaking to the UI.
  it('turns an unexpected error into "internal" with a fixed message and hands the original to the log', async () => {
    const logged: unknown[] = [];
    const handlers: RouteHandlers = { ...app.service.handlers, 'app.status': () => Promise.reject(new Error('sk-live-SECRET at /home/me/.hearth/state.db')) };
    const result = await dispatch(handlers, 'app.status', {}, { onInternalError: (err) => logged.push(err) });
    expect(result).toEqual({ ok: false, error: { code: 'internal', message: INTERNAL_MESSAGE } });
    expect(JSON.stringify(result)).not.toContain('SECRET');
    expect(logged).toHaveLength(1);
  });

  it('routes the injected model handlers, whose refusal arrives as a typed error', async () => {
    await expect(dispatch(app.service.handlers, 'models.list', {})).resolves.toMatchObject({ ok: false, error: { code: 'unavailable' } });
  });
});
