import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { resolveHome } from '../../core/config/home.js';
import { errorMessage, HearthError } from '../../core/errors.js';
import { defaultSkillRoots, isProjectTrusted } from '../../core/skills/discover.js';
import { listArchivedSkills, restoreSkill } from '../../core/skills/curator.js';
import { createModelChain } from '../../core/model-chain/registry.js';
import { createInjectionJudge } from '../../core/safety/injection/judge.js';
import { getSecret } from '../../core/safety/secrets/keychain.js';
import { installSkillJudged } from '../../core/skills/install.js';
import { SkillUsageStore } from '../../core/skills/usage.js';
import { loadSkillLibrary } from '../../core/skills/library.js';
import { installStarterSkills, starterSkillsEnabled } from '../../core/skills/starter.js';
import type { Skill, SkillIssue, SkillLibrary } from '../../core/skills/types.js';
import { validateSkillDir } from '../../core/skills/validate.js';
import { describeInstallTriggers, describeStoredTriggers, learnInstalledTriggers, storedTriggers } from './skills-triggers.js';
import { parseCommandArgs } from '../args.js';
import type { CliIO } from '../io.js';
import { cliConfig, withCliStore } from '../services.js';

export const skillsHelp = `Usage:
  hearth skills list [--json]                 skills by precedence, with warnings, collisions and skipped folders
  hearth skills show <name> [--json]          one skill: its SKILL.md path, frontmatter and body
  hearth skills validate <dir> [--json]       strict Agent Skills check: exit 0 valid, 1 invalid
  hearth skills install <dir> [--force] [--json]   copy a skill folder into HEARTH_HOME/skills (and learn its "when to use" phrasings)
  hearth skills archived [--json]             skills the curator or the agent archived (never deleted)
  hearth skills restore <archived-name>       bring an archived skill back`;

export async function skillsCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('skills', argv, { json: { type: 'boolean' }, force: { type: 'boolean' } });
  if (values.help) {
    io.out(`${skillsHelp}\n`);
    return 0;
  }
  const [action, arg] = positionals;
  const json = values.json === true;
  switch (action) {
    case 'list':
      return listSkills(io, json);
    case 'show':
      if (!arg) throw new HearthError('usage', 'hearth skills show needs a skill name (see `hearth skills list`).');
      return showSkill(io, arg, json);
    case 'validate':
      if (!arg) throw new HearthError('usage', 'hearth skills validate needs a skill folder, e.g. hearth skills validate ./my-skill');
      return validateCommand(io, resolve(io.cwd, arg), json);
    case 'install':
      if (!arg) throw new HearthError('usage', 'hearth skills install needs a skill folder, e.g. hearth skills install ./my-skill');
      return installCommand(io, resolve(io.cwd, arg), values.force === true, json);
    case 'archived':
      return archivedCommand(io, json);
    case 'restore':
      if (!arg) throw new HearthError('usage', 'hearth skills restore needs an archived name (see `hearth skills archived`).');
      return restoreCommand(io, arg);
    default:
      throw new HearthError('usage', `Unknown skills action "${action ?? ''}".\n${skillsHelp}`);
  }
}

interface SkillContext {
  home: string;
  library: SkillLibrary;
  /** Project skill folders that exist but were not loaded because the project is not trusted (case 44). */
  untrusted: string[];
}

function loadContext(io: CliIO): SkillContext {
  const home = resolveHome(io.env);
  const userHome = io.env.HOME?.trim() || homedir();
  const { external_dirs: externalDirs, trusted_projects: trustedProjects } = cliConfig(io, 'hearth: ').current().skills;
  const projectTrusted = isProjectTrusted(io.cwd, trustedProjects, userHome);
  // A home no engine has opened yet gets the bundled starter skills here too, so `hearth skills list` on a fresh
  // install shows what the app would (once; the marker keeps removed ones removed).
  if (starterSkillsEnabled(io.env)) installStarterSkills(join(home, 'skills'));
  const roots = defaultSkillRoots({ home, workspace: io.cwd, userHome, externalDirs, projectTrusted });
  const untrusted = projectTrusted ? [] : ['.hearth', '.agents', '.claude'].map((c) => join(io.cwd, c, 'skills')).filter((p) => existsSync(p));
  return { home, library: loadSkillLibrary(roots), untrusted };
}

