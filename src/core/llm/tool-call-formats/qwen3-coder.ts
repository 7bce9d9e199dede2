/**
 * Qwen3-Coder: XML inside `<tool_call>`, one tag per argument, values as plain text:
 * `<tool_call>\n<function=name>\n<parameter=key>\nvalue\n</parameter>\n</function>\n</tool_call>`.
 * The template puts a newline after each opening tag and before each closing one; those are not
 * part of the value. A missing `</parameter>` (models drop it) ends at the next tag.
 */
import { closedBy, type ParsedCall, type ToolCallFormat } from './format.js';
import { TOOL_CALL_CLOSE, TOOL_CALL_OPEN } from './hermes.js';
import { argumentValue, trimTagNewlines } from './xml-arguments.js';

const FUNCTION_RE = /<function=([^>\n]*)>([\s\S]*?)(?:<\/function>|$)/g;
const PARAMETER_RE = /<parameter=([^>\n]*)>([\s\S]*?)(?:<\/parameter>|(?=<parameter=)|$)/g;

export const qwen3CoderFormat: ToolCallFormat = {
  name: 'qwen3-coder',
  recognise: { templateMarkers: ['<function=', '<parameter='], modelName: /qwen3[-\s]?coder/i },
  regions: [closedBy(TOOL_CALL_OPEN, TOOL_CALL_CLOSE, true)],
  controlTokens: ['<|im_end|>', '<|im_start|>', '<|endoftext|>'],
  bareCalls: false,
  parseBody(_open, body, tools) {
    if (!body.includes('<function=')) return undefined;
    const calls: ParsedCall[] = [];
    for (const fn of body.matchAll(FUNCTION_RE)) {
      const name = (fn[1] as string).trim();
      if (name === '') return { kind: 'malformed' };
      const parameters = tools.parameters(name);
      const args: Record<string, unknown> = {};
      for (const p of (fn[2] as string).matchAll(PARAMETER_RE)) {
        const key = (p[1] as string).trim();
        args[key] = argumentValue(trimTagNewlines(p[2] as string), parameters, key);
      }
      calls.push({ name, arguments: JSON.stringify(args) });
    }
    return calls.length > 0 ? { kind: 'calls', calls } : { kind: 'malformed' };
  },
};
