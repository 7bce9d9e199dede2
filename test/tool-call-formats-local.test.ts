/**
 * The local path picks its tool-call format from the GGUF: the model host reports the file's chat
 * template, architecture and name (a real host process and llama.cpp over a generated GGUF), and the
 * stream reads text in the format chosen from them once the model is loaded.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { LocalModel } from '../src/core/local-model/local.js';
import { withTextToolCalls } from '../src/core/llm/text-tool-calls.js';
import { chooseToolCallFormat, toolCallFormat, type ToolCallFormat } from '../src/core/llm/tool-call-formats/index.js';
import type { ModelEvent, ToolSchema } from '../src/core/llm/types.js';
import { modelDir, writeGguf } from './fixtures/gguf/index.js';

const dirs = modelDir();
afterAll(() => dirs.cleanup());

const tools: ToolSchema[] = [{ name: 'get_weather', description: '', parameters: { type: 'object', properties: { city: { type: 'string' } } } }];

async function collect(events: AsyncIterable<ModelEvent>): Promise<ModelEvent[]> {
  const out: ModelEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

describe('tool-call format of a local model', () => {
  it('the host reports the GGUF chat template, architecture and name, and they choose the format (catches a host that hides them)', async () => {
    const path = dirs.path('tiny.gguf');
    writeGguf(path, { preset: 'tiny' });
    const model = new LocalModel({ modelPath: path, threads: 1, gpu: false, contextSize: 2048, maxSessions: 1 });
    try {
      const events = await collect(model.stream({ messages: [{ role: 'user', content: 'hi' }], tools: [], maxTokens: 4, temperature: 0 }, new AbortController().signal));
      expect(events.at(-1)?.type).toBe('done');
      const hints = model.info()?.formatHints;
      expect(hints?.architecture).toBe('llama');
      expect(hints?.name).toBe('hearth-test-tiny');
      expect(hints?.chatTemplate).toContain('<|im_start|>');
      // A ChatML template without tool markers names no format: Hermes, which Hearth prompts for.
      expect(chooseToolCallFormat(hints ?? {}).format.name).toBe('hermes');
    } finally {
      await model.dispose();
    }
  });

  it('reads the text in the format known only once the model has loaded (catches choosing before load)', async () => {
    let chosen: ToolCallFormat | undefined;
    async function* host(): AsyncGenerator<ModelEvent> {
      chosen = toolCallFormat('llama3'); // what `loaded` would have told us
      for (const piece of ['<|python', '_tag|>{"name": "get_weather", ', '"parameters": {"city": "Oslo"}}', '<|eom_id|>']) yield { type: 'text', delta: piece };
      yield { type: 'done', finishReason: 'stop' };
    }
    const events = await collect(withTextToolCalls(host(), tools, { formats: () => [chosen ?? toolCallFormat('hermes')] }));
    expect(events.map((e) => e.type)).toEqual(['tool_call', 'done']);
    expect(events[0]).toMatchObject({ type: 'tool_call', call: { name: 'get_weather', arguments: '{"city":"Oslo"}' } });
    expect(events[1]).toEqual({ type: 'done', finishReason: 'tool_calls' });
  });

  it('without tools (or with toolChoice none) nothing becomes a call, but control tokens still leave the text', async () => {
    async function* host(): AsyncGenerator<ModelEvent> {
      yield { type: 'text', delta: '<|python_tag|>{"name": "get_weather", "parameters": {}}<|eom_id|>' };
      yield { type: 'done', finishReason: 'stop' };
    }
    const events = await collect(withTextToolCalls(host(), [], { formats: [toolCallFormat('llama3')] }));
    expect(events).toEqual([
      { type: 'text', delta: '{"name": "get_weather", "parameters": {}}' },
      { type: 'done', finishReason: 'stop' },
    ]);
  });
});
