import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openAppService } from '../src/core/app/open-app-service.js';
import { SwitchableModel } from '../src/core/llm/switchable-model.js';
import type { ChatRequest, ModelEvent } from '../src/core/llm/types.js';
import type { UiEvent } from '../src/shared/contract.js';
import { startAppHarness, type AppHarness } from './fixtures/app-engine.js';
import { writeGguf } from './fixtures/gguf/index.js';
import { ScriptedModel } from './fixtures/scripted-model.js';
import { startScriptedOpenAIServer } from './fixtures/scripted-openai-server.js';
import type { ScriptedServer } from './fixtures/scripted-turns.js';

/** A ScriptedModel that records when it is disposed. */
class DisposableModel extends ScriptedModel {
  disposed = 0;
  async dispose(): Promise<void> {
    this.disposed += 1;
  }
}

const request: ChatRequest = { messages: [{ role: 'user', content: 'hi' }], tools: [] };

async function drain(events: AsyncIterable<ModelEvent>): Promise<string> {
  let text = '';
  for await (const event of events) if (event.type === 'text') text += event.delta;
  return text;
}

describe('SwitchableModel', () => {
  // Catches a swap that cuts off the response in flight, or that leaks (or kills early) the old model's process.
  it('sends new requests to the new model; a stream in flight ends on the old one, which is then disposed', async () => {
    const old = new DisposableModel([{ text: 'old answer', delayMs: 30 }], 'openai:old');
    const next = new DisposableModel([{ text: 'new answer' }], 'openai:new');
    const model = new SwitchableModel(old);
    const inFlight = drain(model.stream(request, new AbortController().signal));
    await new Promise((resolve) => setTimeout(resolve, 10));
    await model.swap(next);
    expect(model.id).toBe('openai:new');
    expect(old.disposed).toBe(0);
    expect(await inFlight).toBe('old answer');
    expect(old.disposed).toBe(1);
    expect(await drain(model.stream(request, new AbortController().signal))).toBe('new answer');
    await model.dispose();
    expect(next.disposed).toBe(1);
    expect(old.disposed).toBe(1);
  });

  it('disposes an idle old model at once', async () => {
    const old = new DisposableModel([], 'openai:old');
    const model = new SwitchableModel(old);
    await model.swap(new DisposableModel([], 'openai:new'));
    expect(old.disposed).toBe(1);
  });
});

/**
 * Through the app: choosing another model in settings (or downloading one) takes effect for the next message,
 * without a restart. Catches onboarding that "ends in a working chat" only after the user restarts Hearth.
 */
describe('changing the model while Hearth runs', () => {
  let app: AppHarness | null = null;
  const servers: ScriptedServer[] = [];
  afterEach(async () => {
    await app?.close();
    app = null;
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });

  async function chat(harness: AppHarness, text: string): Promise<string> {
    const from = harness.events.length;
    const { sessionId } = await harness.service.handlers['chat.start']({});
    await harness.service.handlers['chat.send']({ sessionId, text, attachments: [] });
    await expect.poll(() => harness.events.slice(from).some((e) => e.channel === 'agent' && e.event.type === 'turn_end')).toBe(true);
    const end = harness.events.slice(from).find((e) => e.channel === 'agent' && e.event.type === 'turn_end');
    return end?.channel === 'agent' && end.event.type === 'turn_end' ? end.event.final : '';
  }

  it('a provider and default model saved in settings answer the next message', async () => {
    app = await startAppHarness([{ text: 'from the first provider' }]);
    const second = await startScriptedOpenAIServer([{ text: 'from the second provider' }]);
    servers.push(second);
    expect(await chat(app, 'hello')).toBe('from the first provider');

    await app.service.handlers['settings.update']({ provider: { name: 'second', type: 'openai', baseUrl: second.url } });
    await app.service.handlers['settings.update']({ defaultModel: 'second:m' });
    expect(await chat(app, 'hello again')).toBe('from the second provider');
    expect(second.requests).toHaveLength(1);
    const status = app.events.filter((e): e is Extract<UiEvent, { channel: 'status' }> => e.channel === 'status').at(-1)?.status;
    expect(status?.model).toBe('second:m');
  });

  it('a missing local model needs setup until a GGUF file is chosen, then it does not', async () => {
    app = await startAppHarness([], { model: 'local:models/hermes.gguf' });
    expect((await app.service.handlers['app.status']({})).needsSetup).toBe(true);
    mkdirSync(join(app.home, 'models'), { recursive: true });
    writeGguf(join(app.home, 'models', 'hermes.gguf'));
    // The surfaces' service (with the real model manager): "use this model" after a download.
    const surface = openAppService(app.engine, { source: 'web', env: app.env });
    try {
      await surface.handlers['models.use']({ path: join(app.home, 'models', 'hermes.gguf') });
      expect((await surface.handlers['app.status']({})).needsSetup).toBe(false);
    } finally {
      await surface.dispose();
    }
    expect(app.engine.models.chat.id).toBe(`local:${join(app.home, 'models', 'hermes.gguf')}`);
    expect(app.events.some((e) => e.channel === 'status' && !e.status.needsSetup)).toBe(true);
  });
});
