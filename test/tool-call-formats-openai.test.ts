/**
 * The OpenAI-compatible path end to end: a local server speaking the real SSE protocol returns model
 * output in the content, as a llama-server or Ollama without a tool-call template does. Native
 * `tool_calls` still come first; calls in the content are read in whichever format's markers appear.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { OpenAICompatibleModel } from '../src/core/llm/providers/openai.js';
import type { ModelEvent, ToolSchema } from '../src/core/llm/types.js';
import { startScriptedOpenAIServer } from './fixtures/scripted-openai-server.js';
import { collectEvents, type ScriptedServer } from './fixtures/scripted-turns.js';

const TOOLS: ToolSchema[] = [
  { name: 'get_stock_fundamentals', description: 'Fundamentals of a stock', parameters: { type: 'object', properties: { symbol: { type: 'string' } } } },
  { name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } } } },
];

const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function ask(content: string, chunkChars: number): Promise<ModelEvent[]> {
  const server = await startScriptedOpenAIServer([{ text: content, usage: { input: 10, output: 20 } }], { chunkChars });
  servers.push(server);
  const model = new OpenAICompatibleModel({ id: 'openai:local', baseUrl: server.url, model: 'local', retryBaseDelayMs: 1 });
  return collectEvents(model.stream({ messages: [{ role: 'user', content: 'go' }], tools: TOOLS }, new AbortController().signal));
}

const text = (events: ModelEvent[]): string => events.flatMap((e) => (e.type === 'text' ? [e.delta] : [])).join('');
const calls = (events: ModelEvent[]) => events.flatMap((e) => (e.type === 'tool_call' ? [{ name: e.call.name, args: JSON.parse(e.call.arguments) as unknown }] : []));

describe('calls in the content of an OpenAI-compatible stream', () => {
  it("Hermes' README output (a Python dict, then <|im_end|>) becomes the call, with nothing on screen (issue 12)", async () => {
    for (const chunkChars of [1, 4, 7]) {
      const events = await ask("<tool_call>\n{'arguments': {'symbol': 'TSLA'}, 'name': 'get_stock_fundamentals'}\n</tool_call><|im_end|>", chunkChars);
      expect(calls(events)).toEqual([{ name: 'get_stock_fundamentals', args: { symbol: 'TSLA' } }]);
      expect(text(events)).toBe('');
      expect(events.at(-1)).toEqual({ type: 'done', finishReason: 'tool_calls' });
    }
  });

  it('the formats of other families, each recognised by its markers', async () => {
    const outputs = [
      '<|python_tag|>{"name": "get_weather", "parameters": {"city": "Oslo", "days": 2}}<|eom_id|>',
      '[TOOL_CALLS]get_weather[ARGS]{"city": "Oslo", "days": 2}',
      '<tool_call>\n<function=get_weather>\n<parameter=city>\nOslo\n</parameter>\n<parameter=days>\n2\n</parameter>\n</function>\n</tool_call>',
      '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{"city": "Oslo", "days": 2}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜><｜end▁of▁sentence｜>',
      '<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Oslo</arg_value>\n<arg_key>days</arg_key>\n<arg_value>2</arg_value>\n</tool_call>',
    ];
    for (const output of outputs) {
      const events = await ask(output, 3);
      expect(calls(events), output).toEqual([{ name: 'get_weather', args: { city: 'Oslo', days: 2 } }]);
      expect(text(events), output).toBe('');
    }
  });

  it('plain answers keep their text, minus a trailing end-of-turn token', async () => {
    const events = await ask('It is sunny in Oslo.<|eot_id|>', 2);
    expect(text(events)).toBe('It is sunny in Oslo.');
    expect(calls(events)).toEqual([]);
    expect(events.at(-1)).toEqual({ type: 'done', finishReason: 'stop' });
  });
});
