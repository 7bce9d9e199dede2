/**
 * GLM-4.5 / 4.6 (and 4.7): `<tool_call>name` then one `<arg_key>k</arg_key><arg_value>v</arg_value>`
 * pair per argument, on their own lines or not, then `</tool_call>`. Values are plain text for
 * strings and JSON for everything else (the template writes `tojson` for non-strings).
 */
import { closedBy, type ToolCallFormat } from './format.js';
import { TOOL_CALL_CLOSE, TOOL_CALL_OPEN } from './hermes.js';
import { argumentValue } from './xml-arguments.js';

const HEAD_RE = /^\s*([\w.-]+)\s*([\s\S]*)$/;
const PAIR_RE = /\s*<arg_key>([\s\S]*?)<\/arg_key>\s*<arg_value>([\s\S]*?)(?:<\/arg_value>|$)/y;

export const glm45Format: ToolCallFormat = {
  name: 'glm-4.5',
  recognise: { templateMarkers: ['<arg_key>'], architectures: ['glm4moe'], modelName: /glm[-\s]?4\.[5-9]/i },
  regions: [closedBy(TOOL_CALL_OPEN, TOOL_CALL_CLOSE, true)],
  controlTokens: ['<|user|>', '<|observation|>', '<|assistant|>', '<|system|>', '<|endoftext|>'],
  bareCalls: false,
  parseBody(_open, body, tools) {
    const head = HEAD_RE.exec(body);
    if (!head) return undefined;
    const name = head[1] as string;
    const rest = head[2] as string;
    // Only a bare name, or a name followed by argument tags, is this format (`<tool_call>hello there` is prose).
    if (rest.trim() !== '' && !rest.trimStart().startsWith('<arg_key>')) return undefined;
    const parameters = tools.parameters(name);
    const args: Record<string, unknown> = {};
    PAIR_RE.lastIndex = 0;
    let at = 0;
    for (let m = PAIR_RE.exec(rest); m; m = PAIR_RE.exec(rest)) {
      const key = (m[1] as string).trim();
      args[key] = argumentValue(m[2] as string, parameters, key);
      at = PAIR_RE.lastIndex;
    }
    if (rest.slice(at).trim() !== '') return { kind: 'malformed', name };
    return { kind: 'calls', calls: [{ name, arguments: JSON.stringify(args) }] };
  },
};
