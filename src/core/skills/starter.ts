/**
 * The starter skills Hearth ships (`skills-starter/` in the repository and in the app): a few small, general
 * skills so a new library is not empty. They are copied into HEARTH_HOME/skills once, the first time the skill
 * library is opened, through the same install as `hearth skills install` (compat validation, the injection
 * scan, an atomic copy). A marker in the skills folder records that this happened and what it put there (with
 * provenance "bundled"), so a starter skill the user removed never comes back, and a skill of the same name
 * that is already there is never overwritten. They are ordinary skills afterwards: edited or removed the usual way.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { errorMessage } from '../errors.js';
import { installSkill } from './install.js';

/** In HEARTH_HOME/skills; a file, so the skill scan (folders with a SKILL.md) never mistakes it for a skill. */
export const STARTER_MARKER = '.starter-skills.json';

export interface StarterSkillRecord {
  name: string;
  provenance: 'bundled';
  /** sha256 of the SKILL.md as shipped: tells a later version whether the user has changed their copy. */
  sha256: string;
}

export interface StarterInstall {
  /** The marker was already there: nothing was looked at or copied. */
  alreadyDone: boolean;
  installed: StarterSkillRecord[];
  /** A skill of that name was already in the folder and was left as it was. */
  kept: string[];
  /** Could not be installed (the reason says why); not retried, since the marker is written regardless. */
  failed: Array<{ name: string; reason: string }>;
}

/**
 * `HEARTH_STARTER_SKILLS=off` (or `0`) leaves a new library empty: for a managed setup that ships its own skills,
 * and for the test suite, whose fresh homes would otherwise all start with the starter skills in them.
 */
export function starterSkillsEnabled(env: NodeJS.ProcessEnv): boolean {
  const value = (env.HEARTH_STARTER_SKILLS ?? '').trim().toLowerCase();
  return value !== 'off' && value !== '0' && value !== 'false';
}

/** `skills-starter/` beside `src/` (running from source) or `dist/` (built, and inside the packaged app). */
export function starterSkillsDir(): string {
  return fileURLToPath(new URL('../../../skills-starter', import.meta.url));
}

/**
 * Installs the starter skills into `skillsDir` unless its marker says that was done. Never throws for a skill
 * that cannot be installed (the library must still open); a missing starter folder (a broken package) writes no
 * marker, so a repaired install still gets them.
 */
export function installStarterSkills(skillsDir: string, sourceDir = starterSkillsDir(), clock: () => number = Date.now): StarterInstall {
  const result: StarterInstall = { alreadyDone: false, installed: [], kept: [], failed: [] };
  const marker = join(skillsDir, STARTER_MARKER);
  if (existsSync(marker)) return { ...result, alreadyDone: true };
  let names: string[];
  try {
    names = readdirSync(sourceDir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
  } catch (err) {
    result.failed.push({ name: '*', reason: `the starter skills folder ${sourceDir} cannot be read: ${errorMessage(err)}` });
    return result;
  }
  mkdirSync(skillsDir, { recursive: true, mode: 0o700 });
  for (const name of names) {
    if (existsSync(join(skillsDir, name))) {
      result.kept.push(name);
      continue;
    }
    try {
      const installed = installSkill(join(sourceDir, name), skillsDir);
      const sha256 = createHash('sha256').update(readFileSync(join(installed.installedTo, 'SKILL.md'))).digest('hex');
      result.installed.push({ name: installed.name, provenance: 'bundled', sha256 });
    } catch (err) {
      result.failed.push({ name, reason: errorMessage(err) });
    }
  }
  const record = { version: 1, installedAt: new Date(clock()).toISOString(), skills: result.installed, kept: result.kept, failed: result.failed };
  writeFileSync(marker, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
  return result;
}
