/**
 * LoCoMo data and scoring for bench/locomo.ts: reading the published conversation files, normalising
 * evidence ids (a few are malformed), and evidence recall@k. Pure functions, tested on handmade data in
 * test/locomo-metrics.test.ts.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

const Turn = z.object({ speaker: z.string(), dia_id: z.string(), text: z.string(), blip_caption: z.string().optional() });
const Qa = z.object({
  question: z.string(),
  evidence: z.array(z.string()).optional(),
  category: z.number().int(),
});
const Conversation = z.looseObject({ speaker_a: z.string(), speaker_b: z.string(), qa: z.array(Qa) });

export type LocomoTurn = z.infer<typeof Turn>;
export interface LocomoSession {
  number: number;
  /** Epoch ms of the session's date and time. */
  date: number;
  turns: LocomoTurn[];
}
export interface LocomoQuestion {
  question: string;
  category: number;
  /** Normalised evidence ids, `D<session>:<turn>`. */
  evidence: string[];
}
export interface LocomoConversation {
  name: string;
  speakers: [string, string];
  sessions: LocomoSession[];
  questions: LocomoQuestion[];
}

/** Categories with retrievable evidence; 5 (adversarial, no answer) is skipped as the README says. */
export const RETRIEVAL_CATEGORIES = [1, 2, 3, 4] as const;
export const RECALL_KS = [1, 5, 10, 20] as const;

const EVIDENCE_ID = /^D\d+:\d+$/;

/** README rule: split on `[;, ]`, normalise `D:` to `D`, keep ids matching `D<n>:<n>` (deduplicated). */
export function normaliseEvidence(raw: readonly string[]): string[] {
  const ids = raw
    .flatMap((entry) => entry.split(/[;, ]+/))
    .map((id) => id.trim().replace(/^D:/, 'D'))
    .filter((id) => EVIDENCE_ID.test(id));
  return [...new Set(ids)];
}

/** Share of the evidence ids found among the first k retrieved ids. */
export function recallAtK(retrieved: readonly string[], evidence: readonly string[], k: number): number {
  if (evidence.length === 0) throw new Error('recall is undefined without evidence');
  const top = new Set(retrieved.slice(0, k));
  return evidence.filter((id) => top.has(id)).length / evidence.length;
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** `1:56 pm on 8 May, 2023` → epoch ms, in local time like every message timestamp and query date. */
export function parseSessionDate(text: string): number {
  const match = /^(\d{1,2}):(\d{2})\s*(am|pm) on (\d{1,2}) (\w+),? (\d{4})$/i.exec(text.trim());
  const month = match ? MONTHS.indexOf((match[5] ?? '').toLowerCase()) : -1;
  if (!match || month < 0) throw new Error(`unrecognised LoCoMo session date: ${JSON.stringify(text)}`);
  const hour = (Number(match[1]) % 12) + (match[3]?.toLowerCase() === 'pm' ? 12 : 0);
  return new Date(Number(match[6]), month, Number(match[4]), hour, Number(match[2])).getTime();
}

export function parseConversation(name: string, json: unknown): LocomoConversation {
  const raw = Conversation.parse(json);
  const sessions: LocomoSession[] = [];
  for (const key of Object.keys(raw)) {
    const number = /^session_(\d+)$/.exec(key)?.[1];
    if (number === undefined) continue;
    const date = raw[`session_${number}_date_time`];
    if (typeof date !== 'string') throw new Error(`${name}: session_${number} has no date`);
    sessions.push({ number: Number(number), date: parseSessionDate(date), turns: z.array(Turn).parse(raw[key]) });
  }
  sessions.sort((a, b) => a.number - b.number);
  const questions = raw.qa
    .filter((qa) => (RETRIEVAL_CATEGORIES as readonly number[]).includes(qa.category))
    .map((qa) => ({ question: qa.question, category: qa.category, evidence: normaliseEvidence(qa.evidence ?? []) }))
    .filter((qa) => qa.evidence.length > 0);
  return { name, speakers: [raw.speaker_a, raw.speaker_b], sessions, questions };
}

export function loadConversations(dir: string): LocomoConversation[] {
  const files = readdirSync(dir).filter((file) => file.endsWith('.json')).sort();
  if (files.length === 0) throw new Error(`no LoCoMo *.json files in ${dir}`);
  return files.map((file) => parseConversation(file.replace(/\.json$/, ''), JSON.parse(readFileSync(join(dir, file), 'utf8'))));
}

/** Message text as Hearth would store an imported chat turn: "Speaker: text", plus the shared image's caption. */
export function turnContent(turn: LocomoTurn): string {
  return turn.blip_caption ? `${turn.speaker}: ${turn.text} [shared an image: ${turn.blip_caption}]` : `${turn.speaker}: ${turn.text}`;
}

/** Accumulates recall@k per question, overall and per category. */
export class RecallTable {
  private readonly sums = new Map<string, { n: number; r: number[] }>();

  add(category: number, retrieved: readonly string[], evidence: readonly string[]): void {
    const recalls = RECALL_KS.map((k) => recallAtK(retrieved, evidence, k));
    for (const key of ['overall', String(category)]) {
      const entry = this.sums.get(key) ?? { n: 0, r: RECALL_KS.map(() => 0) };
      entry.n++;
      recalls.forEach((r, i) => (entry.r[i] = (entry.r[i] ?? 0) + r));
      this.sums.set(key, entry);
    }
  }

  get questions(): number {
    return this.sums.get('overall')?.n ?? 0;
  }

  /** `{"r1","r5","r10","r20"}` averaged over questions, rounded to 3 decimals. */
  summary(key: string): Record<string, number> {
    const entry = this.sums.get(key);
    if (!entry) return {};
    return Object.fromEntries(RECALL_KS.map((k, i) => [`r${k}`, round3((entry.r[i] ?? 0) / entry.n)]));
  }

  toJSON() {
    const categories = [...this.sums.keys()].filter((key) => key !== 'overall').sort();
    return {
      overall: this.summary('overall'),
      by_category: Object.fromEntries(categories.map((key) => [key, this.summary(key)])),
      questions: this.questions,
    };
  }
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
