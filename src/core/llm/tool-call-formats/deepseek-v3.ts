/**
 * DeepSeek V3 / R1 (and V3.1): calls between `<｜tool▁calls▁begin｜>` and `<｜tool▁calls▁end｜>`
 * (full-width bars, U+2581 spaces), each `<｜tool▁call▁begin｜>…<｜tool▁call▁end｜>`. V3 and R1 write
 * `function<｜tool▁sep｜>name` and the arguments in a ```json fence; V3.1 writes
 * `name<｜tool▁sep｜>{…}`.
 */
import { closedBy, guessName, stripFence, type BodyResult, type ParsedCall, type ToolCallFormat } from './format.js';
import { parseJsonOrPythonLiteral } from './python-literal.js';

export const CALLS_BEGIN = '<｜tool▁calls▁begin｜>';
export const CALLS_END = '<｜tool▁calls▁end｜>';
export const CALL_BEGIN = '<｜tool▁call▁begin｜>';
export const CALL_END = '<｜tool▁call▁end｜>';
const SEP = '<｜tool▁sep｜>';

function oneCall(text: string): ParsedCall | undefined {
  const sep = text.indexOf(SEP);
  if (sep < 0) return undefined;
  const left = text.slice(0, sep).trim();
  let name: string;
  let argsText: string;
  if (left === 'function') {
    const right = text.slice(sep + SEP.length);
    const newline = right.indexOf('\n');
    name = (newline < 0 ? right : right.slice(0, newline)).trim();
    argsText = newline < 0 ? '' : stripFence(right.slice(newline + 1).trim());
  } else {
    name = left;
    argsText = stripFence(text.slice(sep + SEP.length).trim());
  }
  if (name === '') return undefined;
  const parsed = parseJsonOrPythonLiteral(argsText === '' ? '{}' : argsText);
  const readable = parsed.ok && parsed.value !== null && typeof parsed.value === 'object' && !Array.isArray(parsed.value);
  return { name, arguments: readable ? JSON.stringify(parsed.value) : argsText };
}

function parseCalls(open: string, body: string): BodyResult {
  const pieces = open === CALL_BEGIN ? [body] : body.split(CALL_BEGIN).slice(1);
  const outside = open === CALL_BEGIN ? '' : (body.split(CALL_BEGIN)[0] as string);
  const calls: ParsedCall[] = [];
  let trailing = outside.trim();
  for (const piece of pieces) {
    const end = piece.indexOf(CALL_END);
    const call = oneCall(end < 0 ? piece : piece.slice(0, end));
    if (!call) return { kind: 'malformed', name: guessName(piece) };
    calls.push(call);
    if (end >= 0) trailing += piece.slice(end + CALL_END.length).trim();
  }
  if (calls.length === 0) return { kind: 'malformed' };
  return trailing === '' ? { kind: 'calls', calls } : { kind: 'calls', calls, trailingText: trailing };
}

export const deepseekV3Format: ToolCallFormat = {
  name: 'deepseek-v3',
  recognise: { templateMarkers: ['tool▁calls▁begin'], architectures: ['deepseek2', 'deepseek3'], modelName: /deepseek[-\s]?(?:v3|r1)/i },
  regions: [closedBy(CALLS_BEGIN, CALLS_END, false), closedBy(CALL_BEGIN, CALL_END, false)],
  controlTokens: ['<｜end▁of▁sentence｜>', '<｜User｜>', '<｜Assistant｜>'],
  bareCalls: false,
  parseBody: parseCalls,
};
