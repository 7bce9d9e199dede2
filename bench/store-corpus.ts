/**
 * Deterministic, realistic-looking chat text for the store benchmark: a seeded PRNG, a vocabulary with
 * a Zipf-like frequency skew (a few very common words, a long tail of rare ones), occasional Chinese
 * sentences, and assistant tool calls with JSON arguments.
 */
import type { NewMessage } from '../src/core/store/types.js';

const COMMON = `the a to of and in is it that for you this with on be are can was have not as do what at if or but from
by we so will an my your how all there would about which when one they more some like just use need file code run
make get see time also then new way now first error test data server build change check value set work please could
thanks should because function config update problem output line model user request version install look start
default issue method return string number list type name path command result project system memory session message`.split(/\s+/);

const TECHNICAL = `deploy deployed deploying deployment kubernetes docker container postgres postgresql sqlite database
migration migrate index query schema table column transaction commit rollback branch merge rebase repository git
python typescript javascript rust golang compiler linker runtime debugger breakpoint stacktrace exception timeout
latency throughput cache redis nginx proxy certificate tls ssh token oauth webhook endpoint payload json yaml toml
parser tokenizer embedding vector inference quantization gguf llama tensor gradient optimizer batch epoch dataset
refactor benchmark profiler allocation garbage collector thread mutex deadlock async await promise callback stream
socket buffer encoding unicode utf8 locale timezone cron schedule backup restore snapshot checksum encryption
keychain password secret credential permission sandbox firewall network dns hostname subnet gateway router`.split(/\s+/);

const SYLLABLES = 'ka lo mi re tu van sel dor pim qua zen bri tok sha gel mun fay rod lex nix pol tar vin hup'.split(' ');

const CHINESE = [
  '今天完成了数据迁移，服务器运行正常。',
  '请帮我检查一下数据库的索引是否正确。',
  '部署脚本在生产环境中失败了，需要回滚。',
  '这个模型的推理速度比昨天快了很多。',
  '明天上午十点开会讨论新的架构设计。',
  '备份文件已经加密并上传到远程服务器。',
];

const TOOLS = ['read_file', 'write_file', 'patch', 'search_files', 'terminal', 'todo'];

/** Vocabulary ordered from most to least frequent: common words, technical words, then rare coinages. */
export function buildVocabulary(random: () => number, rareWords = 20_000): string[] {
  const rare = new Set<string>();
  while (rare.size < rareWords) {
    const count = 2 + Math.floor(random() * 3);
    rare.add(Array.from({ length: count }, () => SYLLABLES[Math.floor(random() * SYLLABLES.length)]).join(''));
  }
  return [...COMMON, ...TECHNICAL, ...rare];
}

export class CorpusGenerator {
  readonly vocabulary: string[];
  constructor(private readonly random: () => number) {
    this.vocabulary = buildVocabulary(random);
  }

  /** Zipf-like: index = n · u^3 puts most draws on the first few hundred words. */
  word(): string {
    const index = Math.floor(this.vocabulary.length * this.random() ** 3);
    return this.vocabulary[index] ?? 'the';
  }

  sentence(): string {
    if (this.random() < 0.04) return CHINESE[Math.floor(this.random() * CHINESE.length)] ?? '';
    const length = 6 + Math.floor(this.random() * 18);
    const words = Array.from({ length }, () => this.word());
    return `${words.join(' ')}.`;
  }

  message(turn: number): NewMessage {
    const text = Array.from({ length: 1 + Math.floor(this.random() * 4) }, () => this.sentence()).join(' ');
    switch (turn % 4) {
      case 0:
        return { role: 'user', content: text };
      case 1: {
        const name = TOOLS[Math.floor(this.random() * TOOLS.length)] ?? 'terminal';
        const args = JSON.stringify({ path: `/home/user/project/${this.word()}/${this.word()}.ts`, pattern: this.word() });
        return { role: 'assistant', content: '', toolCalls: [{ id: `call_${turn}`, name, arguments: args }] };
      }
      case 2:
        return { role: 'tool', content: text, toolCallId: `call_${turn - 1}`, toolName: 'terminal' };
      default:
        return { role: 'assistant', content: text, outputTokens: 40 + Math.floor(this.random() * 200) };
    }
  }
}
