/**
 * Random mixtures of the formats' markers, control tokens, JSON, Python dicts, XML tags and prose:
 * the extractor must never throw, its events must not depend on where chunks split, and nothing but
 * the markers and control tokens may go missing (every other character reaches the text or a call).
 */
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../src/core/seeded-random.js';
import { TextToolCallExtractor, type ExtractedEvent } from '../src/core/llm/text-tool-calls.js';
import { TOOL_CALL_FORMATS, type ToolCallFormat } from '../src/core/llm/tool-call-formats/index.js';

const PIECES = [
  '<tool_call>', '</tool_call>', '<|python_tag|>', '[TOOL_CALLS]', '[ARGS]', '[CALL_ID]', '<｜tool▁calls▁begin｜>', '<｜tool▁call▁begin｜>',
  '<｜tool▁sep｜>', '<｜tool▁call▁end｜>', '<｜tool▁calls▁end｜>', '<function=add>', '<parameter=a>', '</parameter>', '</function>',
  '<arg_key>', '</arg_key>', '<arg_value>', '</arg_value>', '<|im_end|>', '<|eot_id|>', '<|eom_id|>', '<|observation|>',
  '{"name": "add", "arguments": {"a": 1, "b": 2}}', "{'name': 'add', 'arguments': {'a': True}}", '{"name": "add", "parameters": {"a": "x}"}}',
  '{"name": "nope", "arguments": {}}', '<function=nope>', 'nope[ARGS]', '<parameter=b>\n2\n', '<arg_key>a</arg_key><arg_value>[1, 2]</arg_value>',
  '{', '}', '[', ']', '"', "'", ';', '\n', ' ', '`', '```json\n', '```', 'add', 'function', 'Hello', ' there.', '1', '\\',
];

function randomOutput(random: () => number): string {
  const n = 1 + Math.floor(random() * 16);
  let out = '';
  for (let i = 0; i < n; i++) out += PIECES[Math.floor(random() * PIECES.length)];
  return out;
}

function run(chunks: string[], formats: readonly ToolCallFormat[] = TOOL_CALL_FORMATS): ExtractedEvent[] {
  const extractor = new TextToolCallExtractor(['add'], { formats });
  const out: ExtractedEvent[] = [];
  for (const chunk of chunks) out.push(...extractor.push(chunk));
  out.push(...extractor.end());
  return out;
}

function normalised(events: ExtractedEvent[]): unknown[] {
  const out: unknown[] = [];
  for (const e of events) {
    const last = out.at(-1) as { text?: string } | undefined;
    if (e.type === 'text' && last?.text !== undefined) last.text += e.delta;
    else out.push(e.type === 'text' ? { text: e.delta } : { name: e.call.name, args: e.call.arguments });
  }
  return out;
}

const MARKERS = [...new Set(TOOL_CALL_FORMATS.flatMap((f) => [...f.controlTokens, ...f.regions.map((r) => r.open), '</tool_call>', '[ARGS]', '[CALL_ID]']))];
/** Characters of `text` outside markers and control tokens, as a sorted multiset (what must survive). */
function substance(text: string): string {
  let rest = text;
  for (const marker of MARKERS) rest = rest.split(marker).join('');
  return [...rest.replace(/\s/g, '')].sort().join('');
}

describe('random mixtures of every format', () => {
  it('never throws, never depends on chunking, never loses a character of substance (2,000 outputs)', () => {
    const random = seededRandom(12);
    for (let n = 0; n < 2000; n++) {
      const output = randomOutput(random);
      // All formats (a server's unknown model), and each format alone (a local model whose GGUF named it).
      const formats = n % 2 === 0 ? TOOL_CALL_FORMATS : [TOOL_CALL_FORMATS[(n >> 1) % TOOL_CALL_FORMATS.length] as ToolCallFormat];
      const whole = normalised(run([output], formats));
      const cut = 1 + Math.floor(random() * Math.max(1, output.length - 1));
      expect(normalised(run([output.slice(0, cut), output.slice(cut)], formats)), `${JSON.stringify(output)} split at ${cut}`).toEqual(whole);
      expect(normalised(run([...output], formats)), JSON.stringify(output)).toEqual(whole);
      // Calls carry their text as parsed arguments, so only outputs without calls are checked character for character.
      const events = run([output], formats);
      if (events.every((e) => e.type === 'text')) {
        expect(substance(events.map((e) => (e.type === 'text' ? e.delta : '')).join('')), JSON.stringify(output)).toBe(substance(output));
      }
    }
  });
});
