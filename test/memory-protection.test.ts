import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TerminalRenderer } from '../src/cli/render.js';
import { isHearthError } from '../src/core/errors.js';
import { PendingWrites } from '../src/core/learning/pending-writes.js';
import { applyStagedWrite } from '../src/core/learning/apply-staged.js';
import { importMemory } from '../src/core/memory/memory-import.js';
import { USER_IN_APP, USER_IN_CLI } from '../src/core/memory/provenance.js';
import { MemoryStore } from '../src/core/memory/store.js';
import { openDatabase } from '../src/core/store/database.js';
import { STORE_MIGRATIONS, migrateStore } from '../src/core/store/migrations.js';
import type { Db } from '../src/core/store/database.js';
import type { SkillService } from '../src/core/skills/service.js';
import type { UserUpdate } from '../src/core/tools/define.js';
import { createMemoryTool } from '../src/core/tools/memory.js';
import { createTempStore, type TempStore } from './fixtures/temp-store.js';
import { runTool, toolContext } from './fixtures/tool-harness.js';

/**
 * Issue 11, problem 1: the user's standing rules were deleted by a background review to make room, and the
 * user saw only "Memory updated". These tests hold the rule in code: the store refuses the agent a change to a
 * protected entry, the memory tool turns the attempt into a pending change for the user, every removal or
 * replacement the agent does make is named and can be undone.
 */

let temp: TempStore;
let db: Db;
let memory: MemoryStore;
let updates: UserUpdate[];

beforeEach(() => {
  temp = createTempStore('hearth-memory-protect-');
  db = temp.open().db;
  memory = new MemoryStore(db);
  updates = [];
});
afterEach(() => temp.cleanup());

const RULE = 'Standing rule: reply in British English.';
const ctx = () => toolContext({ workspace: temp.dir, notify: (u) => updates.push(u) });

function errorOf(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected a refusal');
}

