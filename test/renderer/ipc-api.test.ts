// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { ApiCallError } from '../../src/renderer/api/api-error.js';
import { ipcApi, pickApi, type PreloadApi } from '../../src/renderer/api/pick-api.js';
import type { UiEvent } from '../../src/shared/contract.js';

/**
 * The desktop transport. Electron's contextBridge keeps only `message` of a thrown Error, so the renderer must
 * read errors from `invokeResult`'s plain reply; these tests catch a regression to plain `invoke`, which would
 * make every failure look code-less in the app while web mode (and its tests) still worked.
 */
function preload(reply: Awaited<ReturnType<PreloadApi['invokeResult']>>, seen: unknown[] = []): PreloadApi {
  const listeners: ((event: UiEvent) => void)[] = [];
  return {
    invoke: () => Promise.reject(new Error('the renderer must not call invoke: its error code would be lost')),
    invokeResult: (route, input) => {
      seen.push([route, input]);
      return Promise.resolve(reply);
    },
    onEvent: (listener) => {
      listeners.push(listener);
      return () => listeners.splice(listeners.indexOf(listener), 1);
    },
  };
}

afterEach(() => {
  delete window.hearth;
});

describe('ipcApi', () => {
  it('returns the output of a successful call', async () => {
    const seen: unknown[] = [];
    window.hearth = preload({ ok: true, output: { sessionId: 's1' } }, seen);
    await expect(ipcApi().invoke('chat.start', {})).resolves.toEqual({ sessionId: 's1' });
    expect(seen).toEqual([['chat.start', {}]]);
  });

  it('keeps the error code and issues of a refused call', async () => {
    window.hearth = preload({ ok: false, error: { code: 'invalid_input', message: 'bad', issues: [{ path: 'text', message: 'too long' }] } });
    const failure = await ipcApi().invoke('chat.send', { sessionId: 's1', text: 'x' }).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(ApiCallError);
    expect(failure).toMatchObject({ code: 'invalid_input', issues: [{ path: 'text', message: 'too long' }] });
  });

  it('is what pickApi chooses when the preload ran', () => {
    window.hearth = preload({ ok: true, output: null });
    expect(pickApi().kind).toBe('ipc');
  });
});
