import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogSkills, renderSkillCatalog, renderSkillContent } from '../src/core/skills/catalog.js';
import { loadSkillLibrary } from '../src/core/skills/library.js';
import type { SkillRoot } from '../src/core/skills/types.js';
import { basicFields, skillMd, tempDir, writeSkill } from './fixtures/skills/write-skill.js';

/** SKILLS-SPEC §9 cases 45–47 and §7 catalog, filtering and injection rules, on skills loaded from real folders. */

const userRoot = (path: string): SkillRoot => ({ path, scope: 'user', label: 'user' });

describe('catalog and activation (cases 45–47)', () => {
  const load = (...skills: [string, string][]) => {
    const root = tempDir();
    for (const [name, fields] of skills) writeSkill(root, name, skillMd(fields));
    return loadSkillLibrary([userRoot(root)]).skills;
  };

  it('case 45: no skills at all means no <available_skills> block, not an empty one', () => {
    expect(renderSkillCatalog([])).toBe('');
    expect(renderSkillCatalog(load(['hidden', 'name: hidden\ndescription: Internal.\ndisable-model-invocation: true']))).toBe('');
  });

  it('case 46: disable-model-invocation keeps a skill out of the catalog but in the library (/name still runs it)', () => {
    const skills = load(['manual-only', 'name: manual-only\ndescription: Runs only when asked.\ndisable-model-invocation: true'], ['auto', basicFields('auto')]);
    expect(skills.map((s) => s.name)).toEqual(['auto', 'manual-only']);
    expect(catalogSkills(skills).map((s) => s.name)).toEqual(['auto']);
    expect(renderSkillCatalog(skills)).not.toContain('manual-only');
  });

  it('case 47: <, >, & and quotes in a description are HTML-escaped', () => {
    const skills = load(['xml-tools', `name: xml-tools\ndescription: "Edit <tags> & 'attrs' in \\"XML\\" files."`]);
    expect(renderSkillCatalog(skills)).toContain('<description>Edit &lt;tags&gt; &amp; &#x27;attrs&#x27; in &quot;XML&quot; files.</description>');
  });

  it('renders the reference to-prompt shape exactly: name, description, location per skill', () => {
    // Catches drift from the <available_skills> format models were trained on (skills-ref to-prompt).
    const root = tempDir();
    writeSkill(root, 'pdf-tools', skillMd(basicFields('pdf-tools')));
    writeSkill(root, 'csv-clean', skillMd('name: csv-clean\ndescription: Clean CSV files. Use when a CSV has bad rows.'));
    const catalog = renderSkillCatalog(loadSkillLibrary([userRoot(root)]).skills);
    expect(catalog).toBe(
      [
        '<available_skills>',
        '<skill>',
        '<name>csv-clean</name>',
        '<description>Clean CSV files. Use when a CSV has bad rows.</description>',
        `<location>${join(root, 'csv-clean', 'SKILL.md')}</location>`,
        '</skill>',
        '<skill>',
        '<name>pdf-tools</name>',
        '<description>Does X. Use when Y.</description>',
        `<location>${join(root, 'pdf-tools', 'SKILL.md')}</location>`,
        '</skill>',
        '</available_skills>',
      ].join('\n'),
    );
  });

  it('the limit caps the entries and says how many were left out; long descriptions are trimmed to 1,024', () => {
    const skills = load(['a-one', `name: a-one\ndescription: ${'word '.repeat(400)}`], ['b-two', basicFields('b-two')], ['c-three', basicFields('c-three')]);
    const catalog = renderSkillCatalog(skills, { limit: 2 });
    expect(catalog).toContain('<name>b-two</name>');
    expect(catalog).not.toContain('c-three');
    expect(catalog).toContain('<!-- 1 more skill is installed but not listed here -->');
    const description = /<description>([^<]*)<\/description>/.exec(catalog)?.[1] ?? '';
    expect([...description]).toHaveLength(1024);
    expect(description.endsWith('…')).toBe(true);
  });

  it('skills for another OS, or missing a required binary, variable or toolset, stay out of the catalog', () => {
    // Catches offering the model a skill it cannot run here (SKILLS-SPEC §7 "Filtering", §8 consequences).
    const skills = load(
      ['mac-notes', 'name: mac-notes\ndescription: Apple Notes. Use for notes.\nmetadata: {"openclaw": {"os": ["darwin"]}}'],
      ['vault', 'name: vault\ndescription: Vault. Use for secrets.\nmetadata: {"openclaw": {"requires": {"bins": ["op"], "env": ["OP_ACCOUNT"]}}}'],
      ['hermes-linux', 'name: hermes-linux\ndescription: Linux only. Use on Linux.\nplatforms: [linux]\nmetadata:\n  hermes: {}'],
      ['web-fallback', 'name: web-fallback\ndescription: Search without a browser.\nmetadata:\n  hermes:\n    fallback_for_toolsets: [browser]\n    requires_toolsets: [terminal]'],
    );
    const names = (platform: NodeJS.Platform, bins: string[], env: NodeJS.ProcessEnv, toolsets: string[]) =>
      catalogSkills(skills, { platform, hasBinary: (b) => bins.includes(b), env, toolsets }).map((s) => s.name);
    expect(names('linux', [], {}, ['terminal'])).toEqual(['hermes-linux', 'web-fallback']);
    expect(names('linux', [], {}, ['terminal', 'browser'])).toEqual(['hermes-linux']);
    expect(names('linux', [], {}, [])).toEqual(['hermes-linux']);
    expect(names('darwin', ['op'], {}, [])).toEqual(['mac-notes']);
    expect(names('darwin', ['op'], { OP_ACCOUNT: 'me' }, [])).toEqual(['mac-notes', 'vault']);
    // Without a context for a check, that check is not applied (the catalog never guesses a PATH or toolset).
    expect(catalogSkills(skills, { platform: 'darwin' }).map((s) => s.name)).toEqual(['mac-notes', 'vault', 'web-fallback']);
  });

  it('activation text: frontmatter stripped, placeholders replaced, resources listed but not read', () => {
    const root = tempDir();
    const dir = writeSkill(root, 'pdf-forms', skillMd(basicFields('pdf-forms'), 'Run ${HEARTH_SKILL_DIR}/scripts/fill.py, or {baseDir}/scripts/fill.py.\n'), {
      'scripts/fill.py': 'SECRET_CONTENT = 1\n',
      'references/REFERENCE.md': '# ref\n',
    });
    const [skill] = loadSkillLibrary([userRoot(root)]).skills;
    const text = renderSkillContent(skill!, { sessionId: 'unused-here' });
    expect(text).toBe(
      [
        '<skill_content name="pdf-forms">',
        `Skill directory: ${dir}`,
        'Relative paths in these instructions are relative to the skill directory.',
        '',
        `Run ${dir}/scripts/fill.py, or ${dir}/scripts/fill.py.`,
        '',
        '<skill_resources>',
        'references/REFERENCE.md',
        'scripts/fill.py',
        '</skill_resources>',
        '</skill_content>',
      ].join('\n'),
    );
    expect(text).not.toContain('SECRET_CONTENT');
    expect(text).not.toContain('description:');
  });

  it('activation replaces the session placeholders when a session id is given', () => {
    const text = renderSkillContent({ name: 'x', dir: tempDir(), body: 'Log to /tmp/${HERMES_SESSION_ID}.log and ${HEARTH_SESSION_ID}.' }, { sessionId: 's-42' });
    expect(text).toContain('Log to /tmp/s-42.log and s-42.');
  });
});
