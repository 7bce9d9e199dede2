/**
 * Tool calls as models publish them, in each model family's own format. Every shape follows an
 * example output published by the model's makers or by a serving stack's parser tests (cited per
 * case; the values are ours). Each is parsed whole, in every two-piece split and one character at
 * a time, with all formats active (a server whose model is unknown) and with only the model's own
 * format (a local GGUF whose template named it): the events must be the same every time.
 */
import { describe, expect, it } from 'vitest';
import { TextToolCallExtractor, UNPARSED_TOOL_CALL, type ExtractedEvent } from '../src/core/llm/text-tool-calls.js';
import { toolCallFormat, type ToolCallFormatName } from '../src/core/llm/tool-call-formats/index.js';
import type { ToolSchema } from '../src/core/llm/types.js';

const object = (properties: Record<string, unknown>): Record<string, unknown> => ({ type: 'object', properties });
const TOOLS: ToolSchema[] = [
  { name: 'get_stock_fundamentals', description: '', parameters: object({ symbol: { type: 'string' } }) },
  { name: 'get_current_stock_price', description: '', parameters: object({ symbol: { type: 'string' } }) },
  { name: 'get_weather', description: '', parameters: object({ city: { type: 'string' }, days: { type: 'integer' }, unit: { type: 'string' } }) },
  { name: 'set_alarm', description: '', parameters: object({ loud: { type: 'boolean' }, label: { type: ['string', 'null'] }, minutes: { type: 'number' } }) },
  { name: 'add', description: '', parameters: object({ a: { type: 'number' }, b: { type: 'number' } }) },
  { name: 'multiply', description: '', parameters: object({ a: { type: 'number' }, b: { type: 'number' } }) },
  { name: 'search', description: '', parameters: object({ query: { type: 'string' } }) },
  { name: 'brave_search', description: '', parameters: object({ query: { type: 'string' } }) },
  { name: 'write_file', description: '', parameters: object({ path: { type: 'string' }, content: { type: 'string' } }) },
  { name: 'ls', description: '', parameters: object({ dirPath: { type: 'string' } }) },
  { name: 'tag_files', description: '', parameters: object({ tags: { type: 'array' }, recursive: { type: 'boolean' }, note: { type: 'string' } }) },
];

interface Outcome {
  text: string;
  calls: { name: string; args: unknown }[];
}

/** Events with ids dropped and adjacent text joined: what must not depend on chunking. */
function outcome(events: ExtractedEvent[]): Outcome {
  let text = '';
  const calls: Outcome['calls'] = [];
  for (const e of events) {
    if (e.type === 'text') text += e.delta;
    else {
      let args: unknown = e.call.arguments;
      try {
        args = JSON.parse(e.call.arguments);
      } catch (_raw) {
        // Raw text of an unreadable call: compared as the string it is.
      }
      calls.push({ name: e.call.name, args });
    }
  }
  return { text, calls };
}

function run(chunks: string[], format?: ToolCallFormatName): ExtractedEvent[] {
  const extractor = new TextToolCallExtractor(TOOLS, format ? { formats: [toolCallFormat(format)] } : {});
  const out: ExtractedEvent[] = [];
  for (const chunk of chunks) out.push(...extractor.push(chunk));
  out.push(...extractor.end());
  return out;
}

/** The outcome of `output`, after checking it is the same for every way of chunking it. */
function parseEverySplit(output: string, format?: ToolCallFormatName): Outcome {
  const whole = outcome(run([output], format));
  for (let i = 1; i < output.length; i++) {
    expect(outcome(run([output.slice(0, i), output.slice(i)], format)), `split at ${i}`).toEqual(whole);
  }
  expect(outcome(run([...output], format)), 'one character at a time').toEqual(whole);
  return whole;
}

interface Shape {
  title: string;
  format: ToolCallFormatName;
  output: string;
  expected: Outcome;
}

