import type { HearthConfig } from '../../core/config/schema.js';
import { errorMessage } from '../../core/errors.js';
import { createModelChain } from '../../core/model-chain/registry.js';
import { SkillTriggerLearner, SqliteSkillTriggers, type StoredTriggers } from '../../core/skills/skill-triggers.js';
import { skillTriggerHash } from '../../core/skills/trigger-phrasings.js';
import type { Skill } from '../../core/skills/types.js';
import { openStore } from '../../core/store/open-store.js';
import type { CliIO } from '../io.js';

export type InstallTriggers = { learned: string[] } | { error: string } | { off: true };

/*
 * The CLI side of learned "when to use" phrasings: `hearth skills install` learns them, `hearth skills show` shows
 * them (or why there are none).
 */

/**
 * `hearth skills install` asks the configured model for the installed skill's "when to use" phrasings at once
 * (decision 0013), in the foreground: the user is at the terminal and sees the result. Whatever fails (no key, no
 * model file, a bad answer, a locked store) is reported and kept where it can be (the store row), and the
 * install stands: the skill ranks on its own text, and an engine tries again when it next scans the library.
 */
export async function learnInstalledTriggers(io: CliIO, home: string, config: HearthConfig, skill: Skill, getSecret: (account: string) => string | null): Promise<InstallTriggers> {
  if (!config.skills.learn_triggers || skill.disableModelInvocation) return { off: true };
  let store;
  try {
    store = openStore(home, { env: io.env });
  } catch (err) {
    return { error: `the store could not be opened: ${errorMessage(err)}` };
  }
  let model;
  try {
    model = createModelChain({ home, config, env: io.env, getSecret });
    const learner = new SkillTriggerLearner({ model, store: new SqliteSkillTriggers(store.db), warn: () => undefined, startDelayMs: 0, retryAfterMs: 0 });
    const report = await learner.refresh([skill]);
    const failed = report.failed[0];
    if (failed !== undefined) return { error: failed.error };
    return { learned: learner.triggersFor(skill) };
  } catch (err) {
    return { error: errorMessage(err) };
  } finally {
    await model?.dispose?.();
    store.close();
  }
}

/** One line for the install report. */
export function describeInstallTriggers(name: string, triggers: InstallTriggers): string | null {
  if ('off' in triggers) return null;
  if ('error' in triggers) return `Could not learn when to use "${name}" (it ranks on its own text; Hearth tries again later): ${triggers.error}`;
  return `Learned ${triggers.learned.length} "when to use" phrasings: ${triggers.learned.map((t) => JSON.stringify(t)).join(', ')}`;
}

export type ShownTriggers = { state: 'learned'; triggers: string[]; model: string } | { state: 'failed'; error: string; attempts: number } | { state: 'not_learned' } | { state: 'unknown'; why: string };

/** What `hearth skills show` says about this version of the skill's phrasings: learned, failed and why, or not yet. */
export function storedTriggers(io: CliIO, home: string, skill: Skill): ShownTriggers {
  let store;
  try {
    store = openStore(home, { env: io.env });
  } catch (err) {
    return { state: 'unknown', why: `the store could not be opened: ${errorMessage(err)}` };
  }
  try {
    const row: StoredTriggers | undefined = new SqliteSkillTriggers(store.db).get(skillTriggerHash(skill));
    if (row === undefined) return { state: 'not_learned' };
    if (row.triggers === null) return { state: 'failed', error: row.error ?? 'unknown error', attempts: row.attempts };
    return { state: 'learned', triggers: row.triggers, model: row.model };
  } finally {
    store.close();
  }
}

export function describeStoredTriggers(shown: ShownTriggers): string[] {
  switch (shown.state) {
    case 'learned':
      return [`When to use (learned by ${shown.model}):`, ...shown.triggers.map((t) => `  - ${t}`)];
    case 'failed':
      return [`When to use: not learned, attempt ${shown.attempts} failed: ${shown.error}`];
    case 'not_learned':
      return ['When to use: not learned yet (the model writes it when Hearth next scans the skills).'];
    case 'unknown':
      return [`When to use: unknown (${shown.why}).`];
  }
}
