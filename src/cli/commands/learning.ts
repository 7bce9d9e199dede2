import { resolveHome } from '../../core/config/home.js';
import { HearthError } from '../../core/errors.js';
import { describeRun, JOURNAL_KEEP, LearningJournal, type LearningRun } from '../../core/learning/journal.js';
import { openStore } from '../../core/store/open-store.js';
import { parseCommandArgs } from '../args.js';
import type { CliIO } from '../io.js';

export const learningHelp = `Usage:
  hearth learning log [--limit N] [--json]   every background run (reviews, flushes, reflections, the curator)
                                             with its outcome, newest first; --json prints one JSON array
Outcomes: saved (a write landed), nothing (nothing worth saving), refused (every write was refused),
failed (the run broke), cancelled; a run with no outcome is still going or died with its process.`;

export async function learningCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('learning', argv, { json: { type: 'boolean' }, limit: { type: 'string' } });
  if (values.help) {
    io.out(`${learningHelp}\n`);
    return 0;
  }
  const [action] = positionals;
  if (action !== 'log') throw new HearthError('usage', `Unknown learning action "${action ?? ''}".\n${learningHelp}`);
  const limit = parseLimit(values.limit);
  // The store alone, not the light composition: reading config.yaml (yaml, the schema) would cost this command
  // about 45 ms of start-up for nothing it uses (bench/cli-startup.ts).
  const store = openStore(resolveHome(io.env), { env: io.env });
  try {
    const runs = new LearningJournal(store.db).recent(limit);
    if (values.json) io.out(`${JSON.stringify(runs)}\n`);
    else io.out(runs.length === 0 ? 'No background learning has run yet.\n' : `${runs.map(formatRun).join('\n')}\n`);
    return 0;
  } finally {
    store.close();
  }
}

const MARK: Record<NonNullable<LearningRun['outcome']> | 'running', string> = { saved: '✓', nothing: '·', refused: '✗', failed: '✗', cancelled: '-', running: '…' };

function formatRun(run: LearningRun): string {
  const when = new Date(run.startedAt).toISOString().slice(0, 16).replace('T', ' ');
  return `${MARK[run.outcome ?? 'running']} #${run.id}  ${when}  ${describeRun(run)}${run.sessionId === null ? '' : `  (session ${run.sessionId})`}`;
}

function parseLimit(text: string | undefined): number {
  if (text === undefined) return JOURNAL_KEEP;
  const limit = Number(text);
  if (!Number.isInteger(limit) || limit <= 0) throw new HearthError('usage', `--limit takes a positive whole number of runs, e.g. --limit 20 (got "${text}").`);
  return limit;
}
