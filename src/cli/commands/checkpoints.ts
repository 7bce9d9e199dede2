import { createInterface } from 'node:readline';
import { resolve } from 'node:path';
import { resolveHome } from '../../core/config/home.js';
import { projectWithCheckpoints } from '../../core/checkpoints/project-root.js';
import { CheckpointStore, type Checkpoint, type CheckpointSettings, type RollbackPlan } from '../../core/checkpoints/store.js';
import { HearthError } from '../../core/errors.js';
import { parseCommandArgs } from '../args.js';
import type { CliIO } from '../io.js';
import { cliConfig } from '../services.js';

export const checkpointsHelp = `Usage:
  hearth checkpoints list [--json] [--dir DIR]          snapshots taken before the agent changed files (1 = newest)
  hearth checkpoints diff <N> [--dir DIR]               what changed since checkpoint N (unified diff)
  hearth checkpoints rollback <N> [--dir DIR] [--yes]   put the files back as they were at checkpoint N
DIR defaults to the current directory (or the nearest folder above it that has checkpoints).
Checkpoints live in a shadow git store under HEARTH_HOME/checkpoints; the project's own .git is never touched.
A rollback first snapshots the current files, so \`rollback 1\` undoes it.`;

/** Reads config.yaml only: no database key or model is needed to inspect or restore checkpoints. */
export async function checkpointsCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('checkpoints', argv, { json: { type: 'boolean' }, dir: { type: 'string' }, yes: { type: 'boolean' } });
  if (values.help) {
    io.out(`${checkpointsHelp}\n`);
    return 0;
  }
  const home = resolveHome(io.env);
  const session = new CheckpointSession(openCheckpointStore(home, cliConfig(io).current().checkpoints), projectWithCheckpoints(home, resolve(io.cwd, values.dir ?? '.')));
  const [action, number, extra] = positionals;
  if (extra !== undefined) throw new HearthError('usage', `hearth checkpoints: unexpected argument "${extra}".\n${checkpointsHelp}`);
  switch (action) {
    case 'list':
    case undefined: {
      const checkpoints = await session.store.list(session.root);
      if (values.json === true) io.out(`${JSON.stringify({ root: session.root, checkpoints: checkpoints.map(checkpointJson) })}\n`);
      else io.out(formatCheckpointList(session.root, checkpoints));
      return 0;
    }
    case 'diff':
      io.out(await session.diffText(parseNumber(number)));
      return 0;
    case 'rollback':
      return (await session.rollback(parseNumber(number), (text) => io.out(text), values.yes === true ? async () => true : () => askYesNo(io))) ? 0 : 1;
    default:
      throw new HearthError('usage', `Unknown checkpoints action "${action}".\n${checkpointsHelp}`);
  }
}

export function openCheckpointStore(home: string, settings: CheckpointSettings): CheckpointStore {
  return new CheckpointStore({ home, settings });
}

/** The checkpoints of one project, as `hearth checkpoints` and chat's `/rollback` present them. */
export class CheckpointSession {
  constructor(
    readonly store: CheckpointStore,
    readonly root: string,
  ) {}

  async diffText(n: number): Promise<string> {
    const diff = await this.store.diff(this.root, n);
    return diff === '' ? `The files match checkpoint ${n}.\n` : diff;
  }

  /** Shows what will change, asks, restores. True when the files now match checkpoint `n`. */
  async rollback(n: number, out: (text: string) => void, confirm: () => Promise<boolean>): Promise<boolean> {
    const plan = await this.store.preview(this.root, n);
    if (plan.restore.length === 0 && plan.remove.length === 0) {
      out(`The files already match checkpoint ${n}; nothing to roll back.\n`);
      return true;
    }
    out(formatPlan(this.root, n, plan));
    if (!(await confirm())) {
      out('Rollback cancelled; nothing changed.\n');
      return false;
    }
    const result = await this.store.rollback(this.root, n);
    out(`Rolled back to checkpoint ${n}: ${result.restored.length} restored, ${result.removed.length} removed. The state before is checkpoint 1 now: roll back to 1 to undo.\n`);
    return true;
  }
}

/** `/rollback` in chat: no argument lists, `N` restores after asking, `diff N` shows the diff. */
export async function rollbackSlashCommand(session: CheckpointSession, argument: string, out: (text: string) => void, confirm: () => Promise<boolean>): Promise<void> {
  const [first, second, extra] = argument.split(/\s+/).filter((word) => word !== '');
  if (extra !== undefined || (first !== undefined && first !== 'diff' && second !== undefined)) {
    out('Usage: /rollback (list) · /rollback <N> · /rollback diff <N>\n');
    return;
  }
  if (first === undefined) out(formatCheckpointList(session.root, await session.store.list(session.root)));
  else if (first === 'diff') out(await session.diffText(parseNumber(second)));
  else await session.rollback(parseNumber(first), out, confirm);
}

export function formatCheckpointList(root: string, checkpoints: Checkpoint[]): string {
  if (checkpoints.length === 0) return `No checkpoints for ${root} yet: one is taken before the agent first changes a file there.\n`;
  const rows = checkpoints.map((c) => `${String(c.number).padStart(3)}  ${c.time.toISOString().replace('T', ' ').slice(0, 19)}  ${`${c.filesChanged} file${c.filesChanged === 1 ? '' : 's'}`.padEnd(10)}  ${checkpointLabel(c)}`);
  // Each checkpoint holds all of `root` as it was before the changes its label names.
  return `Checkpoints of ${root} (1 = newest; each holds the whole folder as it was before the changes named):\n${rows.join('\n')}\n`;
}

/** What a checkpoint holds the state before: the change it was taken for, and the later ones of that turn. */
export function checkpointLabel(checkpoint: Pick<Checkpoint, 'reason' | 'covers'>): string {
  return checkpoint.covers.length === 0 ? checkpoint.reason : `${checkpoint.reason}; also covers ${checkpoint.covers.join(', ')}`;
}

function formatPlan(root: string, n: number, plan: RollbackPlan): string {
  const lines = [...plan.restore.map((path) => `  restore  ${path}`), ...plan.remove.map((path) => `  remove   ${path}`)];
  return `Rolling ${root} back to checkpoint ${n} will change ${lines.length} file${lines.length === 1 ? '' : 's'}:\n${lines.join('\n')}\n`;
}

function checkpointJson(checkpoint: Checkpoint): Record<string, unknown> {
  return { ...checkpoint, time: checkpoint.time.toISOString() };
}

function parseNumber(text: string | undefined): number {
  const n = Number(text);
  if (text === undefined || !Number.isInteger(n) || n < 1) {
    throw new HearthError('usage', `Give a checkpoint number (1 = newest) as \`hearth checkpoints list\` shows it${text === undefined ? '' : `, not "${text}"`}.`);
  }
  return n;
}

/** One answer line from stdin; anything but y/yes (including no input at all) is a no. */
async function askYesNo(io: CliIO): Promise<boolean> {
  io.out('Roll back? [y/N] ');
  const lines = createInterface({ input: io.stdin, terminal: false, crlfDelay: Infinity });
  for await (const line of lines) {
    lines.close();
    return /^y(es)?$/i.test(line.trim());
  }
  io.out('\n');
  return false;
}
