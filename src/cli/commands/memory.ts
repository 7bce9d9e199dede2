import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { resolveHome } from '../../core/config/home.js';
import { loadConfig } from '../../core/config/load.js';
import { HearthError, errorMessage } from '../../core/errors.js';
import { memoryBudget, MEMORY_TARGETS, type MemoryLimits, type MemoryTarget } from '../../core/memory/budget.js';
import { describeImport, exportMemory, importMemory, type MemoryImportReport } from '../../core/memory/memory-import.js';
import { MemoryStore } from '../../core/memory/store.js';
import { formatUsage } from '../../core/memory/usage.js';
import { openStore } from '../../core/store/open-store.js';
import type { SqliteSessionStore } from '../../core/store/session-store.js';
import { UserFactStore, type UserFact } from '../../core/user-model/facts.js';
import { parseCommandArgs } from '../args.js';
import type { CliIO } from '../io.js';

export const memoryHelp = `Usage:
  hearth memory show [--json]                          both memory stores with their usage
  hearth memory edit --target memory|user              edit in $VISUAL/$EDITOR; saved entries are re-imported (scanned)
  hearth memory export [--dir D]                       write MEMORY.md and USER.md (default: current folder)
  hearth memory import <file> --target memory|user [--replace] [--json]
                                                       add a MEMORY.md/USER.md file's entries (--replace: make it the whole store)
  hearth memory user [--json]                          what the user model holds: facts, confidence, status, evidence

Limits are the configured ones (memory.memory_char_limit, memory.user_char_limit); a session on a model
with a large context gets more room (memory.scale_with_context).`;

const FILE_NAMES: Record<MemoryTarget, string> = { memory: 'MEMORY.md', user: 'USER.md' };

export async function memoryCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('memory', argv, {
    json: { type: 'boolean' },
    target: { type: 'string' },
    dir: { type: 'string' },
    replace: { type: 'boolean' },
  });
  if (values.help) {
    io.out(`${memoryHelp}\n`);
    return 0;
  }
  const [action, arg] = positionals;
  const json = values.json === true;
  const home = resolveHome(io.env);
  const loaded = loadConfig(home);
  for (const warning of loaded.warnings) io.err(`warning: ${warning}\n`);
  const limits = memoryBudget(loaded.config.memory);
  const store = openStore(home, { env: io.env });
  try {
    const memory = new MemoryStore(store.db, limits);
    switch (action) {
      case 'show':
        return show(memory, limits, json, io);
      case 'edit':
        return await edit(memory, requireTarget(values.target, 'edit'), io);
      case 'export':
        return exportFiles(memory, resolve(io.cwd, values.dir ?? '.'), json, io);
      case 'import': {
        if (!arg) throw new HearthError('usage', 'hearth memory import needs a file, e.g. hearth memory import MEMORY.md --target memory');
        const target = values.target === undefined ? targetFromFileName(arg) : requireTarget(values.target, 'import');
        return importFile(memory, target, resolve(io.cwd, arg), values.replace === true, json, io);
      }
      case 'user':
        return showUserModel(store, json, io);
      default:
        throw new HearthError('usage', `Unknown memory action "${action ?? ''}".\n${memoryHelp}`);
    }
  } finally {
    store.close();
  }
}

function requireTarget(value: string | undefined, action: string): MemoryTarget {
  if (value === 'memory' || value === 'user') return value;
  throw new HearthError('usage', `hearth memory ${action} needs --target memory or --target user${value === undefined ? '' : ` (got "${value}")`}.`);
}

/** MEMORY.md and USER.md say which store they are; any other name must say it with --target. */
function targetFromFileName(path: string): MemoryTarget {
  const name = basename(path).toUpperCase();
  if (name === 'MEMORY.MD') return 'memory';
  if (name === 'USER.MD') return 'user';
  throw new HearthError('usage', `Which store is ${basename(path)} for? Add --target memory or --target user.`);
}

function show(memory: MemoryStore, limits: MemoryLimits, json: boolean, io: CliIO): number {
  const view = Object.fromEntries(
    MEMORY_TARGETS.map((target) => [target, { entries: memory.read(target).map((e) => e.content), usage: memory.usage(target, limits[target]) }]),
  ) as Record<MemoryTarget, { entries: string[]; usage: ReturnType<MemoryStore['usage']> }>;
  if (json) {
    io.out(`${JSON.stringify(view)}\n`);
    return 0;
  }
  const sections = MEMORY_TARGETS.map((target) => {
    const { entries, usage } = view[target];
    const full = usage.used >= usage.limit ? '  FULL: the agent cannot add more until entries are merged or removed (hearth memory edit)' : '';
    const body = entries.length ? entries.map((e, i) => `[${i + 1}] ${e.replace(/\n/g, '\n    ')}`).join('\n') : '(empty)';
    return `${target === 'memory' ? 'Memory' : 'User profile'} [${formatUsage(usage)}]${full}\n${body}`;
  });
  io.out(`${sections.join('\n\n')}\n`);
  return 0;
}

