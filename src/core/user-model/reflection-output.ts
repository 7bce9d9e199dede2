import { z } from 'zod';
import { HearthError } from '../errors.js';
import { FACT_CATEGORIES, type FactCategory, type UserFact } from './facts.js';

/**
 * The reflection prompt and the parsing of the model's answer. Models wrap JSON in code fences, add a
 * sentence before it, write ids as "#12" or confidence as 80: all accepted. An answer with no JSON
 * object, or one whose shape is wrong, is a `model_bad_response` error (the caller then keeps its cursor).
 * One bad fact inside a good answer is only that fact rejected.
 */

export interface ShownMessage {
  id: number;
  sessionId: string;
  content: string;
  createdAt: number;
}

export const REFLECTION_SYSTEM_PROMPT = `You maintain a model of the user of an AI assistant: durable facts about who they are and how they work.
Read the user's messages and extract facts in these categories:
- preference: tools, styles, formats they like or dislike
- work_pattern: how and when they work (workflow, habits, schedule)
- expertise: what they know well or are learning
- instruction: standing rules they want followed in every session
- background: role, projects, environment, languages spoken
Rules:
- Only facts the messages support. Every fact cites the ids of the messages that show it, as numbers.
- Skip one-off task details, secrets, and anything that will be stale within a week.
- One sentence per fact, third person: "The user prefers tabs over spaces."
- confidence from 0 to 1: about 0.9 when stated outright, 0.5-0.7 when inferred.
- If a new fact contradicts an existing fact, include the new fact and list the old one in "supersede",
  with by_index = the new fact's 0-based position in your "facts" array.
Reply with only a JSON object, no other text:
{"facts":[{"category":"preference","statement":"...","confidence":0.9,"evidence":[12]}],"supersede":[{"fact_id":3,"by_index":0,"reason":"..."}]}
When nothing is worth recording, reply {"facts":[],"supersede":[]}.`;

export function reflectionUserPrompt(existing: readonly UserFact[], messages: readonly ShownMessage[]): string {
  const facts = existing.length
    ? existing.map((f) => `- fact_id ${f.id} [${f.category}, ${f.confidence.toFixed(2)}] ${f.statement}`).join('\n')
    : '(none yet)';
  const shown = messages.map((m) => `[message ${m.id}] ${m.content}`).join('\n\n');
  return `Existing facts about the user:\n${facts}\n\nNew messages from the user:\n${shown}`;
}

/** Accepts 12, "12" and "#12"; anything else is not an id. */
const MessageId = z.preprocess((v) => (typeof v === 'string' ? Number(v.replace(/^#/, '').trim()) : v), z.number().int().positive());

/** Percentages (80) are read as 0.8; a missing confidence is treated as a weak inference. */
const Confidence = z.preprocess((v) => (typeof v === 'number' && v > 1 && v <= 100 ? v / 100 : v), z.number().min(0).max(1)).default(0.5);

const ProposedFactShape = z.object({
  category: z.enum(FACT_CATEGORIES),
  statement: z.string().trim().min(3).max(400),
  confidence: Confidence,
  evidence: z.array(MessageId).default([]),
});

const ProposedSupersede = z.object({
  fact_id: MessageId,
  by_index: z.number().int().min(0),
  reason: z.string().default(''),
});

const ReflectionShape = z.object({
  facts: z.array(z.unknown()).default([]),
  supersede: z.array(z.unknown()).default([]),
});

/** A fact as the model proposed it: evidence is the message ids it cited, not yet checked. */
export interface ProposedFact {
  category: FactCategory;
  statement: string;
  confidence: number;
  evidence: number[];
}

export interface ParsedReflection {
  /** Same positions as the model's array (by_index refers to them); `null` where that fact was invalid. */
  facts: Array<ProposedFact | null>;
  supersede: Array<{ factId: number; byIndex: number; reason: string }>;
  /** Facts or supersede entries dropped for their shape. */
  invalid: Array<{ item: string; reason: string }>;
}

export function parseReflection(text: string): ParsedReflection {
  const json = extractJsonObject(text);
  if (json === undefined) {
    throw new HearthError('model_bad_response', `The reflection answer holds no JSON object: "${text.trim().slice(0, 120)}"`);
  }
  const shape = ReflectionShape.safeParse(json);
  if (!shape.success) {
    throw new HearthError('model_bad_response', `The reflection answer is not {facts, supersede}: ${shape.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  const invalid: ParsedReflection['invalid'] = [];
  const facts = shape.data.facts.map((raw) => {
    const fact = ProposedFactShape.safeParse(raw);
    if (fact.success) return fact.data;
    invalid.push({ item: JSON.stringify(raw).slice(0, 120), reason: fact.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') });
    return null;
  });
  const supersede = shape.data.supersede.flatMap((raw) => {
    const entry = ProposedSupersede.safeParse(raw);
    if (entry.success) return [{ factId: entry.data.fact_id, byIndex: entry.data.by_index, reason: entry.data.reason }];
    invalid.push({ item: JSON.stringify(raw).slice(0, 120), reason: entry.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') });
    return [];
  });
  return { facts, supersede, invalid };
}

/** The whole text as JSON, else the first fenced block, else the first balanced `{…}` that parses. */
export function extractJsonObject(text: string): unknown {
  const candidates = [text.trim()];
  for (const m of text.matchAll(/```(?:json|JSON)?\s*\n?([\s\S]*?)```/g)) if (m[1]) candidates.push(m[1].trim());
  for (const candidate of candidates) {
    const parsed = tryJson(candidate);
    if (isObject(parsed)) return parsed;
  }
  for (let start = text.indexOf('{'); start !== -1; start = text.indexOf('{', start + 1)) {
    const end = matchingBrace(text, start);
    if (end === -1) continue;
    const parsed = tryJson(text.slice(start, end + 1));
    if (isObject(parsed)) return parsed;
  }
  return undefined;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // Not JSON: the caller tries the next candidate, and reports when none parses.
    return undefined;
  }
}

/** Index of the `}` closing the `{` at `start`, skipping braces inside strings; -1 if unbalanced. */
function matchingBrace(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '{') depth++;
    else if (ch === '}' && --depth === 0) return i;
  }
  return -1;
}
