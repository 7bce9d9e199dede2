/**
 * The model host speaks a validated protocol: junk gets an error reply and the host keeps serving.
 * Driven through the real child process with raw messages the typed client would never send.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelHostProcess } from '../src/core/local-model/local-process.js';
import type { HostEvent } from '../src/shared/model-host-protocol.js';
import { modelDir, writeGguf } from './fixtures/gguf/index.js';

const dirs = modelDir();
let host: ModelHostProcess;
const events: HostEvent[] = [];

/** Resolve with the first event (seen from now on) that matches. */
function next(match: (e: HostEvent) => boolean): Promise<HostEvent> {
  return new Promise((resolve, reject) => {
    const stop = host.subscribe((e) => {
      if (!match(e)) return;
      stop();
      resolve(e);
    });
    host.onExit((exit) => reject(new Error(`host exited: ${JSON.stringify(exit)}`)));
  });
}

beforeAll(() => {
  host = ModelHostProcess.start();
  host.subscribe((e) => events.push(e));
});

afterAll(async () => {
  await host?.stop();
  dirs.cleanup();
});

describe('model host protocol', () => {
  it('answers a message that is not an object with invalid_message and stays alive', async () => {
    // Catches: a host that crashes (or silently ignores) on input it cannot parse.
    const reply = next((e) => e.type === 'error');
    host.sendRaw('definitely not a message');
    expect(await reply).toMatchObject({ type: 'error', code: 'invalid_message' });
    expect(host.alive).toBe(true);
  });

  it('echoes the requestId of a malformed generate so the waiting stream can fail', async () => {
    // Catches: an error reply the client cannot route, leaving the caller's stream hanging.
    const reply = next((e) => e.type === 'error');
    host.sendRaw({ type: 'generate', requestId: 'r-bad', sessionKey: 's', messages: 'oops' });
    const error = await reply;
    expect(error).toMatchObject({ type: 'error', code: 'invalid_message', requestId: 'r-bad' });
    expect(error.type === 'error' && error.message).toContain('messages');
  });

  it('refuses to generate before a model is loaded', async () => {
    // Catches: a generate before load dereferencing an undefined model and killing the host.
    const reply = next((e) => e.type === 'error');
    host.send({ type: 'generate', requestId: 'r-early', sessionKey: 's', messages: [{ role: 'user', content: 'hi' }], tools: [], toolChoice: 'auto', maxTokens: 4, temperature: 0 });
    expect(await reply).toMatchObject({ code: 'not_loaded', requestId: 'r-early' });
  });

  it('after all that junk, loads a model and generates', async () => {
    // Catches: earlier invalid messages leaving the host in a broken state.
    const path = writeGguf(dirs.path('tiny.gguf'), { preset: 'tiny' }).path;
    const loaded = next((e) => e.type === 'loaded' || e.type === 'load_error');
    host.send({ type: 'load', modelPath: path, threads: 1, gpu: false, contextSize: 512 });
    expect(await loaded).toMatchObject({ type: 'loaded', info: { gpu: false, threads: 1 } });

    const done = next((e) => e.type === 'done' || e.type === 'error');
    host.send({ type: 'generate', requestId: 'r-ok', sessionKey: 's', messages: [{ role: 'user', content: 'hi' }], tools: [], toolChoice: 'auto', maxTokens: 4, temperature: 0 });
    expect(await done).toMatchObject({ type: 'done', requestId: 'r-ok' });
    expect(events.some((e) => e.type === 'usage' && e.requestId === 'r-ok' && e.usage.outputTokens > 0)).toBe(true);
  });

  it("rejects toolChoice 'required' without tools instead of generating unconstrained text", async () => {
    // Catches: a forced call with nothing to call, which would open a <tool_call> no grammar can close.
    const reply = next((e) => e.type === 'error' || e.type === 'done');
    host.send({ type: 'generate', requestId: 'r-req', sessionKey: 's', messages: [{ role: 'user', content: 'hi' }], tools: [], toolChoice: 'required', maxTokens: 4, temperature: 0 });
    expect(await reply).toMatchObject({ type: 'error', code: 'invalid_message', requestId: 'r-req' });
    expect(host.alive).toBe(true);
  });
});