const SHAPES: Shape[] = [
  // --- Hermes (NousResearch/Hermes-Function-Calling README, "Inference example output") ---
  {
    title: 'Hermes: the README example output, a Python dict with single quotes, then <|im_end|>',
    format: 'hermes',
    output: "<tool_call>\n{'arguments': {'symbol': 'TSLA'}, 'name': 'get_stock_fundamentals'}\n</tool_call><|im_end|>",
    expected: { text: '', calls: [{ name: 'get_stock_fundamentals', args: { symbol: 'TSLA' } }] },
  },
  {
    title: 'Hermes: the older README example (get_current_stock_price), after a newline',
    format: 'hermes',
    output: "\n<tool_call>\n{'arguments': {'symbol': 'NVDA'}, 'name': 'get_current_stock_price'}\n</tool_call>",
    expected: { text: '\n', calls: [{ name: 'get_current_stock_price', args: { symbol: 'NVDA' } }] },
  },
  {
    title: 'Hermes: Python literals True/None and a float in the arguments',
    format: 'hermes',
    output: "<tool_call>\n{'name': 'set_alarm', 'arguments': {'loud': True, 'label': None, 'minutes': 7.5}}\n</tool_call>",
    expected: { text: '', calls: [{ name: 'set_alarm', args: { loud: true, label: null, minutes: 7.5 } }] },
  },
  {
    title: 'Hermes: strict JSON after prose, two calls (the system prompt asks for one block per call)',
    format: 'hermes',
    output:
      'Checking both.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Oslo"}}\n</tool_call><|im_end|>',
    expected: {
      text: 'Checking both.\n\n',
      calls: [
        { name: 'get_weather', args: { city: 'Paris' } },
        { name: 'get_weather', args: { city: 'Oslo' } },
      ],
    },
  },
  // --- Llama 3.x (Meta's llama3_1 prompt-format docs; vLLM llama3_json and SGLang Llama parser tests) ---
  {
    title: 'Llama 3.1: <|python_tag|> + {"name", "parameters"} ending in <|eom_id|>',
    format: 'llama3',
    output: '<|python_tag|>{"name": "get_weather", "parameters": {"city": "San Francisco", "unit": "celsius"}}<|eom_id|>',
    expected: { text: '', calls: [{ name: 'get_weather', args: { city: 'San Francisco', unit: 'celsius' } }] },
  },
  {
    title: 'Llama 3.2: the whole response is the JSON call, no tag, ending in <|eot_id|>',
    format: 'llama3',
    output: '{"type": "function", "name": "get_weather", "parameters": {"city": "Lisbon"}}<|eot_id|>',
    expected: { text: '', calls: [{ name: 'get_weather', args: { city: 'Lisbon' } }] },
  },
  {
    title: 'Llama 3.x: two calls separated by ";" after the tag',
    format: 'llama3',
    output: '<|python_tag|>{"name": "add", "parameters": {"a": 1, "b": 2}}; {"name": "multiply", "parameters": {"a": 3, "b": 4}}<|eom_id|>',
    expected: {
      text: '',
      calls: [
        { name: 'add', args: { a: 1, b: 2 } },
        { name: 'multiply', args: { a: 3, b: 4 } },
      ],
    },
  },
  {
    title: 'Llama 3.x: two bare calls separated by ";", no tag',
    format: 'llama3',
    output: '{"name": "add", "parameters": {"a": 5, "b": 6}}; {"name": "search", "parameters": {"query": "llamas"}}',
    expected: {
      text: '',
      calls: [
        { name: 'add', args: { a: 5, b: 6 } },
        { name: 'search', args: { query: 'llamas' } },
      ],
    },
  },
  {
    title: 'Llama 3.x: prose, then the tag and a call',
    format: 'llama3',
    output: 'Here are some results: <|python_tag|>{"name": "search", "parameters": {"query": "weather"}}',
    expected: { text: 'Here are some results: ', calls: [{ name: 'search', args: { query: 'weather' } }] },
  },
  {
    title: 'Llama 3.1: a built-in tool written as a Python call',
    format: 'llama3',
    output: '<|python_tag|>brave_search.call(query="current weather in Menlo Park, California")<|eom_id|>',
    expected: { text: '', calls: [{ name: 'brave_search', args: { query: 'current weather in Menlo Park, California' } }] },
  },
  // --- Mistral (vLLM mistral tool parser tests: pre-v11 and v11 tokenizers; llama.cpp Mistral Nemo) ---
  {
    title: 'Mistral v0.3: [TOOL_CALLS] and a JSON array',
    format: 'mistral',
    output: '[TOOL_CALLS][{"name": "add", "arguments": {"a": 3.5, "b": 4}}]',
    expected: { text: '', calls: [{ name: 'add', args: { a: 3.5, b: 4 } }] },
  },
  {
    title: 'Mistral v0.3: a space after the token, arguments before name, two calls',
    format: 'mistral',
    output: '[TOOL_CALLS] [{"arguments": {"city": "San Francisco", "unit": "celsius"}, "name": "get_weather"}, {"name": "add", "arguments": {"a": 1, "b": 2}}]</s>',
    expected: {
      text: '</s>',
      calls: [
        { name: 'get_weather', args: { city: 'San Francisco', unit: 'celsius' } },
        { name: 'add', args: { a: 1, b: 2 } },
      ],
    },
  },
  {
    title: 'Mistral Nemo: prose before the token, a call id in the object',
    format: 'mistral',
    output: 'Hello[TOOL_CALLS][{"name": "add", "arguments": {"a": 1, "b": 2}, "id": "a1B2c3D4e"}]',
    expected: { text: 'Hello', calls: [{ name: 'add', args: { a: 1, b: 2 } }] },
  },
  {
    title: 'Mistral v11 (Small 3.2, Devstral): [TOOL_CALLS]name[ARGS]{…}',
    format: 'mistral',
    output: '[TOOL_CALLS]get_weather[ARGS]{"city": "San Francisco", "unit": "celsius"}',
    expected: { text: '', calls: [{ name: 'get_weather', args: { city: 'San Francisco', unit: 'celsius' } }] },
  },
  {
    title: 'Mistral v11: one [TOOL_CALLS] per call',
    format: 'mistral',
    output: '[TOOL_CALLS]add[ARGS]{"a": 3.5, "b": 4}[TOOL_CALLS]multiply[ARGS]{"a": 3, "b": 6}',
    expected: {
      text: '',
      calls: [
        { name: 'add', args: { a: 3.5, b: 4 } },
        { name: 'multiply', args: { a: 3, b: 6 } },
      ],
    },
  },
  {
    title: 'Mistral v11 as a server shows it with special tokens skipped: name{…}, braces in a string',
    format: 'mistral',
    output: 'hi{hi[TOOL_CALLS]write_file{"path": "a.py", "content": "print(\\"hello\\")\\nre.compile(r\'{}\')"}',
    expected: { text: 'hi{hi', calls: [{ name: 'write_file', args: { path: 'a.py', content: 'print("hello")\nre.compile(r\'{}\')' } }] },
  },
  {
    title: 'Mistral v13: [CALL_ID] between the name and [ARGS]',
    format: 'mistral',
    output: '[TOOL_CALLS]search[CALL_ID]x7Kq2Lm9P[ARGS]{"query": "tides"}',
    expected: { text: '', calls: [{ name: 'search', args: { query: 'tides' } }] },
  },
  // --- Qwen3-Coder (its chat template; llama.cpp, vLLM and SGLang qwen3_coder tests) ---
  {
    title: 'Qwen3-Coder: <function=…> with <parameter=…> values on their own lines, typed by the schema',
    format: 'qwen3-coder',
    output: '<tool_call>\n<function=get_weather>\n<parameter=city>\nTokyo\n</parameter>\n<parameter=days>\n3\n</parameter>\n</function>\n</tool_call><|im_end|>',
    expected: { text: '', calls: [{ name: 'get_weather', args: { city: 'Tokyo', days: 3 } }] },
  },
  {
    title: 'Qwen3-Coder: a multi-line code value keeps its inner newlines and quotes',
    format: 'qwen3-coder',
    output:
      "I'll write it.\n<tool_call>\n<function=write_file>\n<parameter=path>\nhello.py\n</parameter>\n<parameter=content>\ndef main():\n    print(\"hi\")\n\nmain()\n</parameter>\n</function>\n</tool_call>",
    expected: { text: "I'll write it.\n", calls: [{ name: 'write_file', args: { path: 'hello.py', content: 'def main():\n    print("hi")\n\nmain()' } }] },
  },
  {
    title: 'Qwen3-Coder: a dropped </parameter>, and a number for a string property stays a string',
    format: 'qwen3-coder',
    output: '<tool_call>\n<function=search>\n<parameter=query>\n1984\n</function>\n</tool_call>',
    expected: { text: '', calls: [{ name: 'search', args: { query: '1984' } }] },
  },
  {
    title: 'Qwen3-Coder: two calls, one <tool_call> block each',
    format: 'qwen3-coder',
    output:
      '<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</function>\n</tool_call>\n<tool_call>\n<function=add>\n<parameter=a>\n2\n</parameter>\n<parameter=b>\n-0.5\n</parameter>\n</function>\n</tool_call>',
    expected: {
      text: '\n',
      calls: [
        { name: 'get_weather', args: { city: 'Paris' } },
        { name: 'add', args: { a: 2, b: -0.5 } },
      ],
    },
  },
  // --- DeepSeek V3 / R1 / V3.1 (their chat templates; vLLM, SGLang deepseek parser tests) ---
  {
    title: 'DeepSeek V3: function<｜tool▁sep｜>name and a ```json fence, prose before, end of sentence after',
    format: 'deepseek-v3',
    output:
      'Let me help you with that.\n<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{"city": "Tokyo", "unit": "celsius"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜><｜end▁of▁sentence｜>',
    expected: { text: 'Let me help you with that.\n', calls: [{ name: 'get_weather', args: { city: 'Tokyo', unit: 'celsius' } }] },
  },
  {
    title: 'DeepSeek V3: two calls, newline between them',
    format: 'deepseek-v3',
    output:
      '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{"city": "Paris"}\n```<｜tool▁call▁end｜>\n<｜tool▁call▁begin｜>function<｜tool▁sep｜>search\n```json\n{"query": "louvre hours"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
    expected: {
      text: '',
      calls: [
        { name: 'get_weather', args: { city: 'Paris' } },
        { name: 'search', args: { query: 'louvre hours' } },
      ],
    },
  },
  {
    title: 'DeepSeek V3.1: name<｜tool▁sep｜>{…} without a fence',
    format: 'deepseek-v3',
    output: '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{"city": "Tokyo"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
    expected: { text: '', calls: [{ name: 'get_weather', args: { city: 'Tokyo' } }] },
  },
  // --- GLM-4.5 (its chat template; vLLM glm4_moe parser tests; an ik_llama.cpp discussion's output) ---
  {
    title: 'GLM-4.5: name, then <arg_key>/<arg_value> pairs on their own lines',
    format: 'glm-4.5',
    output: '<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Beijing</arg_value>\n<arg_key>days</arg_key>\n<arg_value>2</arg_value>\n</tool_call><|observation|>',
    expected: { text: '', calls: [{ name: 'get_weather', args: { city: 'Beijing', days: 2 } }] },
  },
  {
    title: 'GLM-4.5-Air as reported in ik_llama.cpp discussion 753: everything on one line',
    format: 'glm-4.5',
    output: 'Let me search for configuration files in the backend directory to help locate this information: <tool_call>ls <arg_key>dirPath</arg_key> <arg_value>backend</arg_value> </tool_call>',
    expected: { text: 'Let me search for configuration files in the backend directory to help locate this information: ', calls: [{ name: 'ls', args: { dirPath: 'backend' } }] },
  },
  {
    title: 'GLM-4.5: non-string values written as JSON (the template uses tojson), a string that looks like JSON stays a string',
    format: 'glm-4.5',
    output: '<tool_call>tag_files\n<arg_key>tags</arg_key>\n<arg_value>["draft", "q3"]</arg_value>\n<arg_key>recursive</arg_key>\n<arg_value>true</arg_value>\n<arg_key>note</arg_key>\n<arg_value>[1]</arg_value>\n</tool_call>',
    expected: { text: '', calls: [{ name: 'tag_files', args: { tags: ['draft', 'q3'], recursive: true, note: '[1]' } }] },
  },
  {
    title: 'GLM-4.5: two calls in a row, then the observation token the template waits on',
    format: 'glm-4.5',
    output: 'Both.\n<tool_call>search\n<arg_key>query</arg_key>\n<arg_value>tides</arg_value>\n</tool_call>\n<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Brest</arg_value>\n</tool_call><|observation|>',
    expected: {
      text: 'Both.\n\n',
      calls: [
        { name: 'search', args: { query: 'tides' } },
        { name: 'get_weather', args: { city: 'Brest' } },
      ],
    },
  },
];

