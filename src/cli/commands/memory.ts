import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import type { HearthConfig } from '../../core/config/schema.js';
import { createModelChain } from '../../core/model-chain/registry.js';
import { HearthError, errorMessage } from '../../core/errors.js';
import { memoryBudget, MEMORY_TARGETS, type MemoryLimits, type MemoryTarget } from '../../core/memory/budget.js';
import { describeImport, exportMemory, importMemory, type MemoryImportReport } from '../../core/memory/memory-import.js';
import { USER_IN_CLI } from '../../core/memory/provenance.js';
import type { MemoryStore } from '../../core/memory/store.js';
import { formatUsage } from '../../core/memory/usage.js';
import type { SqliteSessionStore } from '../../core/store/session-store.js';
import type { UserFactStore, UserFact } from '../../core/user-model/facts.js';
import { parseCommandArgs } from '../args.js';
import type { CliIO } from '../io.js';
import { withCliStore } from '../services.js';
import { memoryProtectCommand, memoryProtectHelp } from './memory-protect.js';

export const memoryHelp = `Usage:
  hearth memory show [--json]                          both memory stores with their usage
  hearth memory edit --target memory|user              edit in $VISUAL/$EDITOR; saved entries are re-imported (scanned)
  hearth memory export [--dir D]                       write MEMORY.md and USER.md (default: current folder)
  hearth memory import <file> --target memory|user [--replace] [--json]
                                                       add a MEMORY.md/USER.md file's entries (--replace: make it the whole store)
  hearth memory user list [--json]                     what the user model holds: facts, confidence, status, evidence
  hearth memory user correct <id> "<text>"             replace a fact with your wording (the old one is kept as superseded)
  hearth memory user reject <id>                       "this is wrong": stop using the fact; it will not be learned again
  hearth memory user delete <id>                       remove a fact for good
${memoryProtectHelp}

Limits are the ones the prompt uses: memory.memory_char_limit and memory.user_char_limit, scaled for the
configured model's context window (memory.scale_with_context).`;

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
  return withCliStore(io, async (services) => {
    const { home, store } = services;
    const config = services.config.current();
    const limits = action === 'show' || action === 'edit' || action === 'import' ? await sessionLimits(home, config, io) : memoryBudget(config.memory);
    const memory = services.memory(limits);
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
      case 'protect':
      case 'unprotect':
      case 'changes':
      case 'undo':
        return memoryProtectCommand(memory, action, arg, json, io);
      case 'user':
        return userModelCommand(services.facts, store, positionals.slice(1), json, io);
      default:
        throw new HearthError('usage', `Unknown memory action "${action ?? ''}".\n${memoryHelp}`);
    }
  });
}

/**
 * The limits a session on the configured model gets (learning/components.ts: memoryBudget with the model's
 * context window), so `show` reports the percentage the prompt header shows and `edit` accepts what the
 * agent could write. The model is built to read its window, never called.
 */
