import { errorMessage } from '../errors.js';
import { findSkillDirs, type FoundSkillDir, type ScanOptions } from './discover.js';
import type { Skill, SkillCollision, SkillLibrary, SkillRoot, SkippedSkill } from './types.js';
import { validateSkillDir } from './validate.js';

/**
 * Scan `roots` (in precedence order, e.g. from `defaultSkillRoots`) and load every skill in compat mode.
 * On a name collision the first root wins (project over user, SKILLS-SPEC §7; case 41) and the winner
 * carries one warning naming what it hides. A bad skill is reported in `skipped`, never thrown.
 */
export function loadSkillLibrary(roots: SkillRoot[], options: ScanOptions = {}): SkillLibrary {
  const byName = new Map<string, Skill>();
  const collisions = new Map<string, SkillCollision>();
  const skipped: SkippedSkill[] = [];

  for (const root of roots) {
    const scan = findSkillDirs(root.path, options);
    skipped.push(...scan.notes);
    const loaded = scan.found.flatMap((found) => loadOne(found, root, skipped));
    loaded.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const skill of loaded) {
      const winner = byName.get(skill.name);
      if (!winner) {
        byName.set(skill.name, skill);
        continue;
      }
      const collision = collisions.get(skill.name) ?? { name: skill.name, winner: winner.location, shadowed: [] };
      collision.shadowed.push(skill.location);
      collisions.set(skill.name, collision);
    }
  }

  for (const collision of collisions.values()) {
    const winner = byName.get(collision.name) as Skill;
    winner.issues.push({
      rule: 'H-collision',
      severity: 'warning',
      message: `another skill named "${collision.name}" is hidden by this one (${winner.root.scope} level wins): ${collision.shadowed.join(', ')}`,
      field: 'name',
    });
  }
  return { skills: [...byName.values()], skipped, collisions: [...collisions.values()] };
}

function loadOne(found: FoundSkillDir, root: SkillRoot, skipped: SkippedSkill[]): Skill[] {
  try {
    const result = validateSkillDir(found.dir, 'compat', { root });
    if (result.skill) {
      // Hermes lays skills out as <category>/<name>/SKILL.md: the folder above is the category when none is declared.
      const parent = found.segments.length >= 2 ? found.segments[found.segments.length - 2] : undefined;
      if (result.skill.category === null && parent) result.skill.category = parent;
      return [result.skill];
    }
    const firstError = result.issues.find((i) => i.severity === 'error');
    skipped.push({ path: result.location ?? found.dir, reason: firstError ? `${firstError.rule}: ${firstError.message}` : 'not loadable', issues: result.issues });
  } catch (err) {
    // An unexpected failure on one skill (a file vanishing mid-scan) must not take the whole library down.
    skipped.push({ path: found.dir, reason: `could not be read: ${errorMessage(err)}`, issues: [{ rule: 'D2', severity: 'error', message: errorMessage(err) }] });
  }
  return [];
}