describe('published tool-call shapes, every chunking', () => {
  for (const shape of SHAPES) {
    it(`${shape.title} (all formats active)`, () => {
      expect(parseEverySplit(shape.output)).toEqual(shape.expected);
    });
    it(`${shape.title} (only ${shape.format})`, () => {
      expect(parseEverySplit(shape.output, shape.format)).toEqual(shape.expected);
    });
  }

  it('counts: every format has published shapes here', () => {
    const formats = new Set(SHAPES.map((s) => s.format));
    expect([...formats].sort()).toEqual(['deepseek-v3', 'glm-4.5', 'hermes', 'llama3', 'mistral', 'qwen3-coder']);
  });
});

describe('malformed calls: kept as an unparsed call with the raw text, never dropped or crashed on', () => {
  const cases: { title: string; output: string; expected: Outcome }[] = [
    {
      title: 'Hermes dict cut short',
      output: "<tool_call>\n{'name': 'get_weather', 'arguments': {'city': 'Pa\n</tool_call>",
      expected: { text: '', calls: [{ name: 'get_weather', args: "{'name': 'get_weather', 'arguments': {'city': 'Pa" }] },
    },
    {
      title: 'Llama tag with an unclosed object at the end of the stream',
      output: '<|python_tag|>{"name": "search", "parameters": {"query": "x"',
      expected: { text: '', calls: [{ name: 'search', args: '{"name": "search", "parameters": {"query": "x"' }] },
    },
    {
      title: 'Llama tag followed by code for a tool the request lacks (ipython)',
      output: '<|python_tag|>import sys\nprint(sys.version)<|eom_id|>',
      expected: { text: '', calls: [{ name: UNPARSED_TOOL_CALL, args: 'import sys\nprint(sys.version)' }] },
    },
    {
      title: 'Mistral token followed by prose',
      output: '[TOOL_CALLS] not json at all',
      expected: { text: '', calls: [{ name: UNPARSED_TOOL_CALL, args: 'not json at all' }] },
    },
    {
      title: 'Mistral v11 name with no arguments',
      output: '[TOOL_CALLS]get_weather</s>',
      expected: { text: '', calls: [{ name: UNPARSED_TOOL_CALL, args: 'get_weather</s>' }] },
    },
    {
      title: 'DeepSeek call without its separator',
      output: '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather {"city": "Rome"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
      expected: { text: '', calls: [{ name: UNPARSED_TOOL_CALL, args: '<｜tool▁call▁begin｜>get_weather {"city": "Rome"}<｜tool▁call▁end｜>' }] },
    },
    {
      title: 'GLM pair with stray text between the tags',
      output: '<tool_call>ls\n<arg_key>dirPath</arg_key>\n<arg_value>src</arg_value>\noops\n</tool_call>',
      expected: { text: '', calls: [{ name: 'ls', args: 'ls\n<arg_key>dirPath</arg_key>\n<arg_value>src</arg_value>\noops' }] },
    },
  ];
  for (const c of cases) {
    it(c.title, () => {
      expect(parseEverySplit(c.output)).toEqual(c.expected);
    });
  }
});

