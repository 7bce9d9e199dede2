/**
 * Which format a local model writes, from its GGUF metadata, and the Python-literal reader the
 * Hermes and XML formats rely on.
 */
import { describe, expect, it } from 'vitest';
import { chooseToolCallFormat } from '../src/core/llm/tool-call-formats/index.js';
import { parsePythonKeywordArguments, parsePythonLiteral } from '../src/core/llm/tool-call-formats/python-literal.js';

describe('choosing the format from GGUF metadata', () => {
  // Fragments in the style of each family's published chat template: the markers are the real ones.
  const templates: [string, string][] = [
    ['hermes', "{%- for message in messages %}{{'<|im_start|>' + message['role'] + '\\n'}}{%- if message.tool_calls %}<tool_call>\\n{{ tool_call | tojson }}\\n</tool_call>{%- endif %}"],
    ['llama3', "{{- '<|start_header_id|>' + message['role'] + '<|end_header_id|>\\n\\n' }}{%- if builtin_tools %}<|python_tag|>{{ tool_call.name }}.call({%- endif %}{{- '<|eot_id|>' }}"],
    ['mistral', '{%- if message.tool_calls %}[TOOL_CALLS]{{ tool.name }}[ARGS]{{ tool.arguments | tojson }}{%- endif %}'],
    ['qwen3-coder', "{{- '<tool_call>\\n<function=' + tool_call.name + '>\\n' }}{%- for k, v in tool_call.arguments.items() %}{{- '<parameter=' + k + '>\\n' }}"],
    ['deepseek-v3', "{{'<｜Assistant｜><｜tool▁calls▁begin｜><｜tool▁call▁begin｜>' + tool['type'] + '<｜tool▁sep｜>' + tool['function']['name'] }}"],
    ['glm-4.5', "{{- '<tool_call>' + tc.name }}{% for k, v in tc.arguments.items() %}\\n<arg_key>{{ k }}</arg_key>\\n<arg_value>{{ v }}</arg_value>{% endfor %}"],
  ];
  for (const [expected, chatTemplate] of templates) {
    it(`a ${expected} chat template picks ${expected}`, () => {
      expect(chooseToolCallFormat({ chatTemplate, architecture: 'llama', name: 'some model' }).format.name).toBe(expected);
    });
  }

  it('without a template, the model name decides, Hermes fine-tunes before their base family (catches Hermes 3 Llama read as Llama)', () => {
    const byName = (name: string): string => chooseToolCallFormat({ name, architecture: 'llama' }).format.name;
    expect(byName('Hermes 3 Llama 3.1 8B')).toBe('hermes');
    expect(byName('Meta Llama 3.1 8B Instruct')).toBe('llama3');
    expect(byName('Mistral Small 3.2 24B Instruct 2506')).toBe('mistral');
    expect(byName('Qwen3 Coder 30B A3B Instruct')).toBe('qwen3-coder');
    expect(byName('GLM 4.5 Air')).toBe('glm-4.5');
    expect(byName('DeepSeek V3 0324')).toBe('deepseek-v3');
  });

  it('then the architecture, then Hermes (what Hearth prompts for)', () => {
    expect(chooseToolCallFormat({ architecture: 'glm4moe' }).format.name).toBe('glm-4.5');
    expect(chooseToolCallFormat({ architecture: 'deepseek2', name: 'unnamed' }).format.name).toBe('deepseek-v3');
    const fallback = chooseToolCallFormat({ architecture: 'llama', name: 'hearth-test-tiny' });
    expect(fallback.format.name).toBe('hermes');
    expect(fallback.reason).toMatch(/nothing in the metadata/);
  });
});

describe('Python literals (never evaluated)', () => {
  it('reads what Hermes and GLM write: quotes of both kinds, escapes, True/False/None, tuples, nesting', () => {
    expect(parsePythonLiteral(`{'a': "it's", 'b': 'say "hi"\\n', 'c': (1, -2.5e3, True), 'd': [None, False], 'e': {'f': {}}}`)).toEqual({
      ok: true,
      value: { a: "it's", b: 'say "hi"\n', c: [1, -2500, true], d: [null, false], e: { f: {} } },
    });
    expect(parsePythonLiteral("'''multi\nline''' 'joined'")).toEqual({ ok: true, value: 'multi\nlinejoined' });
    expect(parsePythonLiteral("{'x': '\\u00e9\\x41', 'y': 1_000,}")).toEqual({ ok: true, value: { x: 'éA', y: 1000 } });
  });

  it('refuses code and anything that is not a literal, with the reason (catches an eval-like reader)', () => {
    for (const text of ["__import__('os').system('rm -rf /')", "{'a': open('x')}", "{'a': 1", "{'a' 1}", "'unterminated", '[1, 2] + [3]', '1e999']) {
      const result = parsePythonLiteral(text);
      expect(result.ok, text).toBe(false);
      if (!result.ok) expect(result.reason).not.toBe('');
    }
    expect(parsePythonLiteral('['.repeat(100) + ']'.repeat(100)).ok).toBe(false); // nesting bounded
  });

  it('reads keyword arguments of a built-in call', () => {
    expect(parsePythonKeywordArguments('query="tides", days=3, exact=False')).toEqual({ ok: true, value: { query: 'tides', days: 3, exact: false } });
    expect(parsePythonKeywordArguments('"positional"').ok).toBe(false);
  });
});
