import { isAbsolute, resolve } from 'node:path';
import { HearthError } from '../errors.js';

/**
 * Where a job's output goes. `file:<path>` and `desktop` are built here; chat targets (`telegram:<chat id>`,
 * `discord:<channel id>`, …) are delivered by the gateway through the same `Deliverer` port.
 */
export const TARGET_KINDS = ['file', 'desktop', 'telegram', 'discord', 'slack', 'whatsapp', 'signal'] as const;
export type TargetKind = (typeof TARGET_KINDS)[number];

export interface DeliveryTarget {
  kind: TargetKind;
  /** The path (file), the chat or channel id (chat platforms); empty for `desktop`. */
  address: string;
  /** The target as stored and shown: `file:/home/me/news.md`. */
  text: string;
}

/** What a deliverer is told besides the text, for a header or a notification title. */
export interface DeliveryContext {
  jobId: string;
  jobName: string;
  runId: number;
  /** Epoch ms the run finished. */
  at: number;
}

/** Delivers a job's output to one kind of target. Throwing (or rejecting) means not delivered: the run fails. */
export interface Deliverer {
  kind: TargetKind;
  deliver(target: DeliveryTarget, text: string, context: DeliveryContext): Promise<void>;
}

const TARGET_FORMS = '"file:<absolute path>", "desktop", or "<platform>:<chat id>" with platform one of telegram, discord, slack, whatsapp, signal';

/**
 * Parses and normalizes a target as the user wrote it. A relative `file:` path is resolved against `cwd`, so
 * the stored target means the same file whichever process later delivers to it.
 */
export function normalizeTarget(input: string, cwd: string): string {
  const text = input.trim();
  const colon = text.indexOf(':');
  const kind = (colon === -1 ? text : text.slice(0, colon)).toLowerCase();
  const address = colon === -1 ? '' : text.slice(colon + 1).trim();
  if (!isTargetKind(kind)) throw invalidTarget(input, `"${kind}" is not a kind of target`);
  if (kind === 'desktop') {
    if (address !== '') throw invalidTarget(input, 'desktop takes no address');
    return 'desktop';
  }
  if (address === '') throw invalidTarget(input, `${kind} needs ${kind === 'file' ? 'a path' : 'a chat id'} after the colon`);
  return kind === 'file' ? `file:${isAbsolute(address) ? address : resolve(cwd, address)}` : `${kind}:${address}`;
}

/** Reads a stored target; a `usage` HearthError for one that does not parse (a hand-edited row). */
export function parseTarget(text: string): DeliveryTarget {
  const normalized = normalizeTarget(text, '/');
  const colon = normalized.indexOf(':');
  const kind = (colon === -1 ? normalized : normalized.slice(0, colon)) as TargetKind;
  if (kind === 'file' && !isAbsolute(text.slice(colon + 1).trim())) throw invalidTarget(text, 'a stored file target must be an absolute path');
  return { kind, address: colon === -1 ? '' : normalized.slice(colon + 1), text: normalized };
}

function isTargetKind(kind: string): kind is TargetKind {
  return (TARGET_KINDS as readonly string[]).includes(kind);
}

function invalidTarget(input: string, why: string): HearthError {
  return new HearthError('usage', `Cannot read the delivery target "${input}": ${why}. A target is ${TARGET_FORMS}.`);
}
