import { describe, expect, it } from 'vitest';
import { TextToolCallExtractor, withTextToolCalls, type ExtractedEvent } from '../src/core/llm/text-tool-calls.js';
import type { ModelEvent, ToolSchema } from '../src/core/llm/types.js';

const TOOL_NAMES = ['read_file', 'terminal'];

/** Feed `text` in pieces of `size` characters (1 = every possible split point). */
function extract(text: string, size = text.length): ExtractedEvent[] {
  const extractor = new TextToolCallExtractor(TOOL_NAMES);
  const out: ExtractedEvent[] = [];
  for (let i = 0; i < text.length; i += size) out.push(...extractor.push(text.slice(i, i + size)));
  out.push(...extractor.end());
  return out;
}

const textOf = (events: ExtractedEvent[]) => events.flatMap((e) => (e.type === 'text' ? [e.delta] : [])).join('');
const callsOf = (events: ExtractedEvent[]) => events.flatMap((e) => (e.type === 'tool_call' ? [{ name: e.call.name, args: e.call.arguments }] : []));

describe('text tool-call extraction', () => {
  it('turns a <tool_call> block into a call and keeps the surrounding text, at every split point (catches tag-boundary bugs)', () => {
    const content = 'Let me look.\n<tool_call>\n{"name": "read_file", "arguments": {"path": "notes.md"}}\n</tool_call>\nDone.';
    for (const size of [1, 2, 3, 5, 7, content.length]) {
      const events = extract(content, size);
      expect(textOf(events)).toBe('Let me look.\n\nDone.');
      expect(callsOf(events)).toEqual([{ name: 'read_file', args: '{"path":"notes.md"}' }]);
    }
  });

  it('extracts several blocks in order, each with its own id (catches only the first call being run)', () => {
    const events = extract(
      '<tool_call>{"name":"terminal","arguments":{"command":"ls"}}</tool_call><tool_call>{"name":"read_file","arguments":{"path":"a"}}</tool_call>',
      4,
    );
    expect(callsOf(events).map((c) => c.name)).toEqual(['terminal', 'read_file']);
    const ids = events.flatMap((e) => (e.type === 'tool_call' ? [e.call.id] : []));
    expect(new Set(ids).size).toBe(2);
    expect(textOf(events)).toBe('');
  });

  it('recognises a whole response that is a bare JSON call, plain or in a ```json fence', () => {
    expect(callsOf(extract('  {"name": "terminal", "arguments": {"command": "pwd"}}\n', 3))).toEqual([{ name: 'terminal', args: '{"command":"pwd"}' }]);
    const fenced = extract('```json\n{"name": "read_file", "arguments": {"path": "x"}}\n```', 2);
    expect(callsOf(fenced)).toEqual([{ name: 'read_file', args: '{"path":"x"}' }]);
    expect(textOf(fenced)).toBe('');
  });

  it('leaves calls to tools the request does not have as text (catches executing hallucinated tools from prose)', () => {
    const block = 'Example: <tool_call>{"name": "delete_everything", "arguments": {}}</tool_call>';
    const events = extract(block, 3);
    expect(textOf(events)).toBe(block);
    expect(callsOf(events)).toEqual([]);
    const bare = '{"name": "delete_everything", "arguments": {"x": 1}}';
    expect(extract(bare, 5)).toEqual([{ type: 'text', delta: bare }]);
  });

  it('still emits a call with the raw text as arguments when the JSON inside <tool_call> is invalid (catches silently dropped calls)', () => {
    const events = extract('<tool_call>{"name": "read_file", "arguments": {"path": "a"</tool_call>', 6);
    expect(callsOf(events)).toEqual([{ name: 'read_file', args: '{"name": "read_file", "arguments": {"path": "a"' }]);
    expect(textOf(events)).toBe('');
  });

  it('treats an unclosed block at the end of the stream as a call attempt (a server that stops on </tool_call>)', () => {
    expect(callsOf(extract('<tool_call>{"name":"terminal","arguments":{"command":"date"}}', 4))).toEqual([
      { name: 'terminal', args: '{"command":"date"}' },
    ]);
  });

  it('does not hold back ordinary answers that start like JSON (catches a frozen stream for `{` answers)', () => {
    const extractor = new TextToolCallExtractor(TOOL_NAMES);
    expect(extractor.push('{ x: 1 } is not JSON')).toEqual([{ type: 'text', delta: '{ x: 1 } is not JSON' }]);
    const answer = new TextToolCallExtractor(TOOL_NAMES);
    expect(answer.push('{"answer": 42}')).toEqual([]); // could still be a call: held
    expect(answer.push(' is the result')).toEqual([{ type: 'text', delta: '{"answer": 42} is the result' }]);
    expect(extract('{"answer": 42}')).toEqual([{ type: 'text', delta: '{"answer": 42}' }]);
  });

  it('streams plain text through without waiting for the end, holding back only a possible tag start', () => {
    const extractor = new TextToolCallExtractor(TOOL_NAMES);
    expect(extractor.push('Hello wor')).toEqual([{ type: 'text', delta: 'Hello wor' }]);
    expect(extractor.push('ld <tool')).toEqual([{ type: 'text', delta: 'ld ' }]);
    expect(extractor.push('box> done')).toEqual([{ type: 'text', delta: '<toolbox> done' }]);
  });

  it('as a stream wrapper: calls replace their text and a `stop` finish becomes `tool_calls`', async () => {
    const tools: ToolSchema[] = [{ name: 'read_file', description: '', parameters: {} }];
    async function* source(): AsyncGenerator<ModelEvent> {
      for (const piece of ['Sure. <tool', '_call>{"name":"read_', 'file","arguments":{"path":"a"}}</tool_', 'call>']) yield { type: 'text', delta: piece };
      yield { type: 'usage', usage: { inputTokens: 1, outputTokens: 1 } };
      yield { type: 'done', finishReason: 'stop' };
    }
    const events: ModelEvent[] = [];
    for await (const e of withTextToolCalls(source(), tools)) events.push(e);
    expect(events.map((e) => e.type)).toEqual(['text', 'tool_call', 'usage', 'done']);
    expect(events[0]).toEqual({ type: 'text', delta: 'Sure. ' });
    expect(events.at(-1)).toEqual({ type: 'done', finishReason: 'tool_calls' });
  });
});
