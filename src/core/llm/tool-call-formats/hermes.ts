/**
 * Hermes 2 Pro / Hermes 3 (and Qwen2.5/Qwen3, whose templates copied it): `<tool_call>` + a JSON
 * object `{"name", "arguments"}` + `</tool_call>`, inside ChatML turns. Hermes models also print
 * the object as a Python dict (`{'arguments': {...}, 'name': 'x'}`, as the Hermes-Function-Calling
 * README's example output shows), so the body is read as JSON, then as a Python literal.
 */
import { callFromObject, closedBy, guessName, stripFence, type ToolCallFormat } from './format.js';
import { parseJsonOrPythonLiteral } from './python-literal.js';

export const TOOL_CALL_OPEN = '<tool_call>';
export const TOOL_CALL_CLOSE = '</tool_call>';

export const hermesFormat: ToolCallFormat = {
  name: 'hermes',
  recognise: { templateMarkers: [TOOL_CALL_OPEN], modelName: /hermes|qwen\s*2\.5|qwen-?2\.5|qwq/i },
  regions: [closedBy(TOOL_CALL_OPEN, TOOL_CALL_CLOSE, true)],
  controlTokens: ['<|im_end|>', '<|im_start|>', '<|endoftext|>'],
  bareCalls: true,
  parseBody(_open, body) {
    const text = stripFence(body.trim());
    if (!text.startsWith('{') && !text.startsWith('[')) return undefined;
    const parsed = parseJsonOrPythonLiteral(text);
    if (!parsed.ok) return { kind: 'malformed', name: guessName(text) };
    const items: unknown[] = Array.isArray(parsed.value) ? parsed.value : [parsed.value];
    const calls = items.map((item) => callFromObject(item));
    // Readable, but not a call object (`{"answer": 42}` in tags): not a call of this format.
    if (calls.length === 0 || calls.some((c) => c === undefined)) return undefined;
    return { kind: 'calls', calls: calls as NonNullable<(typeof calls)[number]>[] };
  },
};
