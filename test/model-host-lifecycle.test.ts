/**
 * The model host's lifecycle lock, driven in process (real llama.cpp over generated GGUFs, the host's
 * own `handle`), so what it holds is observable: an unload waits for running generations before it
 * disposes their context, a generate that arrives during a load waits for it, shutdown waits too, and
 * ended sessions give their sequences back. The embedding host takes the same lock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbedHost } from '../src/model-host/embed-host.js';
import { ModelHost } from '../src/model-host/model-host.js';
import type { EmbedHostEvent } from '../src/shared/embed-host-protocol.js';
import type { GenerateRequest, HostEvent } from '../src/shared/model-host-protocol.js';
import { modelDir, writeGguf } from './fixtures/gguf/index.js';

const dirs = modelDir();
let pathA: string;
let pathB: string;

beforeAll(() => {
  pathA = writeGguf(dirs.path('a.gguf'), { preset: 'tiny', seed: 1 }).path;
  pathB = writeGguf(dirs.path('b.gguf'), { preset: 'tiny', seed: 2 }).path;
});
afterAll(() => dirs.cleanup());

interface Harness {
  host: ModelHost;
  events: HostEvent[];
  exits: number[];
  /** The first event from now on that matches. */
  next(match: (e: HostEvent) => boolean): Promise<HostEvent>;
  /** The last event of a request: done or error. */
  end(requestId: string): Promise<HostEvent>;
}

const hosts: ModelHost[] = [];

function harness(): Harness {
  const events: HostEvent[] = [];
  const waiters = new Set<(e: HostEvent) => void>();
  const exits: number[] = [];
  const host = new ModelHost(
    {
      postMessage: (event) => {
        events.push(event);
        for (const w of [...waiters]) w(event);
      },
      onMessage: () => undefined,
    },
    { exit: (code) => exits.push(code) },
  );
  hosts.push(host);
  const next = (match: (e: HostEvent) => boolean): Promise<HostEvent> =>
    new Promise((resolve) => {
      const waiter = (e: HostEvent): void => {
        if (!match(e)) return;
        waiters.delete(waiter);
        resolve(e);
      };
      waiters.add(waiter);
    });
  const end = (requestId: string): Promise<HostEvent> => {
    const already = events.find((e) => 'requestId' in e && e.requestId === requestId && (e.type === 'done' || e.type === 'error'));
    return already ? Promise.resolve(already) : next((e) => 'requestId' in e && e.requestId === requestId && (e.type === 'done' || e.type === 'error'));
  };
  return { host, events, exits, next, end };
}

afterAll(async () => {
  await Promise.all(hosts.map((h) => h.shutdown()));
});

function generate(requestId: string, sessionKey: string, maxTokens: number, extra: Partial<GenerateRequest> = {}): GenerateRequest {
  return { type: 'generate', requestId, sessionKey, messages: [{ role: 'user', content: `Write a long story (${requestId}).` }], tools: [], toolChoice: 'auto', maxTokens, temperature: 0.8, seed: 7, ...extra };
}

async function load(h: Harness, modelPath: string, maxSessions = 2): Promise<void> {
  const loaded = h.next((e) => e.type === 'loaded' || e.type === 'load_error');
  h.host.handle({ type: 'load', modelPath, threads: 1, gpu: false, contextSize: 1024, maxSessions });
  expect(await loaded).toMatchObject({ type: 'loaded' });
}

