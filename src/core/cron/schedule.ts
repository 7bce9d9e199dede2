import { Cron } from 'croner';
import { HearthError, errorMessage } from '../errors.js';

/**
 * A job's schedule, parsed from what the user (or the model, converting natural language) wrote:
 * - `every 30m` / `every 2h` / `every 1d`: a fixed interval, counted from when the job was created;
 * - a 5-field cron expression (`0 9 * * 1-5`), read in the job's IANA time zone (croner handles DST);
 * - an ISO 8601 instant (`2026-12-24T18:00:00Z`, or without an offset: read in the job's zone), run once;
 * - `in 45m` / `in 2h`: once, that long after it was created (resolved to an instant at once).
 */
export type Schedule =
  | { kind: 'every'; text: string; intervalMs: number }
  | { kind: 'cron'; text: string; expression: string }
  | { kind: 'at'; text: string; at: number };

export type ScheduleKind = Schedule['kind'];

export const SCHEDULE_FORMS =
  'every <n>m|h|d (e.g. "every 30m"), a 5-field cron expression (e.g. "0 9 * * 1-5"), an ISO 8601 time (e.g. "2026-12-24T18:00:00Z"), or in <n>m|h|d (e.g. "in 2h")';

const MINUTE = 60_000;
const UNIT_MS: Record<string, number> = { m: MINUTE, h: 60 * MINUTE, d: 24 * 60 * MINUTE };
const UNIT_WORDS: Record<string, string> = { min: 'm', mins: 'm', minute: 'm', minutes: 'm', hour: 'h', hours: 'h', hr: 'h', hrs: 'h', day: 'd', days: 'd' };
const DURATION = /^(\d+)\s*([a-z]+)$/;
/** Date, `T`, time, optional seconds and fraction, optional `Z` or ±hh:mm. */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:?\d{2})?$/i;

export interface ParseOptions {
  /** Epoch ms the schedule is parsed at: `in 2h` counts from here, and an ISO time must lie after it. */
  now: number;
  /** IANA zone for cron expressions and ISO times without an offset. */
  timeZone: string;
}

/** Parses a schedule; a `usage` HearthError names the forms allowed. */
export function parseSchedule(input: string, options: ParseOptions): Schedule {
  const text = input.trim().replace(/\s+/g, ' ');
  if (text === '') throw invalid(input, 'it is empty');
  assertTimeZone(options.timeZone);
  const lower = text.toLowerCase();
  if (lower.startsWith('every ')) return { kind: 'every', text, intervalMs: duration(text, lower.slice(6)) };
  if (lower.startsWith('in ')) return { kind: 'at', text, at: options.now + duration(text, lower.slice(3)) };
  if (ISO_INSTANT.test(text)) {
    const at = isoInstant(text, options.timeZone);
    if (at <= options.now) throw invalid(input, `${new Date(at).toISOString()} is in the past`);
    return { kind: 'at', text, at };
  }
  const fields = text.split(' ');
  if (fields.length === 5) {
    cronPattern(text, options.timeZone, input);
    return { kind: 'cron', text, expression: text };
  }
  throw invalid(input, fields.length === 6 || fields.length === 7 ? 'cron expressions here have 5 fields (minute hour day month weekday), no seconds or years' : 'it matches none of them');
}

/**
 * A schedule as stored (`schedule_kind`, `schedule_text`; a one-shot's text is its ISO instant), read back
 * without the checks that only apply when it is created (an instant in the past is fine here: it ran).
 */
export function restoreSchedule(kind: string, text: string, timeZone: string): Schedule {
  assertTimeZone(timeZone);
  switch (kind) {
    case 'every':
      return { kind, text, intervalMs: duration(text, text.toLowerCase().replace(/^every /, '')) };
    case 'at':
      return { kind, text, at: isoInstant(text, timeZone) };
    case 'cron':
      cronPattern(text, timeZone, text);
      return { kind, text, expression: text };
    default:
      throw new HearthError('usage', `Unknown schedule kind "${kind}" (expected every, cron or at).`);
  }
}