/**
 * Edit a copy in the user's editor, then import it with `replace`: the same scanning and limits as any
 * write. The copy lives in a private temp folder; a non-zero editor exit or an unchanged file changes
 * nothing, and a refused import keeps the edited file and says how to retry, so no edit is lost.
 */
async function edit(memory: MemoryStore, target: MemoryTarget, io: CliIO): Promise<number> {
  const editor = io.env.VISUAL?.trim() || io.env.EDITOR?.trim() || 'vi';
  const dir = mkdtempSync(join(tmpdir(), 'hearth-memory-'));
  const path = join(dir, FILE_NAMES[target]);
  const original = exportMemory(memory, target);
  writeFileSync(path, original, { mode: 0o600 });
  let keep = false;
  try {
    // Through the shell, as git does, so EDITOR="code --wait" works.
    const ran = spawnSync('/bin/sh', ['-c', `${editor} "$1"`, 'editor', path], { stdio: 'inherit', env: io.env });
    if (ran.error) throw new HearthError('usage', `Cannot start the editor "${editor}": ${errorMessage(ran.error)}. Set $EDITOR.`, { cause: ran.error });
    if (ran.status !== 0) {
      io.err(`The editor exited with ${ran.status === null ? `signal ${ran.signal ?? '?'}` : `status ${ran.status}`}; nothing was changed.\n`);
      return 1;
    }
    const edited = readFileSync(path, 'utf8');
    if (edited === original) {
      io.out(`No changes to ${target}.\n`);
      return 0;
    }
    const report = importMemory(memory, target, edited, { mode: 'replace' });
    printReport(report, io);
    if (!report.applied) {
      keep = true;
      io.err(`Your edit is kept in ${path}. Fix it, then run: hearth memory import ${path} --target ${target} --replace\n`);
      return 1;
    }
    return 0;
  } finally {
    if (!keep) rmSync(dir, { recursive: true, force: true });
  }
}

function exportFiles(memory: MemoryStore, dir: string, json: boolean, io: CliIO): number {
  const written: Record<string, string> = {};
  for (const target of MEMORY_TARGETS) {
    const path = join(dir, FILE_NAMES[target]);
    try {
      writeFileSync(path, exportMemory(memory, target), { mode: 0o600 });
    } catch (err) {
      throw new HearthError('config_io', `Cannot write ${path}: ${errorMessage(err)}`, { cause: err });
    }
    written[target] = path;
  }
  io.out(json ? `${JSON.stringify(written)}\n` : `Wrote ${written.memory} and ${written.user}\n`);
  return 0;
}

function importFile(memory: MemoryStore, target: MemoryTarget, path: string, replace: boolean, json: boolean, io: CliIO): number {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new HearthError('usage', `Cannot read ${path}: ${errorMessage(err)}`, { cause: err });
  }
  const report = importMemory(memory, target, text, { mode: replace ? 'replace' : 'merge' });
  if (json) io.out(`${JSON.stringify(report)}\n`);
  else printReport(report, io);
  return report.applied ? 0 : 1;
}

function printReport(report: MemoryImportReport, io: CliIO): void {
  const lines = describeImport(report);
  const summary = report.applied ? lines.pop() : undefined;
  if (lines.length) io.err(`${lines.join('\n')}\n`);
  if (summary) io.out(`${summary}\n`);
}

function showUserModel(store: SqliteSessionStore, json: boolean, io: CliIO): number {
  const facts = new UserFactStore(store.db).list('all');
  if (json) {
    io.out(`${JSON.stringify(facts)}\n`);
    return 0;
  }
  if (facts.length === 0) {
    io.out('The user model is empty: facts appear after a few conversations (user_model.enabled).\n');
    return 0;
  }
  const active = facts.filter((f) => f.status === 'active').sort((a, b) => b.confidence - a.confidence);
  const superseded = facts.filter((f) => f.status === 'superseded');
  const parts = [`Active (${active.length}):\n${active.map(formatFact).join('\n') || '(none)'}`];
  if (superseded.length) parts.push(`Superseded (${superseded.length}):\n${superseded.map(formatFact).join('\n')}`);
  io.out(`${parts.join('\n\n')}\n`);
  return 0;
}

function formatFact(f: UserFact): string {
  const replaced = f.supersededBy === null ? '' : `, superseded by #${f.supersededBy}`;
  return `#${f.id} [${f.category}, ${f.confidence.toFixed(2)}${replaced}] ${f.statement}\n    evidence: message ${f.evidence.join(', ')}`;
}
