import { readdirSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import { errorMessage } from '../errors.js';
import { unavailableReason, type AvailabilityContext } from './availability.js';
import { MAX_DESCRIPTION_LENGTH } from './field-rules.js';
import type { Skill } from './types.js';
import { countOf } from '../../shared/plural.js';

export interface CatalogOptions extends AvailabilityContext {
  /** Most skills listed; callers pass them most relevant first. */
  limit?: number;
}

/** The skills the model may be offered: not `disable-model-invocation` (case 46) and runnable here. */
export function catalogSkills(skills: Skill[], context: AvailabilityContext = {}): Skill[] {
  return skills.filter((skill) => !skill.disableModelInvocation && unavailableReason(skill, context) === null);
}

/**
 * Tier 1 of progressive disclosure (SKILLS-SPEC §5, §7): name, description and location of each skill in
 * the reference `<available_skills>` shape, HTML-escaped (case 47). No skills, no block at all (case 45).
 */
export function renderSkillCatalog(skills: Skill[], options: CatalogOptions = {}): string {
  const offered = catalogSkills(skills, options);
  if (!offered.length) return '';
  const limit = options.limit ?? offered.length;
  const shown = offered.slice(0, Math.max(0, limit));
  if (!shown.length) return '';
  const lines = ['<available_skills>'];
  for (const skill of shown) {
    lines.push(
      '<skill>',
      `<name>${escapeHtml(skill.name)}</name>`,
      `<description>${escapeHtml(trimDescription(skill.description))}</description>`,
      `<location>${escapeHtml(skill.location)}</location>`,
      '</skill>',
    );
  }
  const omitted = offered.length - shown.length;
  if (omitted > 0) lines.push(`<!-- ${omitted} more skill${omitted === 1 ? ' is' : 's are'} installed but not listed here -->`);
  lines.push('</available_skills>');
  return lines.join('\n');
}

/** Python's `html.escape(s, quote=True)`, which the reference `to-prompt` uses. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#x27;');
}

/** Over-long descriptions load in compat mode (S3) but are cut in the catalog so one skill cannot crowd out the rest. */
function trimDescription(description: string): string {
  const chars = [...description.replace(/\s+/g, ' ').trim()];
  return chars.length > MAX_DESCRIPTION_LENGTH ? `${chars.slice(0, MAX_DESCRIPTION_LENGTH - 1).join('')}…` : chars.join('');
}

/** Placeholders other clients put in bodies for the skill's own folder, and for the session id. */
const DIR_PLACEHOLDERS = ['${HEARTH_SKILL_DIR}', '${HERMES_SKILL_DIR}', '${CLAUDE_SKILL_DIR}', '{baseDir}'];
const SESSION_PLACEHOLDERS = ['${HEARTH_SESSION_ID}', '${HERMES_SESSION_ID}', '${CLAUDE_SESSION_ID}'];
const MAX_RESOURCES = 200;

/**
 * Tier 2, what activation injects (SKILLS-SPEC §7 "Injection"): the body without frontmatter, the skill
 * folder, and a list of its files. The files are listed, never read: tier 3 is the model's choice.
 */
export function renderSkillContent(skill: Pick<Skill, 'name' | 'dir' | 'body'>, options: { sessionId?: string } = {}): string {
  let body = skill.body;
  for (const placeholder of DIR_PLACEHOLDERS) body = body.split(placeholder).join(skill.dir);
  if (options.sessionId) for (const placeholder of SESSION_PLACEHOLDERS) body = body.split(placeholder).join(options.sessionId);
  const parts = [
    `<skill_content name="${escapeHtml(skill.name)}">`,
    `Skill directory: ${skill.dir}`,
    'Relative paths in these instructions are relative to the skill directory.',
    '',
    body,
  ];
  const resources = listSkillResources(skill.dir);
  if (resources.files.length) {
    parts.push('', '<skill_resources>', ...resources.files);
    if (resources.more) parts.push(`… and ${countOf(resources.more, 'more file', 'more files')}`);
    parts.push('</skill_resources>');
  }
  parts.push('</skill_content>');
  return parts.join('\n');
}

/**
 * Files in a skill folder, relative and sorted, SKILL.md itself left out. Bounded (a skill may ship 81
 * font files): at most `max` names, 4 levels, no `.git` or `node_modules`, symlinks not followed.
 */
export function listSkillResources(dir: string, max = MAX_RESOURCES): { files: string[]; more: number } {
  const files: string[] = [];
  let more = 0;
  const walk = (abs: string, rel: string, depth: number) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(abs, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
    } catch (err) {
      // Listed rather than thrown: the skill still activates, and the model sees which folder it cannot use.
      if (files.length < max) files.push(`${rel || '.'}/ (unreadable: ${errorMessage(err)})`);
      return;
    }
    for (const entry of entries) {
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (entry.name === '.git' || entry.name === 'node_modules' || depth >= 4) continue;
        walk(join(abs, entry.name), path, depth + 1);
      } else if (!(rel === '' && (entry.name === 'SKILL.md' || entry.name === 'skill.md'))) {
        if (files.length < max) files.push(path);
        else more++;
      }
    }
  };
  walk(dir, '', 0);
  return { files, more };
}
