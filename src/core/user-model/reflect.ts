import { abortError, HearthError } from '../errors.js';
import type { ChatModel } from '../llm/types.js';
import { scanForInjection, describeScan } from '../safety/injection/scan.js';
import type { SqliteSessionStore } from '../store/session-store.js';
import { SKILL_HINT_HEADER } from '../skills/relevance.js';
import { evidenceExcerpt } from '../store/excerpt.js';
import type { NewFact, UserFact, UserFactStore } from './facts.js';
import { parseReflection, REFLECTION_SYSTEM_PROMPT, reflectionUserPrompt, type ProposedFact, type ShownMessage } from './reflection-output.js';
import { isNearDuplicate } from './statement-terms.js';

export interface ReflectOptions {
  model: ChatModel;
  store: SqliteSessionStore;
  facts: UserFactStore;
  signal: AbortSignal;
  /** At most this many user messages per pass (the rest wait for the next pass). */
  maxMessages?: number;
  /** And at most this many characters of them; each message is cut to `maxMessageChars`. */
  maxChars?: number;
  maxMessageChars?: number;
}

export interface ReflectionResult {
  /** User messages read this pass (0: nothing new, no model call made). */
  messagesRead: number;
  cursor: { from: number; to: number };
  added: UserFact[];
  /** Existing facts a new one repeated: more evidence, higher confidence. */
  reinforced: UserFact[];
  superseded: Array<{ fact: UserFact; by: number; reason: string }>;
  /** Proposals not stored, and why (no valid evidence, unsafe text, malformed). */
  rejected: Array<{ statement: string; reason: string }>;
}

interface MessageRow {
  id: number;
  session_id: string;
  content: string;
  created_at: number;
}

/** Where the skill hint starts when the host appended it to the typed request (agent/host.ts). */
const SKILL_HINT = `\n\n${SKILL_HINT_HEADER}`;

/** The words the user typed: the skill hint Hearth appended to the request is not theirs. */
export function typedText(content: string): string {
  const hint = content.indexOf(SKILL_HINT);
  return hint === -1 ? content : content.slice(0, hint);
}

/**
 * One reflection pass over the user's messages newer than the cursor, across all sessions: one model call
 * (no tools) proposes facts with evidence; evidence must be among the messages shown (fabricated ids are
 * dropped, a fact left with none is rejected); near-duplicates reinforce the existing fact; contradicted
 * facts are superseded, never deleted. Facts and the new cursor commit in one transaction. If the call
 * fails or the answer cannot be read, it throws and the cursor stays put, so no message goes unread.
 */
export async function reflectOnUser(options: ReflectOptions): Promise<ReflectionResult> {
  const { facts, signal } = options;
  const from = facts.cursor();
  const messages = newUserMessages(options, from);
  const result: ReflectionResult = { messagesRead: messages.length, cursor: { from, to: from }, added: [], reinforced: [], superseded: [], rejected: [] };
  if (messages.length === 0) return result;

  const existing = facts.active();
  const answer = await complete(options.model, reflectionUserPrompt(existing, messages), signal);
  const parsed = parseReflection(answer);
  for (const bad of parsed.invalid) result.rejected.push({ statement: bad.item, reason: `malformed: ${bad.reason}` });

  const shown = new Map(messages.map((m) => [m.id, m]));
  const rejectedByUser = facts.list('rejected');
  const proposals = parsed.facts.map((fact) => (fact ? checkProposal(fact, shown, rejectedByUser, result) : null));
  const to = messages.at(-1)?.id ?? from;

  facts.transaction(() => {
    // Facts this pass names as replacements must not merge into the very facts they replace.
    const replacing = new Map<number, Set<number>>();
    for (const s of parsed.supersede) replacing.set(s.byIndex, (replacing.get(s.byIndex) ?? new Set()).add(s.factId));

    const storedIds = proposals.map((proposal, index) => (proposal ? store(facts, proposal, replacing.get(index) ?? new Set(), result) : null));

    const activeIds = new Set(existing.map((f) => f.id));
    for (const s of parsed.supersede) {
      const by = storedIds[s.byIndex];
      const old = existing.find((f) => f.id === s.factId);
      if (by === undefined || by === null || !old || !activeIds.has(s.factId) || by === s.factId) {
        result.rejected.push({ statement: `supersede fact ${s.factId} by #${s.byIndex}`, reason: 'names a fact that is not active or a replacement that was not stored' });
        continue;
      }
      if (facts.supersede(s.factId, by)) result.superseded.push({ fact: { ...old, status: 'superseded', supersededBy: by }, by, reason: s.reason });
    }
    facts.setCursor(to);
  });
  result.cursor.to = to;
  return result;
}

