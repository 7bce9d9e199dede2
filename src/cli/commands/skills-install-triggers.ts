import type { HearthConfig } from '../../core/config/schema.js';
import { errorMessage } from '../../core/errors.js';
import { createModelChain } from '../../core/llm/registry.js';
import { SkillTriggerLearner, SqliteSkillTriggers } from '../../core/skills/skill-triggers.js';
import type { Skill } from '../../core/skills/types.js';
import { openStore } from '../../core/store/open-store.js';
import type { CliIO } from '../io.js';

export type InstallTriggers = { learned: string[] } | { error: string } | { off: true };

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