function listSkills(io: CliIO, json: boolean): number {
  const { library, untrusted } = loadContext(io);
  if (json) {
    const skills = library.skills.map((s) => ({ ...summary(s), issues: s.issues }));
    io.out(`${JSON.stringify({ skills, collisions: library.collisions, skipped: library.skipped, untrustedProjectRoots: untrusted })}\n`);
    return 0;
  }
  const lines: string[] = [];
  if (!library.skills.length) lines.push('No skills found. Add one with `hearth skills install <dir>`.');
  const width = Math.min(32, Math.max(0, ...library.skills.map((s) => s.name.length)));
  for (const skill of library.skills) {
    const warnings = skill.issues.filter((i) => i.severity === 'warning').length;
    const flags = [warnings ? `${warnings} warning${warnings === 1 ? '' : 's'}` : '', skill.disableModelInvocation ? '/command only' : ''].filter(Boolean);
    lines.push(`${skill.name.padEnd(width)}  ${skill.root.scope.padEnd(7)} ${skill.root.label}  ${oneLine(skill.description, 70)}${flags.length ? `  (${flags.join(', ')})` : ''}`);
  }
  if (library.collisions.length) {
    lines.push('', 'Name collisions (the first location wins):');
    for (const c of library.collisions) lines.push(`  ${c.name}: using ${c.winner}; hidden: ${c.shadowed.join(', ')}`);
  }
  if (library.skipped.length) {
    lines.push('', 'Not loaded:');
    for (const s of library.skipped) lines.push(`  ${s.path}: ${s.reason}`);
  }
  for (const path of untrusted) {
    lines.push('', `Project skills in ${path} are not loaded: this project is not trusted. Add it to skills.trusted_projects in config.yaml.`);
  }
  io.out(`${lines.join('\n')}\n`);
  return 0;
}

function showSkill(io: CliIO, name: string, json: boolean): number {
  const { library } = loadContext(io);
  const wanted = name.replace(/^[/$]/, '').normalize('NFKC');
  const skill = library.skills.find((s) => s.name === wanted);
  if (!skill) {
    const skipped = library.skipped.find((s) => s.path.includes(`/${wanted}/`));
    const hint = skipped ? ` A folder by that name was found but not loaded: ${skipped.reason}` : ' List them with `hearth skills list`.';
    throw new HearthError('skill_not_found', `No skill named "${wanted}".${hint}`);
  }
  const triggers = storedTriggers(io, resolveHome(io.env), skill);
  if (json) {
    io.out(`${JSON.stringify({ ...summary(skill), frontmatter: skill.frontmatter, body: skill.body, issues: skill.issues, triggers })}\n`);
    return 0;
  }
  const fields = Object.entries(skill.frontmatter).map(([key, value]) => `  ${key}: ${typeof value === 'string' ? oneLine(value, 100) : oneLine(JSON.stringify(value), 100)}`);
  const issues = skill.issues.map((i) => `  ${formatIssue(i)}`);
  io.out([`${skill.name}  (${skill.root.scope}, ${skill.root.label})`, `SKILL.md: ${skill.location}`, '', 'Frontmatter:', ...fields, ...(issues.length ? ['', 'Warnings:', ...issues] : []), '', ...describeStoredTriggers(triggers), '', skill.body, ''].join('\n'));
  return 0;
}

