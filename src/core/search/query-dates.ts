/**
 * Dates written in a query ("on 13 October, 2023", "in August 2023", "2023-10-13") as a time range in
 * local time, the time messages are stamped in. Session search boosts messages from that range, and
 * the date's words are taken out of the text query, where "13" and "2023" would only match noise.
 */

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const MONTH = `(${MONTHS.join('|')}|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\\.?`;
const DAY = '(\\d{1,2})(?:st|nd|rd|th)?';
const YEAR = '(\\d{4})';
const DAY_MS = 86_400_000;

export interface DateRange {
  /** Inclusive start, epoch ms. */
  from: number;
  /** Exclusive end, epoch ms. */
  to: number;
}

export interface QueryDates {
  ranges: DateRange[];
  /** The query with every recognised date removed. */
  rest: string;
}

type Parse = (match: RegExpExecArray) => { year: number; month: number; day?: number } | null;

const PATTERNS: [RegExp, Parse][] = [
  [/\b(\d{4})-(\d{2})-(\d{2})\b/giu, (m) => ({ year: Number(m[1]), month: Number(m[2]) - 1, day: Number(m[3]) })],
  [new RegExp(`\\b${DAY}\\s+(?:of\\s+)?${MONTH},?\\s+${YEAR}\\b`, 'giu'), (m) => dmy(m[1], m[2], m[3])],
  [new RegExp(`\\b${MONTH}\\s+${DAY},?\\s+${YEAR}\\b`, 'giu'), (m) => dmy(m[2], m[1], m[3])],
  [new RegExp(`\\b${MONTH},?\\s+${YEAR}\\b`, 'giu'), (m) => dmy(undefined, m[1], m[2])],
];

function dmy(day: string | undefined, monthName: string | undefined, year: string | undefined): { year: number; month: number; day?: number } | null {
  const name = (monthName ?? '').toLowerCase();
  const month = MONTHS.findIndex((full) => full.startsWith(name.slice(0, 3)));
  if (month < 0 || year === undefined) return null;
  return day === undefined ? { year: Number(year), month } : { year: Number(year), month, day: Number(day) };
}

export function extractQueryDates(query: string): QueryDates {
  const ranges: DateRange[] = [];
  let rest = query;
  for (const [pattern, parse] of PATTERNS) {
    rest = rest.replace(pattern, (...args: unknown[]) => {
      const match = args.slice(0, -2) as unknown as RegExpExecArray;
      const date = parse(match);
      if (!date || date.month < 0 || date.month > 11) return String(args[0]);
      if (date.day === undefined) {
        ranges.push({ from: new Date(date.year, date.month, 1).getTime(), to: new Date(date.year, date.month + 1, 1).getTime() });
      } else {
        if (date.day < 1 || date.day > 31) return String(args[0]);
        const start = new Date(date.year, date.month, date.day).getTime();
        ranges.push({ from: start, to: start + DAY_MS });
      }
      return ' ';
    });
  }
  return { ranges, rest };
}

/** True when `time` falls in any range widened by `slackMs` on either side. */
export function inRanges(time: number, ranges: readonly DateRange[], slackMs: number): boolean {
  return ranges.some((range) => time >= range.from - slackMs && time < range.to + slackMs);
}