describe('protected memory entries in the store', () => {
  it("the agent cannot remove or replace what the user wrote; the user still can (catches the review deleting the user's rule)", () => {
    const rule = memory.add('user', RULE, { by: USER_IN_APP }).entry;
    expect(rule).toMatchObject({ author: 'user', via: 'app', protected: true });

    const removal = errorOf(() => memory.remove('user', 'British English'));
    expect(isHearthError(removal, 'memory_protected')).toBe(true);
    expect((removal as Error).message).toContain(`'${RULE}' is protected`);
    expect(isHearthError(errorOf(() => memory.replace('user', 'British', 'Replies in any English.')), 'memory_protected')).toBe(true);
    expect(memory.read('user').map((e) => e.content)).toEqual([RULE]);
    expect(memory.changes()).toEqual([]);

    memory.replace('user', 'British', 'Standing rule: reply in British English, with metric units.', { by: USER_IN_CLI });
    memory.remove('user', 'British', { by: USER_IN_APP });
    expect(memory.read('user')).toEqual([]);
  });

  it('an entry the user marks as a rule is protected from then on, and unprotecting hands it back (catches a toggle that is not enforced)', () => {
    const note = memory.add('memory', 'Repo uses pnpm').entry;
    expect(note).toMatchObject({ author: 'agent', via: 'tool', protected: false });
    memory.setProtected(note.id, true);
    expect(isHearthError(errorOf(() => memory.remove('memory', 'pnpm')), 'memory_protected')).toBe(true);
    memory.setProtected(note.id, false);
    expect(memory.remove('memory', 'pnpm').action).toBe('removed');
    expect(isHearthError(errorOf(() => memory.setProtected(note.id, true)), 'memory_no_match')).toBe(true);
  });

  it('undo puts back what the agent removed, in its old place, and protected (catches a removal that cannot be reversed)', () => {
    memory.add('user', 'Works in UTC.');
    memory.add('user', 'Prefers tabs.');
    memory.add('user', 'Drinks green tea.');
    const removed = memory.remove('user', 'tabs', { by: { author: 'agent', via: 'tool', sessionId: 'review-1' } });
    expect(removed.change).toMatchObject({ action: 'removed', oldContent: 'Prefers tabs.', sessionId: 'review-1', undoneAt: null });

    const { entry } = memory.undo(removed.change!.id);
    expect(entry).toMatchObject({ id: removed.entry.id, content: 'Prefers tabs.', author: 'agent', protected: true });
    expect(memory.read('user').map((e) => e.content)).toEqual(['Works in UTC.', 'Prefers tabs.', 'Drinks green tea.']);
    expect(memory.changes()[0]?.undoneAt).not.toBeNull();
    expect(isHearthError(errorOf(() => memory.undo(removed.change!.id)), 'memory_undo_conflict')).toBe(true);
    expect(isHearthError(errorOf(() => memory.undo(999)), 'memory_change_not_found')).toBe(true);
  });

  it("undo of a replacement restores the old text, and refuses (naming the entry) once it was edited again (catches undo overwriting the user's edit)", () => {
    memory.add('memory', 'Deploys go through ./deploy.sh');
    const replaced = memory.replace('memory', 'deploy.sh', 'Deploys use make deploy');
    expect(replaced.change).toMatchObject({ action: 'replaced', oldContent: 'Deploys go through ./deploy.sh', newContent: 'Deploys use make deploy' });
    memory.undo(replaced.change!.id);
    expect(memory.read('memory').map((e) => e.content)).toEqual(['Deploys go through ./deploy.sh']);

    memory.setProtected(memory.read('memory')[0]!.id, false);
    const again = memory.replace('memory', 'deploy.sh', 'Deploys use make deploy');
    memory.replace('memory', 'make deploy', 'Deploys use make release', { by: USER_IN_APP });
    const conflict = errorOf(() => memory.undo(again.change!.id));
    expect(isHearthError(conflict, 'memory_undo_conflict')).toBe(true);
    expect((conflict as Error).message).toContain("now reads 'Deploys use make release'");
    expect(memory.read('memory').map((e) => e.content)).toEqual(['Deploys use make release']);
  });

  it('undo is allowed over the limit: the user chose the entry (catches an undo refused exactly when the agent made room)', () => {
    const small = new MemoryStore(db, { memory: 40, user: 40 });
    small.add('user', 'Old fact number one here.');
    const removed = small.remove('user', 'number one');
    small.add('user', 'New fact that fills the room.');
    small.undo(removed.change!.id);
    expect(small.usage('user').used).toBeGreaterThan(40);
    expect(small.read('user').map((e) => e.content)).toEqual(['Old fact number one here.', 'New fact that fills the room.']);
  });

  it('an edit in $EDITOR or an import keeps who wrote the untouched entries; new lines are the user’s (catches every entry becoming the user’s, or none)', () => {
    memory.add('memory', 'Agent note');
    importMemory(memory, 'memory', 'Agent note\n§\nTyped by the user\n', { mode: 'replace', by: USER_IN_CLI });
    expect(memory.read('memory').map(({ content, author, via, protected: p }) => ({ content, author, via, protected: p }))).toEqual([
      { content: 'Agent note', author: 'agent', via: 'tool', protected: false },
      { content: 'Typed by the user', author: 'user', via: 'cli', protected: true },
    ]);
    importMemory(memory, 'user', 'From my Hermes USER.md\n');
    expect(memory.read('user')[0]).toMatchObject({ author: 'user', via: 'import', protected: true });
  });

  it('legacy entries: the user profile becomes protected, memory notes do not, authors unknown (decision 0012)', () => {
    const path = `${temp.dir}/legacy.db`;
    const legacy = openDatabase({ path, key: temp.key });
    try {
      migrateStore(legacy, STORE_MIGRATIONS.filter((m) => m.version < 8));
      const insert = legacy.prepare<[string, string]>('INSERT INTO memory_entries (target, content, created_at, updated_at) VALUES (?, ?, 1, 1)');
      insert.run('user', 'Always answer in British English.');
      insert.run('memory', 'CI runs on GitHub Actions.');
      expect(migrateStore(legacy).to).toBeGreaterThanOrEqual(8);
      const store = new MemoryStore(legacy);
      expect(store.read('user')[0]).toMatchObject({ author: null, via: 'legacy', protected: true });
      expect(store.read('memory')[0]).toMatchObject({ author: null, via: 'legacy', protected: false });
      expect(isHearthError(errorOf(() => store.remove('user', 'British')), 'memory_protected')).toBe(true);
    } finally {
      legacy.close();
    }
  });
});