describe('control tokens and prose', () => {
  it('never shows end-of-turn tokens of any format in the text (catches a trailing <|im_end|> on screen)', () => {
    for (const token of ['<|im_end|>', '<|eot_id|>', '<|eom_id|>', '<｜end▁of▁sentence｜>', '<|observation|>']) {
      expect(parseEverySplit(`The answer is 4.${token}`)).toEqual({ text: 'The answer is 4.', calls: [] });
    }
  });

  it('leaves prose that mentions markers, calls to tools the request lacks, and JSON answers as text', () => {
    for (const output of [
      'Use <tool_call> tags to call tools.',
      'Mistral writes `[TOOL_CALLS]` and Llama `<|python_tag|>` before a call; Qwen3-Coder opens `<tool_call>` too.',
      'Example: <tool_call>{"name": "delete_everything", "arguments": {}}</tool_call>',
      '<tool_call>hello there</tool_call>',
      '{"answer": 42}',
      '{"name": "delete_everything", "arguments": {"x": 1}}; {"name": "add", "arguments": {"a": 1, "b": 2}}',
      "{'not': 'a call'} is a dict",
    ]) {
      expect(parseEverySplit(output)).toEqual({ text: output, calls: [] });
    }
  });

  it('after a special token, a call to a tool the request lacks is still a call, so the agent can say the tool does not exist', () => {
    expect(parseEverySplit('[TOOL_CALLS]delete_everything[ARGS]{"really": true}')).toEqual({ text: '', calls: [{ name: 'delete_everything', args: { really: true } }] });
    expect(parseEverySplit('<|python_tag|>{"name": "delete_everything", "parameters": {}}')).toEqual({ text: '', calls: [{ name: 'delete_everything', args: {} }] });
  });

  it('reads a body fenced right after the tag, while a tag quoted in backticks stays prose', () => {
    expect(parseEverySplit('<tool_call>```json\n{"name": "get_weather", "arguments": {"city": "Rome"}}\n```</tool_call>')).toEqual({
      text: '',
      calls: [{ name: 'get_weather', args: { city: 'Rome' } }],
    });
    expect(parseEverySplit('Wrap it in `<tool_call>` and `</tool_call>`.')).toEqual({ text: 'Wrap it in `<tool_call>` and `</tool_call>`.', calls: [] });
  });

  it('releases the text after a finished call at once, not at the end of the stream (catches a held-back answer)', () => {
    const calls = [
      '[TOOL_CALLS]add[ARGS]{"a": 1, "b": 2}',
      '[TOOL_CALLS][{"name": "add", "arguments": {"a": 1, "b": 2}}]',
      '<|python_tag|>{"name": "add", "parameters": {"a": 1, "b": 2}}',
      '<tool_call>\n<function=add>\n<parameter=a>\n1\n</parameter>\n<parameter=b>\n2\n</parameter>\n</function>\n</tool_call>',
      '<tool_call>add\n<arg_key>a</arg_key>\n<arg_value>1</arg_value>\n<arg_key>b</arg_key>\n<arg_value>2</arg_value>\n</tool_call>',
      '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>add<｜tool▁sep｜>{"a": 1, "b": 2}<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
    ];
    for (const call of calls) {
      const extractor = new TextToolCallExtractor(TOOLS);
      expect(outcome(extractor.push(`${call} Done.`)), call).toEqual({ text: ' Done.', calls: [{ name: 'add', args: { a: 1, b: 2 } }] });
    }
  });

  it('streams text without waiting for the end, holding back only a possible marker', () => {
    const extractor = new TextToolCallExtractor(TOOLS);
    expect(extractor.push('Hello wor')).toEqual([{ type: 'text', delta: 'Hello wor' }]);
    expect(extractor.push('ld [TOOL_')).toEqual([{ type: 'text', delta: 'ld ' }]);
    expect(extractor.push('BOX] done <|eo')).toEqual([{ type: 'text', delta: '[TOOL_BOX] done ' }]);
    expect(extractor.push('t_id|>')).toEqual([]);
  });
});
