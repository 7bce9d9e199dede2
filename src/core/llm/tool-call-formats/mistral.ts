/**
 * Mistral: `[TOOL_CALLS]` then, up to tokenizer v3 (Mistral 7B v0.3, Mixtral 8x22B, Nemo), a JSON
 * array `[{"name", "arguments"}]`; from v11 (Mistral Small 3.x, Devstral, Magistral) one call per
 * `[TOOL_CALLS]`: `name[ARGS]{…}`, with `[CALL_ID]id` before `[ARGS]` in some versions, and plain
 * `name{…}` when a server drops the special tokens from the text.
 */
import { callFromObject, guessName, skipSpace, valueEnd, type CallRegion, type ParsedCall, type RegionExtent, type RegionMemo, type ToolCallFormat } from './format.js';
import { parseJsonOrPythonLiteral } from './python-literal.js';

export const TOOL_CALLS = '[TOOL_CALLS]';
const ARGS = '[ARGS]';
const CALL_ID = '[CALL_ID]';

/**
 * The call after `[TOOL_CALLS]` ends with its JSON: the array, or the arguments object after the name.
 * Anything else after the token is still the model's attempt at a call: it runs to the end of the turn.
 */
function mistralExtent(after: string, atEnd: boolean, memo: RegionMemo): RegionExtent | undefined {
  const whole = atEnd ? { bodyEnd: after.length, consumed: after.length } : undefined;
  const jsonFrom = (i: number): RegionExtent | undefined => {
    const end = valueEnd(after, i, memo);
    return typeof end === 'number' ? { bodyEnd: end, consumed: end } : whole;
  };
  let i = skipSpace(after, 0);
  if (i === after.length) return whole;
  if (after[i] === '[' || after[i] === '{') return jsonFrom(i);
  const name = /^[\w.-]+/.exec(after.slice(i))?.[0];
  if (name === undefined) return whole;
  i += name.length;
  for (const marker of [CALL_ID, ARGS]) {
    const rest = after.slice(i);
    if (rest.length < marker.length && marker.startsWith(rest)) return whole; // the marker may still be arriving
    if (!rest.startsWith(marker)) continue;
    i += marker.length;
    if (marker === CALL_ID) {
      const id = /^[A-Za-z0-9]*/.exec(after.slice(i))?.[0] ?? '';
      i += id.length;
    }
  }
  const j = skipSpace(after, i);
  if (j === after.length) return whole;
  return after[j] === '{' ? jsonFrom(j) : whole;
}

const toolCallsRegion: CallRegion = { open: TOOL_CALLS, unknownToolsAreText: false, extent: mistralExtent };

export const mistralFormat: ToolCallFormat = {
  name: 'mistral',
  recognise: { templateMarkers: [TOOL_CALLS], modelName: /mistral|mixtral|ministral|devstral|magistral|codestral/i },
  regions: [toolCallsRegion],
  // `</s>` ends Mistral's turn, but servers stop on it, and as text it also closes HTML `<s>`: not stripped.
  controlTokens: ['[/TOOL_CALLS]'],
  bareCalls: false,
  parseBody(_open, body) {
    const text = body.trim();
    if (text.startsWith('[') || text.startsWith('{')) {
      const parsed = parseJsonOrPythonLiteral(text);
      if (!parsed.ok) return { kind: 'malformed', name: guessName(text) };
      const items: unknown[] = Array.isArray(parsed.value) ? parsed.value : [parsed.value];
      const calls = items.map((item) => callFromObject(item));
      if (calls.length === 0 || calls.some((c) => c === undefined)) return { kind: 'malformed', name: guessName(text) };
      return { kind: 'calls', calls: calls as ParsedCall[] };
    }
    // A name followed by its arguments object; a name alone or prose is an unreadable call.
    const match = /^([\w.-]+)(?:\[CALL_ID\][A-Za-z0-9]*)?(?:\[ARGS\])?\s*(\{[\s\S]*)$/.exec(text);
    if (!match) return { kind: 'malformed' };
    const name = match[1] as string;
    const argsText = match[2] as string;
    const parsed = parseJsonOrPythonLiteral(argsText);
    const args = parsed.ok && parsed.value !== null && typeof parsed.value === 'object' && !Array.isArray(parsed.value) ? JSON.stringify(parsed.value) : argsText;
    return { kind: 'calls', calls: [{ name, arguments: args }] };
  },
};