describe('the memory tool and protected entries', () => {
  function pendingTool(limits = { memory: 2200, user: 1375 }) {
    const pending = new PendingWrites(db);
    return { pending, tool: createMemoryTool({ memory, limits, propose: (write) => pending.stage(write) }) };
  }

  it('a removal of a protected entry becomes a pending change the user sees, and the model is told it waits (catches a silent refusal or a silent delete)', async () => {
    memory.add('user', RULE, { by: USER_IN_APP });
    const { pending, tool } = pendingTool();
    const result = await runTool(tool, { action: 'remove', target: 'user', old_text: 'British English' }, ctx());
    expect(result.isError).toBeUndefined();
    expect(result.content).toMatch(/^Not removed: .* is protected.*waiting for the user's approval as pending change #1; .*do not retry it/);
    expect(memory.read('user').map((e) => e.content)).toEqual([RULE]);
    expect(pending.list()).toMatchObject([{ id: 1, kind: 'memory', sessionId: 's1', payload: { action: 'remove', target: 'user', old_text: 'British English' } }]);
    expect(pending.list()[0]?.summary).toBe(`remove from user profile (protected): '${RULE}'`);
    expect(updates).toEqual([
      { kind: 'learning', action: 'write_staged', target: 'user', message: `Not removed, waiting for your approval (#1): the agent wants to remove from user profile (protected): '${RULE}'` },
    ]);

    // Approving is the user's decision: the same removal now applies.
    const skills = {} as SkillService;
    await pending.approve(1, (write) => applyStagedWrite(write, { memory, limits: { memory: 2200, user: 1375 }, skills, home: temp.dir }).then(() => undefined));
    expect(memory.read('user')).toEqual([]);
  });

  it('without anywhere to propose to, the refusal is an error the model can read (catches an exception escaping to the loop)', async () => {
    memory.add('user', RULE, { by: USER_IN_APP });
    const tool = createMemoryTool({ memory, limits: { memory: 2200, user: 1375 } });
    const result = await runTool(tool, { action: 'replace', target: 'user', old_text: 'British', content: 'Replies in any English.' }, ctx());
    expect(result.isError).toBe(true);
    expect(result.content).toContain('is protected');
    expect(memory.read('user').map((e) => e.content)).toEqual([RULE]);
  });

  it('the agent removing an unprotected entry is named with an undo id, never a bare "Memory updated" (catches the issue-11 notice)', async () => {
    memory.add('user', 'Prefers tabs');
    const { tool } = pendingTool();
    const result = await runTool(tool, { action: 'remove', target: 'user', old_text: 'tabs' }, ctx());
    expect(result.content).toMatch(/^Removed from user profile\./);
    const change = memory.changes()[0]!;
    expect(updates).toEqual([{ kind: 'learning', action: 'memory_updated', target: 'user', message: "Removed from user profile: 'Prefers tabs'", undo: { memoryChange: change.id } }]);
    expect(change.sessionId).toBe('s1');

    memory.add('user', 'Likes jazz');
    updates = [];
    await runTool(tool, { action: 'replace', target: 'user', old_text: 'jazz', content: 'Likes jazz and blues' }, ctx());
    expect(updates[0]).toMatchObject({ message: "Replaced in user profile: 'Likes jazz' → 'Likes jazz and blues'", undo: { memoryChange: memory.changes()[0]!.id } });
  });

  it('a full memory lists which entries are protected, so the model consolidates the others (catches a refusal that hides who owns what)', async () => {
    memory.add('user', RULE, { by: USER_IN_APP });
    memory.add('user', 'Agent note about the user.');
    const { tool } = pendingTool({ memory: 2200, user: 90 });
    const result = await runTool(tool, { action: 'add', target: 'user', content: 'A new fact that does not fit at all here.' }, ctx());
    expect(result.isError).toBe(true);
    expect(result.content).toContain(`[1] (protected) ${RULE}`);
    expect(result.content).toContain('[2] Agent note about the user.');
  });
});

describe('the CLI shows how to undo', () => {
  it("a removal by the agent prints with the command that undoes it (catches an undo id the terminal user never sees)", () => {
    let activity = '';
    const renderer = new TerminalRenderer({ write: () => undefined }, { write: (t) => (activity += t) }, { color: false });
    renderer.render({ type: 'learning', action: 'memory_updated', target: 'user', message: "Removed from user profile: 'Prefers tabs'", undo: { memoryChange: 3 } });
    renderer.render({ type: 'learning', action: 'memory_updated', target: 'user', message: "Added to user profile: 'Likes jazz'" });
    expect(activity).toBe("✦ Removed from user profile: 'Prefers tabs'  (undo: hearth memory undo 3)\n✦ Added to user profile: 'Likes jazz'\n");
  });
});