describe('model host lifecycle', () => {
  it('loading another model while one generates stops that generation, waits for it, then frees its sequences', async () => {
    // Catches: unload disposing the context under a running evaluation (a native crash or a use-after-free),
    // or a generation aborted by an unload reported as if the user had pressed stop.
    const h = harness();
    await load(h, pathA);
    h.host.handle(generate('long', 's1', 3000));
    await h.next((e) => e.type === 'text' && e.requestId === 'long');
    expect(h.host.state().sessions).toEqual([expect.objectContaining({ sessionKey: 's1', busy: true })]);

    const loadedB = h.next((e) => e.type === 'loaded');
    h.host.handle({ type: 'load', modelPath: pathB, threads: 1, gpu: false, contextSize: 1024, maxSessions: 2 });
    const ended = await h.end('long');
    expect(ended).toMatchObject({ type: 'error', code: 'not_loaded' });
    expect(ended.type === 'error' && ended.message).toMatch(/unloaded while this response was generating/);
    await loadedB;
    // The generation's last event came before the new model was reported: the unload waited for it.
    expect(h.events.indexOf(ended)).toBeLessThan(h.events.findIndex((e) => e.type === 'loaded' && h.events.indexOf(e) > h.events.indexOf(ended)));
    expect(h.host.state()).toMatchObject({ modelPath: pathB, requests: 0, sessions: [] });

    h.host.handle(generate('after', 's1', 4));
    expect(await h.end('after')).toMatchObject({ type: 'done' });
  });

  it('a generate that arrives while the model is loading waits for the load instead of failing or racing it', async () => {
    // Catches: generate reading `loaded` before the load it followed has finished (not_loaded for no reason).
    const h = harness();
    h.host.handle({ type: 'load', modelPath: pathA, threads: 1, gpu: false, contextSize: 1024 });
    h.host.handle(generate('early', 's', 4));
    expect(await h.end('early')).toMatchObject({ type: 'done', requestId: 'early' });
    const loadedAt = h.events.findIndex((e) => e.type === 'loaded');
    expect(loadedAt).toBeGreaterThanOrEqual(0);
    expect(loadedAt).toBeLessThan(h.events.findIndex((e) => 'requestId' in e && e.requestId === 'early'));
  });

  it('abort then shutdown while generating: the generation settles before anything is disposed, and the host exits 0', async () => {
    // Catches: shutdown disposing the model while a generation is still decoding, or exiting before it says done.
    const h = harness();
    await load(h, pathA);
    h.host.handle(generate('g', 's', 3000));
    await h.next((e) => e.type === 'text' && e.requestId === 'g');
    h.host.handle({ type: 'abort', requestId: 'g' });
    const shutdown = h.host.shutdown();
    h.host.handle(generate('late', 's', 4));
    await shutdown;
    expect(await h.end('g')).toMatchObject({ type: 'done', finishReason: 'aborted' });
    expect(await h.end('late')).toMatchObject({ type: 'error', code: 'not_loaded' });
    expect(h.exits).toEqual([0]);
    expect(h.host.state()).toMatchObject({ modelPath: undefined, requests: 0, sessions: [], closing: true });
  });

  it('release_session clears an idle session at once, and a generating one as soon as its generation ends', async () => {
    // Catches: a released session keeping its KV cache (its slot stays taken until evicted), or a
    // release during generation silently ignored.
    const h = harness();
    await load(h, pathA);
    h.host.handle(generate('idle', 'a', 4));
    await h.end('idle');
    expect(h.host.state().sessions).toEqual([{ sessionKey: 'a', busy: false, tokens: expect.any(Number) }]);
    expect(h.host.state().sessions[0]?.tokens).toBeGreaterThan(0);
    h.host.handle({ type: 'release_session', sessionKey: 'a' });
    await h.host.lifecycleIdle();
    expect(h.host.state().sessions).toEqual([{ sessionKey: undefined, busy: false, tokens: 0 }]);

    h.host.handle(generate('busy', 'b', 3000));
    await h.next((e) => e.type === 'text' && e.requestId === 'busy');
    h.host.handle({ type: 'release_session', sessionKey: 'b' });
    h.host.handle({ type: 'abort', requestId: 'busy' });
    await h.end('busy');
    await h.host.lifecycleIdle();
    expect(h.host.state().sessions.every((s) => s.sessionKey === undefined && !s.busy && s.tokens === 0)).toBe(true);
  });

  it('two sessions reaching for the last idle slot together: one gets it, the other is told busy', async () => {
    // Catches: eviction claiming the slot only after its await, so two sessions generated on one sequence.
    const h = harness();
    await load(h, pathA, 1);
    h.host.handle(generate('first', 'x', 2));
    await h.end('first');
    h.host.handle(generate('y1', 'y', 200));
    h.host.handle(generate('z1', 'z', 200));
    const [y, z] = await Promise.all([h.end('y1'), h.end('z1')]);
    expect([y, z].map((e) => (e.type === 'error' ? e.code : e.type)).sort()).toEqual(['busy', 'done']);
  });
});

describe('embedding host lifecycle', () => {
  function embedHarness(): { host: EmbedHost; events: EmbedHostEvent[]; exits: number[]; next: (match: (e: EmbedHostEvent) => boolean) => Promise<EmbedHostEvent> } {
    const events: EmbedHostEvent[] = [];
    const waiters = new Set<(e: EmbedHostEvent) => void>();
    const exits: number[] = [];
    const host = new EmbedHost(
      {
        postMessage: (event) => {
          events.push(event);
          for (const w of [...waiters]) w(event);
        },
        onMessage: () => undefined,
      },
      { exit: (code) => exits.push(code) },
    );
    const next = (match: (e: EmbedHostEvent) => boolean): Promise<EmbedHostEvent> =>
      new Promise((resolve) => {
        const already = events.find(match);
        if (already) return resolve(already);
        const waiter = (e: EmbedHostEvent): void => {
          if (!match(e)) return;
          waiters.delete(waiter);
          resolve(e);
        };
        waiters.add(waiter);
      });
    return { host, events, exits, next };
  }
  const forRequest = (requestId: string) => (e: EmbedHostEvent) => 'requestId' in e && e.requestId === requestId;

  it('an embed sent right after load waits for it; shutdown during an embed waits for it to stop, then exits 0', async () => {
    // Catches: an embed failing not_loaded because the load it followed had not finished, or shutdown
    // disposing the embedding context under a running evaluation.
    const h = embedHarness();
    h.host.handle({ type: 'load', modelPath: pathA, threads: 1, gpu: false, contextSize: 512 });
    h.host.handle({ type: 'embed', requestId: 'e1', texts: ['hello'] });
    expect(await h.next(forRequest('e1'))).toMatchObject({ type: 'embedded', requestId: 'e1' });

    h.host.handle({ type: 'embed', requestId: 'e2', texts: Array.from({ length: 64 }, (_, i) => `text ${i} `.repeat(40)) });
    await new Promise((resolve) => setTimeout(resolve, 20));
    await h.host.shutdown();
    const ended = await h.next(forRequest('e2'));
    // It either finished before the shutdown reached it or was stopped; it never outlived the model.
    expect(ended.type === 'embedded' || (ended.type === 'error' && ended.code === 'not_loaded')).toBe(true);
    expect(h.events.indexOf(ended)).toBeGreaterThanOrEqual(0);
    expect(h.exits).toEqual([0]);
    h.host.handle({ type: 'embed', requestId: 'e3', texts: ['late'] });
    expect(await h.next(forRequest('e3'))).toMatchObject({ type: 'error', code: 'not_loaded' });
  });
});