/** What the store keeps as the schedule's text: a one-shot as its instant, so `in 2h` does not move on each read. */
export function storedScheduleText(schedule: Schedule): string {
  return schedule.kind === 'at' ? new Date(schedule.at).toISOString() : schedule.text;
}

/**
 * The first slot strictly after `after` (epoch ms), or null when there is none (a one-shot already past).
 * `anchor` is where an interval counts from (the job's creation), so slots stay on one grid however late
 * a tick comes.
 */
export function nextRunAfter(schedule: Schedule, after: number, timeZone: string, anchor: number): number | null {
  switch (schedule.kind) {
    case 'at':
      return schedule.at > after ? schedule.at : null;
    case 'every': {
      if (after < anchor) return anchor + schedule.intervalMs;
      const steps = Math.floor((after - anchor) / schedule.intervalMs) + 1;
      return anchor + steps * schedule.intervalMs;
    }
    case 'cron':
      return cronPattern(schedule.expression, timeZone, schedule.text).nextRun(new Date(after))?.getTime() ?? null;
  }
}

/** The slot a new job runs first: an interval's first step, a cron expression's next match, a one-shot's instant. */
export function firstRun(schedule: Schedule, createdAt: number, timeZone: string): number | null {
  return schedule.kind === 'at' ? schedule.at : nextRunAfter(schedule, createdAt, timeZone, createdAt);
}

/** How the schedule reads back to the user: what was understood, not only what was typed. */
export function describeSchedule(schedule: Schedule, timeZone: string): string {
  switch (schedule.kind) {
    case 'every':
      return `every ${humanDuration(schedule.intervalMs)}`;
    case 'at':
      return `once at ${new Date(schedule.at).toISOString()}`;
    case 'cron':
      return `cron "${schedule.expression}" in ${timeZone}`;
  }
}

/** Fails with a message naming the fix when the zone is not one this runtime knows. */
export function assertTimeZone(timeZone: string): void {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
  } catch {
    // Intl's RangeError only says "Invalid time zone specified"; this names what is expected.
    throw new HearthError('usage', `Unknown time zone "${timeZone}": use an IANA name such as Europe/Berlin, America/New_York or UTC.`);
  }
}

/** This computer's zone, the default when neither the job nor `cron.timezone` names one. */
export function systemTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

function duration(text: string, rest: string): number {
  const match = DURATION.exec(rest.replace(/\s+/g, ' ').trim());
  const unit = match === null ? undefined : (UNIT_WORDS[match[2] as string] ?? match[2]);
  const size = unit === undefined ? undefined : UNIT_MS[unit];
  if (match === null || size === undefined) throw invalid(text, 'the amount must be a whole number followed by m, h or d');
  const amount = Number(match[1]);
  if (amount < 1) throw invalid(text, 'the amount must be at least 1');
  return amount * size;
}

function isoInstant(text: string, timeZone: string): number {
  const normalized = text.replace(' ', 'T');
  const hasOffset = /(Z|[+-]\d{2}:?\d{2})$/i.test(normalized);
  // Without an offset the wall-clock time is meant in the job's zone, not in wherever the ticker runs.
  const at = hasOffset ? Date.parse(normalized) : (new Cron(normalized, { timezone: timeZone, paused: true, allowPast: true }).nextRun(new Date(0))?.getTime() ?? Number.NaN);
  if (!Number.isFinite(at)) throw invalid(text, 'it looks like an ISO 8601 time but is not a valid one');
  return at;
}

function cronPattern(expression: string, timeZone: string, input: string): Cron {
  try {
    return new Cron(expression, { timezone: timeZone, mode: '5-part', paused: true });
  } catch (err) {
    throw invalid(input, `the cron expression is not valid: ${errorMessage(err)}`);
  }
}

function humanDuration(ms: number): string {
  for (const [unit, size] of [['d', UNIT_MS.d], ['h', UNIT_MS.h]] as const) {
    if (size !== undefined && ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${ms / MINUTE}m`;
}

function invalid(input: string, why: string): HearthError {
  return new HearthError('usage', `Cannot read the schedule "${input.trim()}": ${why}. A schedule is ${SCHEDULE_FORMS}.`);
}