async function sessionLimits(home: string, config: HearthConfig, io: CliIO): Promise<MemoryLimits> {
  let contextLength: number | undefined;
  try {
    const model = createModelChain({ home, config, env: io.env });
    contextLength = model.contextLength;
    await model.dispose?.();
  } catch (err) {
    io.err(`warning: cannot read the configured model's context window (${errorMessage(err)}); using the unscaled limits.\n`);
  }
  return memoryBudget(config.memory, contextLength);
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
  const view = {} as Record<MemoryTarget, { entries: string[]; items: { id: number; content: string; protected: boolean }[]; usage: ReturnType<MemoryStore['usage']> }>;
  for (const target of MEMORY_TARGETS) {
    // `items` carries what `entries` (kept for scripts that read it) cannot: the id and who may change the entry.
    const items = memory.read(target).map((e) => ({ id: e.id, content: e.content, protected: e.protected, author: e.author, via: e.via }));
    view[target] = { entries: items.map((e) => e.content), items, usage: memory.usage(target, limits[target]) };
  }
  if (json) {
    io.out(`${JSON.stringify(view)}\n`);
    return 0;
  }
  const sections = MEMORY_TARGETS.map((target) => {
    const { items: entries, usage } = view[target];
    const full = usage.used >= usage.limit ? '  FULL: the agent cannot add more until entries are merged or removed (hearth memory edit)' : '';
    // The id is what `hearth memory protect <id>` takes; "protected": only the user may change it.
    const body = entries.length ? entries.map((e) => `[#${e.id}${e.protected ? ' protected' : ''}] ${e.content.replace(/\n/g, '\n    ')}`).join('\n') : '(empty)';
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
    const report = importMemory(memory, target, edited, { mode: 'replace', by: USER_IN_CLI });
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

const userHelp = 'hearth memory user list [--json] | correct <id> "<text>" | reject <id> | delete <id>';

/** The user owns the user model: every change here applies at once, with no approval (the user is the one approving). */
function userModelCommand(facts: UserFactStore, store: SqliteSessionStore, args: string[], json: boolean, io: CliIO): number {
  const [action = 'list', idText, ...rest] = args;
  if (action === 'list') return listFacts(facts, store, json, io);
  if (action !== 'correct' && action !== 'reject' && action !== 'delete') throw new HearthError('usage', `Unknown user-model action "${action}". ${userHelp}`);
  const id = factId(idText, action);
  if (action === 'correct') {
    const text = rest.join(' ').trim();
    if (text === '') throw new HearthError('usage', `hearth memory user correct needs the fact's new wording, e.g. hearth memory user correct ${id} "The user prefers spaces."`);
    const fact = facts.correct(id, text);
    io.out(json ? `${JSON.stringify(fact)}\n` : `Fact #${id} replaced by #${fact.id}: ${fact.statement}\n`);
  } else if (action === 'reject') {
    const fact = facts.reject(id);
    io.out(json ? `${JSON.stringify(fact)}\n` : `Fact #${id} marked wrong; it is no longer used and will not be learned again: ${fact.statement}\n`);
  } else {
    const fact = facts.delete(id);
    io.out(json ? `${JSON.stringify(fact)}\n` : `Fact #${id} deleted: ${fact.statement}\n`);
  }
  return 0;
}

function factId(text: string | undefined, action: string): number {
  const id = Number(text?.replace(/^#/, ''));
  if (text === undefined || !Number.isInteger(id) || id <= 0) {
    throw new HearthError('usage', `hearth memory user ${action} needs a fact id${text === undefined ? '' : ` (got "${text}")`}; \`hearth memory user list\` shows them.`);
  }
  return id;
}

function listFacts(facts: UserFactStore, store: SqliteSessionStore, json: boolean, io: CliIO): number {
  const all = facts.list('all');
  // A session deleted since the fact was learned: its words are not shown any more (the user deleted them).
  const live = new Set(store.getMessagesById([...new Set(all.flatMap((f) => f.evidence.map((e) => e.messageId)))]).map((m) => m.id));
  const shown = all.map((f) => ({ ...f, evidence: f.evidence.map((e) => (live.has(e.messageId) ? e : { ...e, sessionId: null, excerpt: '' })) }));
  if (json) {
    io.out(`${JSON.stringify(shown)}\n`);
    return 0;
  }
  if (shown.length === 0) {
    io.out('The user model is empty: facts appear after a few conversations (user_model.enabled).\n');
    return 0;
  }
  const active = shown.filter((f) => f.status === 'active').sort((a, b) => b.confidence - a.confidence);
  const parts = [`Active (${active.length}):\n${active.map(formatFact).join('\n') || '(none)'}`];
  for (const status of ['superseded', 'rejected'] as const) {
    const some = shown.filter((f) => f.status === status);
    if (some.length) parts.push(`${status === 'superseded' ? 'Superseded' : 'Rejected by you'} (${some.length}):\n${some.map(formatFact).join('\n')}`);
  }
  io.out(`${parts.join('\n\n')}\n`);
  return 0;
}

function formatFact(f: UserFact): string {
  const replaced = f.supersededBy === null ? '' : `, superseded by #${f.supersededBy}`;
  const yours = f.source === 'user' ? ', your wording' : '';
  const evidence = f.evidence.length === 0 ? ['    evidence: none'] : f.evidence.map((e) => `    evidence: ${e.sessionId === null ? `message ${e.messageId} (deleted)` : `session ${e.sessionId}: "${e.excerpt}"`}`);
  return [`#${f.id} [${f.category}, ${f.confidence.toFixed(2)}${replaced}${yours}] ${f.statement}`, ...evidence].join('\n');
}