function validateCommand(io: CliIO, dir: string, json: boolean): number {
  const result = validateSkillDir(dir, 'strict');
  const code = result.verdict === 'invalid' ? 1 : 0;
  if (json) {
    io.out(`${JSON.stringify({ verdict: result.verdict, issues: result.issues })}\n`);
    return code;
  }
  const errors = result.issues.filter((i) => i.severity === 'error').length;
  const warnings = result.issues.length - errors;
  const head =
    result.verdict === 'invalid'
      ? `invalid: ${errors} problem${errors === 1 ? '' : 's'}${warnings ? `, ${warnings} warning${warnings === 1 ? '' : 's'}` : ''}`
      : result.verdict === 'warn'
        ? `valid with ${warnings} warning${warnings === 1 ? '' : 's'}`
        : 'valid';
  io.out([`${dir}: ${head}`, ...result.issues.map((i) => `  ${formatIssue(i)}`)].join('\n') + '\n');
  return code;
}

async function installCommand(io: CliIO, dir: string, force: boolean, json: boolean): Promise<number> {
  const home = resolveHome(io.env);
  // `security.injection_judge`, as in the engine: asked about the files the scanner is unsure of.
  const config = cliConfig(io, 'hearth: ').current();
  const judgeSpec = config.security.injection_judge;
  // An unreadable keychain is not fatal, as in the engine: a local judge needs no key, a remote one says so.
  const secret = (account: string): string | null => {
    try {
      return getSecret(account);
    } catch (err) {
      io.err(`hearth: API keys in the OS keychain could not be read: ${errorMessage(err)}\n`);
      return null;
    }
  };
  const judgeModel = judgeSpec === undefined ? null : createModelChain({ home, config, env: io.env, overrides: { model: judgeSpec }, getSecret: secret });
  let result;
  try {
    result = await installSkillJudged(dir, join(home, 'skills'), { force, ...(judgeModel === null ? {} : { injectionJudge: createInjectionJudge(judgeModel) }) });
  } finally {
    await judgeModel?.dispose?.();
  }
  // The installed copy as the library loads it: its "when to use" phrasings are learned now (decision 0013).
  const installed = validateSkillDir(result.installedTo, 'compat', { root: { path: join(home, 'skills'), scope: 'user', label: 'HEARTH_HOME/skills' } }).skill;
  const triggers = installed === undefined ? ({ off: true } as const) : await learnInstalledTriggers(io, home, config, installed, secret);
  if (json) io.out(`${JSON.stringify({ ...result, triggers })}\n`);
  else {
    const warnings = result.issues.map((i) => `  ${formatIssue(i)}`);
    const replaced = result.replacedTo ? `\nThe previous copy was moved to ${result.replacedTo}.` : '';
    const learned = describeInstallTriggers(result.name, triggers);
    io.out([`Installed "${result.name}" to ${result.installedTo} (${result.files} file${result.files === 1 ? '' : 's'}).${replaced}`, ...(warnings.length ? ['Loaded with warnings:', ...warnings] : []), ...(learned === null ? [] : [learned])].join('\n') + '\n');
  }
  return 0;
}

function summary(skill: Skill) {
  return { name: skill.name, description: skill.description, scope: skill.root.scope, root: skill.root.label, location: skill.location, dir: skill.dir, category: skill.category, tags: skill.tags, disableModelInvocation: skill.disableModelInvocation };
}

function formatIssue(issue: SkillIssue): string {
  return `${issue.severity.padEnd(7)} ${issue.rule.padEnd(11)} ${issue.message}`;
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function archivedCommand(io: CliIO, json: boolean): number {
  const archived = listArchivedSkills(resolveHome(io.env));
  if (json) io.out(`${JSON.stringify(archived)}\n`);
  else io.out(archived.length ? archived.map((a) => `${a.archivedName}  (${a.name})`).join('\n') + '\n' : 'No archived skills.\n');
  return 0;
}

function restoreCommand(io: CliIO, archivedName: string): Promise<number> {
  return withCliStore(io, ({ home, store }) => {
    // Usage is updated too, so the curator does not archive it again at once.
    const restored = restoreSkill(home, archivedName, new SkillUsageStore(store.db));
    io.out(`Restored '${restored.name}' to ${restored.dir}\n`);
    return 0;
  });
}
