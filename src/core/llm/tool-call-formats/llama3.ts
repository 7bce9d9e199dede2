/**
 * Llama 3.1 / 3.2 / 3.3: a call is JSON `{"name": …, "parameters": …}`, after the `<|python_tag|>`
 * token or as the whole response, several separated by `;`. The turn ends with `<|eom_id|>` (a
 * call, expecting its result) or `<|eot_id|>`. Built-in tools are Python calls after the tag:
 * `<|python_tag|>brave_search.call(query="…")`.
 */
import { callFromObject, guessName, skipSpace, valueEnd, type CallRegion, type ParsedCall, type RegionExtent, type RegionMemo, type ToolCallFormat } from './format.js';
import { parseJsonOrPythonLiteral, parsePythonKeywordArguments } from './python-literal.js';

export const PYTHON_TAG = '<|python_tag|>';

/** `{…}` or `{…}; {…}`: ends after the last object not followed by `;`. Anything else runs to the end of the turn. */
function jsonChainExtent(after: string, atEnd: boolean, memo: RegionMemo): RegionExtent | undefined {
  const whole = atEnd ? { bodyEnd: after.length, consumed: after.length } : undefined;
  let i = skipSpace(after, 0);
  if (i === after.length || after[i] !== '{') return whole;
  for (;;) {
    const end = valueEnd(after, i, memo);
    if (typeof end !== 'number') return whole;
    const next = skipSpace(after, end);
    if (next === after.length) return atEnd ? { bodyEnd: end, consumed: end } : undefined;
    if (after[next] !== ';') return { bodyEnd: end, consumed: end };
    const following = skipSpace(after, next + 1);
    if (following === after.length) return atEnd ? { bodyEnd: end, consumed: next + 1 } : undefined;
    if (after[following] !== '{') return { bodyEnd: end, consumed: next + 1 }; // a trailing `;` is the call's
    i = following;
  }
}

const pythonTagRegion: CallRegion = { open: PYTHON_TAG, unknownToolsAreText: false, extent: jsonChainExtent };

/** The JSON objects of `{…}; {…}`, or undefined when the text is not such a chain. */
export function splitJsonChain(text: string): string[] | undefined {
  const parts: string[] = [];
  let i = skipSpace(text, 0);
  for (;;) {
    const end = valueEnd(text, i);
    if (typeof end !== 'number') return undefined;
    parts.push(text.slice(i, end));
    i = skipSpace(text, end);
    if (i === text.length) return parts;
    if (text[i] !== ';') return undefined;
    i = skipSpace(text, i + 1);
    if (i === text.length) return parts;
  }
}

function pythonCall(text: string): ParsedCall | undefined {
  const match = /^([A-Za-z_][\w.]*)\(([\s\S]*)\)$/.exec(text);
  if (!match) return undefined;
  const args = parsePythonKeywordArguments(match[2] as string);
  if (!args.ok) return undefined;
  return { name: (match[1] as string).replace(/\.call$/, ''), arguments: JSON.stringify(args.value) };
}

export const llama3Format: ToolCallFormat = {
  name: 'llama3',
  recognise: { templateMarkers: ['<|start_header_id|>'], modelName: /llama[-\s]?3/i },
  regions: [pythonTagRegion],
  controlTokens: ['<|eot_id|>', '<|eom_id|>', '<|start_header_id|>', '<|end_header_id|>', '<|end_of_text|>'],
  bareCalls: true,
  parseBody(_open, body) {
    const text = body.trim();
    if (!text.startsWith('{')) {
      const call = pythonCall(text);
      return call ? { kind: 'calls', calls: [call] } : { kind: 'malformed' };
    }
    const parts = splitJsonChain(text);
    if (!parts) return { kind: 'malformed', name: guessName(text) };
    const calls: ParsedCall[] = [];
    for (const part of parts) {
      const parsed = parseJsonOrPythonLiteral(part);
      const call = parsed.ok ? callFromObject(parsed.value) : undefined;
      if (!call) return { kind: 'malformed', name: guessName(text) };
      calls.push(call);
    }
    return { kind: 'calls', calls };
  },
};
