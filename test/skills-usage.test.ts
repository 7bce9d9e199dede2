import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isHearthError } from '../src/core/errors.js';
import { curateSkills, listArchivedSkills, restoreSkill } from '../src/core/skills/curator.js';
import { loadSkillLibrary } from '../src/core/skills/library.js';
import type { SkillRoot } from '../src/core/skills/types.js';
import { SkillUsageStore } from '../src/core/skills/usage.js';
import { createTempStore, type TempStore } from './fixtures/temp-store.js';

const DAY = 86_400_000;
const T0 = Date.UTC(2025, 0, 1);

let temp: TempStore;
let home: string;
let clock: number;
let usage: SkillUsageStore;

beforeEach(() => {
  temp = createTempStore('hearth-skill-usage-');
  home = mkdtempSync(join(tmpdir(), 'hearth-home-'));
  clock = T0;
  usage = new SkillUsageStore(temp.open().db, () => clock);
});

afterEach(() => {
  temp.cleanup();
  rmSync(home, { recursive: true, force: true });
});

function writeSkill(root: string, name: string): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'SKILL.md'), `---\nname: ${name}\ndescription: Does ${name} things. Use when ${name} comes up.\n---\n# ${name}\n`);
  return dir;
}

describe('SkillUsageStore on the encrypted store', () => {
  it('counts views, uses and patches with their times, and survives reopening (bug: counters not persisted)', () => {
    usage.recordView('pdf');
    clock += 1000;
    usage.recordUse('pdf');
    usage.recordUse('pdf');
    usage.recordPatch('pdf');
    const reopened = new SkillUsageStore(temp.open().db);
    expect(reopened.get('pdf')).toMatchObject({ viewCount: 1, useCount: 2, patchCount: 1, lastUsedAt: T0 + 1000, lastPatchedAt: T0 + 1000, createdBy: 'user' });
    expect(reopened.get('never-seen')).toBeNull();
  });

  it('treats a recreated skill as new: markCreated resets counters and the archive mark', () => {
    usage.recordUse('deploy');
    usage.archive('deploy');
    clock += DAY;
    usage.markCreated('deploy', 'agent');
    expect(usage.get('deploy')).toMatchObject({ createdBy: 'agent', createdAt: T0 + DAY, useCount: 0, archivedAt: null });
  });

  it('pins and unpins, and lists every row by name', () => {
    usage.pin('b');
    usage.recordView('a');
    expect(usage.all().map((u) => [u.name, u.pinned])).toEqual([
      ['a', false],
      ['b', true],
    ]);
    usage.pin('b', false);
    expect(usage.get('b')?.pinned).toBe(false);
  });
});

describe('curateSkills', () => {
  it('archives only stale agent-created unpinned skills in HEARTH_HOME/skills, and restores them', () => {
    const own = join(home, 'skills');
    const external = mkdtempSync(join(tmpdir(), 'hearth-external-'));
    try {
      for (const name of ['stale-agent', 'fresh-agent', 'pinned-agent', 'user-made']) writeSkill(own, name);
      writeSkill(external, 'external-agent');
      for (const name of ['stale-agent', 'fresh-agent', 'pinned-agent', 'external-agent']) usage.markCreated(name, 'agent');
      usage.pin('pinned-agent');
      usage.recordView('user-made');
      clock = T0 + 80 * DAY;
      usage.recordUse('fresh-agent');
      const roots: SkillRoot[] = [
        { path: own, scope: 'user', label: 'HEARTH_HOME/skills' },
        { path: external, scope: 'user', label: 'external' },
      ];
      const now = T0 + 100 * DAY;
      const archived = curateSkills({ library: loadSkillLibrary(roots), usage, home, now, archiveAfterDays: 90 });

      expect(archived.map((a) => [a.name, a.idleDays])).toEqual([['stale-agent', 100]]);
      expect(existsSync(join(own, 'stale-agent'))).toBe(false);
      expect(existsSync(join(archived[0]?.path ?? '', 'SKILL.md'))).toBe(true); // moved, never deleted
      for (const kept of ['fresh-agent', 'pinned-agent', 'user-made']) expect(existsSync(join(own, kept, 'SKILL.md'))).toBe(true);
      expect(existsSync(join(external, 'external-agent', 'SKILL.md'))).toBe(true);
      expect(usage.get('stale-agent')?.archivedAt).toBe(now);
      // The scanner no longer sees it.
      expect(loadSkillLibrary(roots).skills.map((s) => s.name)).not.toContain('stale-agent');

      const [entry] = listArchivedSkills(home);
      expect(entry?.name).toBe('stale-agent');
      clock = now + DAY;
      const restored = restoreSkill(home, entry?.archivedName ?? '', usage);
      expect(restored.dir).toBe(join(own, 'stale-agent'));
      expect(loadSkillLibrary(roots).skills.map((s) => s.name)).toContain('stale-agent');
      expect(usage.get('stale-agent')).toMatchObject({ archivedAt: null, lastUsedAt: now + DAY });
      // Restoring counts as activity: the next run must not archive it straight away.
      expect(curateSkills({ library: loadSkillLibrary(roots), usage, home, now: now + 2 * DAY, archiveAfterDays: 90 })).toEqual([]);
    } finally {
      rmSync(external, { recursive: true, force: true });
    }
  });

  it('refuses to restore over a skill that exists again, and names bad archive names clearly', () => {
    const own = join(home, 'skills');
    writeSkill(own, 'notes');
    usage.markCreated('notes', 'agent');
    const library = loadSkillLibrary([{ path: own, scope: 'user', label: 'own' }]);
    const [moved] = curateSkills({ library, usage, home, now: T0 + 200 * DAY, archiveAfterDays: 90 });
    writeSkill(own, 'notes');
    expect(() => restoreSkill(home, moved?.archivedName ?? '', usage)).toThrow(expect.objectContaining({ code: 'skill_conflict' }));
    expect(existsSync(moved?.path ?? '')).toBe(true); // the archived copy is untouched
    try {
      restoreSkill(home, '../notes', usage);
      expect.unreachable();
    } catch (err) {
      expect(isHearthError(err, 'skill_not_found')).toBe(true);
    }
  });
});
