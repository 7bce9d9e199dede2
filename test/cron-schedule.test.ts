import { describe, expect, it } from 'vitest';
import { describeSchedule, firstRun, nextRunAfter, parseSchedule, restoreSchedule, storedScheduleText } from '../src/core/cron/schedule.js';
import { normalizeTarget, parseTarget } from '../src/core/cron/targets.js';

const NOW = Date.parse('2026-03-01T10:00:00Z');
const UTC = { now: NOW, timeZone: 'UTC' };
const MIN = 60_000;

describe('cron schedules', () => {
  // Catches a parser that reads "every 2h" as minutes, or accepts units it cannot schedule.
  it('reads intervals in minutes, hours and days and puts slots on a grid from creation', () => {
    expect(parseSchedule('every 30m', UTC)).toMatchObject({ kind: 'every', intervalMs: 30 * MIN });
    expect(parseSchedule('every 2h', UTC)).toMatchObject({ kind: 'every', intervalMs: 120 * MIN });
    expect(parseSchedule('Every 1 day', UTC)).toMatchObject({ kind: 'every', intervalMs: 24 * 60 * MIN });
    const every = parseSchedule('every 30m', UTC);
    expect(firstRun(every, NOW, 'UTC')).toBe(NOW + 30 * MIN);
    // A tick 95 minutes late lands on the next grid slot, not 30 minutes after the late tick.
    expect(nextRunAfter(every, NOW + 95 * MIN, 'UTC', NOW)).toBe(NOW + 120 * MIN);
    expect(nextRunAfter(every, NOW + 30 * MIN, 'UTC', NOW)).toBe(NOW + 60 * MIN);
  });

  // Catches relative one-shots that drift: "in 2h" must become one fixed instant, stored as such.
  it('resolves relative one-shots to an instant once, and ISO times as given', () => {
    const inTwo = parseSchedule('in 2h', UTC);
    expect(inTwo).toMatchObject({ kind: 'at', at: NOW + 120 * MIN });
    expect(storedScheduleText(inTwo)).toBe('2026-03-01T12:00:00.000Z');
    expect(restoreSchedule('at', storedScheduleText(inTwo), 'UTC')).toMatchObject({ kind: 'at', at: NOW + 120 * MIN });
    expect(parseSchedule('in 45 minutes', UTC)).toMatchObject({ at: NOW + 45 * MIN });
    expect(parseSchedule('2026-12-24T18:00:00Z', UTC)).toMatchObject({ kind: 'at', at: Date.parse('2026-12-24T18:00:00Z') });
    // Without an offset the wall-clock time is the job's zone's.
    expect(parseSchedule('2026-12-24T18:00', { now: NOW, timeZone: 'Europe/Berlin' })).toMatchObject({ at: Date.parse('2026-12-24T17:00:00Z') });
    const once = parseSchedule('in 5m', UTC);
    expect(nextRunAfter(once, NOW, 'UTC', NOW)).toBe(NOW + 5 * MIN);
    expect(nextRunAfter(once, NOW + 5 * MIN, 'UTC', NOW)).toBeNull();
  });

  // Catches a cron expression read in UTC (or the machine's zone) instead of the job's own zone.
  it('reads cron expressions in the job time zone', () => {
    const weekdays = parseSchedule('0 9 * * 1-5', { now: NOW, timeZone: 'America/New_York' });
    expect(weekdays.kind).toBe('cron');
    // 2026-03-01 is a Sunday; the next weekday 09:00 in New York (EST, UTC-5) is Monday 14:00Z.
    expect(new Date(firstRun(weekdays, NOW, 'America/New_York') ?? 0).toISOString()).toBe('2026-03-02T14:00:00.000Z');
    expect(describeSchedule(weekdays, 'America/New_York')).toBe('cron "0 9 * * 1-5" in America/New_York');
  });

  // Catches DST bugs: a daily 09:00 job must stay at 09:00 local across the change (13:00Z after, 14:00Z before),
  // and a 02:30 job on the night 02:00-03:00 does not exist must still run once that day.
  it('keeps local wall-clock times across a DST change', () => {
    const tz = 'America/New_York';
    const daily = parseSchedule('0 9 * * *', { now: NOW, timeZone: tz });
    const before = Date.parse('2026-03-07T15:00:00Z'); // Saturday, after 09:00 EST
    const sunday = nextRunAfter(daily, before, tz, NOW) ?? 0;
    expect(new Date(sunday).toISOString()).toBe('2026-03-08T13:00:00.000Z'); // 09:00 EDT (UTC-4)
    const gap = parseSchedule('30 2 * * *', { now: NOW, timeZone: tz });
    const inGap = nextRunAfter(gap, Date.parse('2026-03-07T12:00:00Z'), tz, NOW) ?? 0;
    // 02:30 does not exist on 2026-03-08 in New York: it runs at the first valid time after the gap, 03:00 EDT.
    expect(new Date(inGap).toISOString()).toBe('2026-03-08T07:00:00.000Z');
    const nextDay = nextRunAfter(gap, inGap, tz, NOW) ?? 0;
    expect(new Date(nextDay).toISOString()).toBe('2026-03-09T06:30:00.000Z');
    // Autumn: 01:30 happens twice on 2026-11-01; a fixed-time job runs once.
    const repeated = parseSchedule('30 1 * * *', { now: NOW, timeZone: tz });
    const first = nextRunAfter(repeated, Date.parse('2026-11-01T04:00:00Z'), tz, NOW) ?? 0;
    expect(new Date(first).toISOString()).toBe('2026-11-01T05:30:00.000Z');
    expect(new Date(nextRunAfter(repeated, first, tz, NOW) ?? 0).toISOString()).toBe('2026-11-02T06:30:00.000Z');
  });

  // Catches an error that does not tell the user (or the model) what would have been accepted.
  it('rejects what it cannot schedule and names the forms allowed', () => {
    for (const bad of ['every day at 9', 'tomorrow morning', 'every 0m', 'every 30s', '0 0 * * * *', '61 * * * *', 'in 2 fortnights', '']) {
      expect(() => parseSchedule(bad, UTC), bad).toThrow(/every <n>m\|h\|d .*5-field cron expression.*ISO 8601.*in <n>m\|h\|d/);
    }
    expect(() => parseSchedule('0 0 * * * *', UTC)).toThrow(/5 fields/);
    expect(() => parseSchedule('2020-01-01T00:00:00Z', UTC)).toThrow(/in the past/);
    expect(() => parseSchedule('every 1h', { now: NOW, timeZone: 'Mars/Olympus' })).toThrow(/Unknown time zone "Mars\/Olympus".*IANA/);
  });

  // Catches targets stored relative to whichever process created them, or kinds nobody can deliver to.
  it('normalizes delivery targets and rejects unknown ones', () => {
    expect(normalizeTarget('file:out/news.md', '/home/me')).toBe('file:/home/me/out/news.md');
    expect(normalizeTarget('desktop', '/x')).toBe('desktop');
    expect(normalizeTarget('telegram:12345', '/x')).toBe('telegram:12345');
    expect(parseTarget('file:/a/b.md')).toEqual({ kind: 'file', address: '/a/b.md', text: 'file:/a/b.md' });
    expect(() => normalizeTarget('email:me@x', '/x')).toThrow(/"email" is not a kind of target.*file:<absolute path>/);
    expect(() => normalizeTarget('telegram:', '/x')).toThrow(/needs a chat id/);
    expect(() => parseTarget('file:relative.md')).toThrow(/absolute path/);
  });
});
