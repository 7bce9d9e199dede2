/**
 * A long, realistic conversation for the UI benchmark: user questions, assistant answers in markdown (lists,
 * tables, fenced code in several languages), tool calls with their results, lengths from one line to pages.
 * Deterministic (seeded), so every run opens the same thread.
 */
import type { NewMessage } from '../src/core/store/types.js';
import { seededRandom as seeded } from '../src/core/seeded-random.js';

const WORDS = (
  'the a build test cache session message model token stream render memory skill tool file path config ' +
  'error retry budget context prompt answer latency index query result window thread frame parser schema ' +
  'value should would because first then after before every only still never always quickly carefully'
).split(' ');

const CODE: Record<string, string[]> = {
  ts: [
    'export async function loadConfig(path: string): Promise<Config> {',
    '  const text = await readFile(path, "utf8");',
    '  const parsed = ConfigSchema.safeParse(YAML.parse(text));',
    '  if (!parsed.success) throw new ConfigError(parsed.error.message);',
    '  return { ...defaults, ...parsed.data };',
    '}',
  ],
  python: [
    'def tokenize(text: str) -> list[str]:',
    '    """Split on whitespace, keep punctuation as its own token."""',
    '    out = []',
    '    for word in text.split():',
    '        out.extend(re.findall(r"\\w+|[^\\w\\s]", word))',
    '    return out',
  ],
  bash: ['set -euo pipefail', 'for f in src/**/*.ts; do', '  wc -l "$f"', 'done | sort -n | tail -5', 'npm test -- --reporter=dot'],
};

export class ConversationWriter {
  private readonly random: () => number;
  private callSeq = 0;

  constructor(seed = 42) {
    this.random = seeded(seed);
  }

  private pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)] as T;
  }

  private sentence(min = 6, max = 22): string {
    const n = min + Math.floor(this.random() * (max - min));
    const words = Array.from({ length: n }, () => this.pick(WORDS));
    const text = words.join(' ');
    return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
  }

  private paragraph(): string {
    return Array.from({ length: 1 + Math.floor(this.random() * 4) }, () => this.sentence()).join(' ');
  }

  private codeBlock(): string {
    const language = this.pick(Object.keys(CODE));
    const lines = CODE[language] ?? [];
    const repeat = 1 + Math.floor(this.random() * 3);
    return `\`\`\`${language}\n${Array.from({ length: repeat }, () => lines.join('\n')).join('\n\n')}\n\`\`\``;
  }

  /** An assistant answer: mostly short prose, sometimes a page with lists, a table and code. */
  assistantText(): string {
    const r = this.random();
    if (r < 0.45) return this.paragraph();
    const parts: string[] = [];
    if (r > 0.85) parts.push(`## ${this.sentence(2, 5).slice(0, -1)}`);
    parts.push(this.paragraph());
    if (this.random() < 0.5) parts.push(Array.from({ length: 3 + Math.floor(this.random() * 4) }, () => `- \`${this.pick(WORDS)}\`: ${this.sentence(4, 12)}`).join('\n'));
    if (this.random() < 0.45) parts.push(this.codeBlock());
    if (this.random() < 0.1) parts.push(`| name | value |\n|---|---|\n${Array.from({ length: 4 }, () => `| ${this.pick(WORDS)} | ${this.pick(WORDS)} |`).join('\n')}`);
    if (r > 0.9) parts.push(this.paragraph(), this.paragraph());
    return parts.join('\n\n');
  }

  /**
   * `count` messages, as turns: a user question, then either an answer or a tool call, the tool's result
   * and an answer. The last turn is cut to fit `count` exactly.
   */
  messages(count: number): NewMessage[] {
    const out: NewMessage[] = [];
    while (out.length < count) {
      out.push({ role: 'user', content: this.random() < 0.3 ? `${this.paragraph()}\n\n${this.sentence()}` : this.sentence(5, 18) });
      if (this.random() < 0.3) {
        const id = `call_${++this.callSeq}`;
        const command = this.pick(['npm test', 'git status --short', 'ls -la src', 'rg -n "TODO" src']);
        out.push({ role: 'assistant', content: '', toolCalls: [{ id, name: 'terminal', arguments: JSON.stringify({ command }) }] });
        const lines = Array.from({ length: 2 + Math.floor(this.random() * 12) }, (_, i) => `${i + 1}: ${this.sentence(3, 10)}`);
        out.push({ role: 'tool', content: lines.join('\n'), toolCallId: id, toolName: 'terminal' });
      }
      out.push({ role: 'assistant', content: this.assistantText() });
    }
    out.length = count;
    // A cut that leaves a tool call without its result would make a thread no real session has.
    const last = out[out.length - 1];
    if (last?.role === 'assistant' && last.toolCalls?.length) out[out.length - 1] = { role: 'assistant', content: this.assistantText() };
    return out;
  }
}

/** An answer to stream: markdown with prose, lists and fenced code, long enough for `chars` characters. */
export function streamedAnswer(chars: number, seed = 7): string {
  const writer = new ConversationWriter(seed);
  const parts: string[] = [];
  let length = 0;
  while (length < chars) {
    const part = writer.assistantText();
    parts.push(part);
    length += part.length + 2;
  }
  return parts.join('\n\n').slice(0, chars);
}