function newUserMessages(options: ReflectOptions, after: number): ShownMessage[] {
  const maxMessages = options.maxMessages ?? 40;
  const maxChars = options.maxChars ?? 12_000;
  const perMessage = options.maxMessageChars ?? 1_500;
  // Only what the user typed (store version 7 origins): never a compression summary or other text Hearth
  // put in a user-role row, never a copy of a message already read in the parent session (compression,
  // branches). Cron jobs and subagents write 'user' messages too, but those are task prompts.
  const rows = options.store.db
    .prepare<[number, number], MessageRow>(
      `SELECT m.id, m.session_id, m.content, m.created_at FROM messages m JOIN sessions s ON s.id = m.session_id
       WHERE m.role = 'user' AND m.origin = 'user' AND m.id > ? AND s.source NOT IN ('cron', 'subagent') ORDER BY m.id LIMIT ?`,
    )
    .all(after, maxMessages);
  const shown: ShownMessage[] = [];
  let chars = 0;
  for (const row of rows) {
    const typed = typedText(row.content);
    const content = typed.length > perMessage ? `${typed.slice(0, perMessage)} […]` : typed;
    // Always at least one message, so a pass can never get stuck behind one long message.
    if (shown.length > 0 && chars + content.length > maxChars) break;
    shown.push({ id: row.id, sessionId: row.session_id, content, createdAt: row.created_at });
    chars += content.length;
  }
  return shown;
}

async function complete(model: ChatModel, prompt: string, signal: AbortSignal): Promise<string> {
  let text = '';
  const request = {
    messages: [
      { role: 'system' as const, content: REFLECTION_SYSTEM_PROMPT },
      { role: 'user' as const, content: prompt },
    ],
    tools: [],
    toolChoice: 'none' as const,
    temperature: 0,
  };
  for await (const event of model.stream(request, signal)) {
    if (event.type === 'text') text += event.delta;
    if (signal.aborted) throw abortError(signal);
  }
  if (!text.trim()) throw new HearthError('model_bad_response', `${model.id} returned an empty reflection answer.`);
  return text;
}

/**
 * Evidence limited to the messages shown, each cited by session, id and excerpt; unsafe statements refused
 * (facts are rendered into the prompt); a fact the user rejected is not learned again from new evidence.
 */
function checkProposal(fact: ProposedFact, shown: ReadonlyMap<number, ShownMessage>, rejectedByUser: readonly UserFact[], result: ReflectionResult): NewFact | null {
  const evidence = fact.evidence.flatMap((id) => {
    const message = shown.get(id);
    return message === undefined ? [] : [{ messageId: id, sessionId: message.sessionId, excerpt: evidenceExcerpt(message.content) }];
  });
  if (evidence.length === 0) {
    result.rejected.push({ statement: fact.statement, reason: `no valid evidence (cited ${JSON.stringify(fact.evidence)}, none among the messages shown)` });
    return null;
  }
  const wrong = rejectedByUser.find((f) => f.category === fact.category && isNearDuplicate(f.statement, fact.statement));
  if (wrong !== undefined) {
    result.rejected.push({ statement: fact.statement, reason: `the user marked this wrong (fact #${wrong.id})` });
    return null;
  }
  const scan = scanForInjection(fact.statement, { source: 'user_model' });
  if (scan.verdict === 'blocked') {
    result.rejected.push({ statement: fact.statement, reason: describeScan(scan) });
    return null;
  }
  return { ...fact, evidence };
}

function store(facts: UserFactStore, fact: NewFact, mustNotMergeInto: ReadonlySet<number>, result: ReflectionResult): number {
  const twin = facts.active().find((f) => f.category === fact.category && !mustNotMergeInto.has(f.id) && isNearDuplicate(f.statement, fact.statement));
  if (twin) {
    const updated = facts.reinforce(twin.id, fact);
    // A fact added earlier in this pass stays reported as added, with its latest state.
    const list = result.added.some((f) => f.id === updated.id) ? result.added : result.reinforced;
    const seen = list.findIndex((f) => f.id === updated.id);
    if (seen === -1) list.push(updated);
    else list[seen] = updated;
    return updated.id;
  }
  const added = facts.insert(fact);
  result.added.push(added);
  return added.id;
}
