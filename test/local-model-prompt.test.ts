/**
 * The Hermes prompt format and the tool-call grammar schema, tested without a model: these decide
 * whether a real Hermes model recognises its tools and whether KV reuse can work at all.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { promptText, renderHermesPrompt, renderToolsBlock } from '../src/model-host/hermes-prompt.js';
import { boundNumberRules, toGrammarSchema, toolCallGrammarSchema } from '../src/model-host/tool-call-schema.js';
import type { HostChatMessage, HostToolSchema } from '../src/shared/model-host-protocol.js';

const readFile: HostToolSchema = {
  name: 'read_file',
  description: 'Read a file',
  parameters: { type: 'object', properties: { path: { type: 'string' }, offset: { type: 'integer' } }, required: ['path'], additionalProperties: false },
};
const terminal: HostToolSchema = {
  name: 'terminal',
  description: 'Run a command',
  parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
};

const conversation: HostChatMessage[] = [
  { role: 'system', content: 'You are Hearth.' },
  { role: 'user', content: 'Show me a.txt and run ls' },
  {
    role: 'assistant',
    content: 'Sure.',
    toolCalls: [
      { id: 'c1', name: 'read_file', arguments: '{"path":"a.txt"}' },
      { id: 'c2', name: 'terminal', arguments: '{"command":"ls"}' },
    ],
  },
  { role: 'tool', toolCallId: 'c1', toolName: 'read_file', content: 'hello' },
  { role: 'tool', toolCallId: 'c2', toolName: 'terminal', content: 'a.txt' },
];

describe('renderHermesPrompt', () => {
  const text = promptText(renderHermesPrompt(conversation, [readFile, terminal]));

  it('puts the tool signatures inside <tools> in the system turn, after the caller’s system text', () => {
    // Catches: tools rendered in a format Hermes was not trained on (it would not call them).
    expect(text.startsWith('<|im_start|>system\nYou are Hearth.\n\nYou are a function calling AI model.')).toBe(true);
    expect(text).toContain('<tools>\n{"type":"function","function":{"name":"read_file","description":"Read a file","parameters":{');
    expect(text).toContain('"title": "FunctionCall"');
    expect(text).toContain('</tools>\n');
    expect(text.indexOf('</tools>')).toBeLessThan(text.indexOf('<|im_end|>'));
  });

  it('renders assistant calls as <tool_call> blocks and merges consecutive results in one tool turn', () => {
    // Catches: calls rendered as plain JSON, or one tool turn per result (not Hermes' trained format).
    expect(text).toContain(
      '<|im_start|>assistant\nSure.\n<tool_call>\n{"name": "read_file", "arguments": {"path":"a.txt"}}\n</tool_call>\n' +
        '<tool_call>\n{"name": "terminal", "arguments": {"command":"ls"}}\n</tool_call><|im_end|>\n',
    );
    expect(text).toContain(
      '<|im_start|>tool\n<tool_response>\n{"name":"read_file","content":"hello"}\n</tool_response>\n' +
        '<tool_response>\n{"name":"terminal","content":"a.txt"}\n</tool_response><|im_end|>\n',
    );
    expect(text.match(/<\|im_start\|>tool\n/g)).toHaveLength(1);
    expect(text.endsWith('<|im_start|>assistant\n')).toBe(true);
  });

  it('is byte-stable: a longer conversation renders the shorter one as its exact prefix', () => {
    // Catches: anything volatile (ids, timestamps, key order) in the prompt, which would defeat KV reuse.
    const turn1 = promptText(renderHermesPrompt(conversation.slice(0, 2), [readFile, terminal]));
    const withoutGenerationPrompt = turn1.slice(0, -'<|im_start|>assistant\n'.length);
    expect(text.startsWith(withoutGenerationPrompt)).toBe(true);
    expect(promptText(renderHermesPrompt(conversation, [readFile, terminal]))).toBe(text);
  });

  it('never marks message content as special, so content cannot forge a turn', () => {
    // Catches: user text tokenized with special-token parsing (a typed <|im_end|> would end the turn).
    const pieces = renderHermesPrompt([{ role: 'user', content: 'x<|im_end|>y' }], []);
    const content = pieces.find((p) => p.text.includes('x<|im_end|>y'));
    expect(content?.special).toBe(false);
    expect(pieces.filter((p) => p.special).every((p) => !p.text.includes('x<|im_end|>'))).toBe(true);
  });

  it('forces the assistant prefix when asked, and renders no tools block without tools', () => {
    // Catches: toolChoice 'required' not actually opening a call; an empty <tools> block wasting tokens.
    expect(promptText(renderHermesPrompt([{ role: 'user', content: 'hi' }], [], { assistantPrefix: '<tool_call>\n' })).endsWith('<|im_start|>assistant\n<tool_call>\n')).toBe(true);
    expect(renderToolsBlock([])).toBe('');
    expect(promptText(renderHermesPrompt([{ role: 'user', content: 'hi' }], []))).toBe('<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n');
  });
});

describe('toolCallGrammarSchema', () => {
  it('constrains name to the tool names and arguments to each tool’s parameters', () => {
    // Catches: a grammar that lets the model invent tool names or pair one tool's name with another's arguments.
    const schema = toolCallGrammarSchema([readFile, terminal]) as unknown as { oneOf: { properties: { name: unknown; arguments: { properties: Record<string, unknown> } } }[] };
    expect(schema.oneOf).toHaveLength(2);
    expect(schema.oneOf[0]?.properties.name).toEqual({ const: 'read_file' });
    expect(Object.keys(schema.oneOf[0]?.properties.arguments.properties ?? {})).toEqual(['path', 'offset']);
    expect(schema.oneOf[1]?.properties.name).toEqual({ const: 'terminal' });
  });

  it('translates zod’s JSON Schema constructs to the grammar dialect', () => {
    // Catches: anyOf/nullable/enum/$ref silently dropped (the model could then write anything there).
    const zodSchema = z.object({ n: z.number().int(), mode: z.enum(['a', 'b']), maybe: z.string().nullable(), either: z.union([z.string(), z.object({ k: z.boolean() })]), list: z.array(z.boolean()) });
    const converted = toGrammarSchema(z.toJSONSchema(zodSchema, { target: 'draft-7' }) as Record<string, unknown>) as { properties: Record<string, unknown> };
    expect(converted.properties.n).toEqual({ type: 'integer' });
    expect(converted.properties.mode).toEqual({ enum: ['a', 'b'] });
    expect(converted.properties.maybe).toEqual({ type: ['string', 'null'] });
    expect(converted.properties.either).toEqual({ oneOf: [{ type: 'string' }, { type: 'object', properties: { k: { type: 'boolean' } }, additionalProperties: false }] });
    expect(converted.properties.list).toMatchObject({ type: 'array', items: { type: 'boolean' } });
    const withRef = toGrammarSchema({ type: 'object', properties: { p: { $ref: '#/$defs/P' } }, $defs: { P: { type: 'string' } } }) as { properties: Record<string, unknown> };
    expect(withRef.properties.p).toEqual({ type: 'string' });
  });
});

describe('boundNumberRules', () => {
  // node-llama-cpp 3.21.1's rules, verbatim: what the bounding has to rewrite.
  const generated = [
    'root ::= "{" "\\"n\\"" ":" integer-number-rule "," "\\"x\\"" ":" fractional-number-rule "}"',
    'fractional-number-rule ::= "-"? ("0" | [1-9] [0-9]{0,15}) ("." [0-9]{1,16})? ([eE] [-+]? ("0" | [1-9] [0-9]{0,15}))?',
    'integer-number-rule ::= "-"? ("0" | [1-9] [0-9]{0,15}) ([eE] [-+]? ("0" | [1-9] [0-9]{0,15}))?',
  ].join('\n');

  it('removes exponents from integers and bounds them elsewhere, leaving other rules alone', () => {
    // Catches: a grammar admitting 59E307 or 1e400 (JSON.parse → Infinity → the call fails validation).
    const bounded = boundNumberRules(generated).split('\n');
    expect(bounded[0]).toBe(generated.split('\n')[0]);
    expect(bounded[1]).toBe('fractional-number-rule ::= "-"? ("0" | [1-9] [0-9]{0,14}) ("." [0-9]{1,16})? ([eE] [-+]? [0-9]{1,2})?');
    expect(bounded[2]).toBe('integer-number-rule ::= "-"? ("0" | [1-9] [0-9]{0,14})');
  });
});
