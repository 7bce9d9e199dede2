import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigService } from '../src/core/config/config-service.js';
import { configPath } from '../src/core/config/load.js';
import type { HearthConfig } from '../src/core/config/schema.js';

/** ConfigService on a real HEARTH_HOME folder with a real config.yaml: the one read-modify-write of the file. */
let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'hearth-config-service-'));
});
afterEach(() => {
  rmSync(home, { recursive: true, force: true });
});

const COMMENTED = `# my Hearth settings — keep these notes
version: 1
model:
  default: "ollama:qwen3" # the fast one
approvals:
  # manual until I trust it
  mode: manual
`;

function read(): string {
  return readFileSync(configPath(home), 'utf8');
}

describe('ConfigService', () => {
  it('update keeps the comments and untouched keys as written (catches a settings change wiping the user’s notes)', async () => {
    writeFileSync(configPath(home), COMMENTED);
    const config = new ConfigService(home);
    const next = await config.update((draft) => {
      draft.approvals.allowlist = ['git push --force'];
      draft.ui.theme = 'dark';
    });
    expect(next.approvals.allowlist).toEqual(['git push --force']);
    const text = read();
    expect(text).toContain('# my Hearth settings — keep these notes');
    expect(text).toContain('# the fast one');
    expect(text).toContain('# manual until I trust it');
    expect(text).toContain('theme: dark');
    // Defaults the user never wrote stay implicit (no 200-line dump of every key).
    expect(text).not.toContain('max_iterations');
    expect(text).not.toContain('openrouter');
    expect(new ConfigService(home).current()).toEqual(next);
  });

  it('refuses an invalid update with an error naming the key and leaves the file untouched (catches a bad value saved, then failing every start)', async () => {
    writeFileSync(configPath(home), COMMENTED);
    const config = new ConfigService(home);
    let heard = 0;
    config.onChange(() => void (heard += 1));
    await expect(
      config.update((draft) => {
        draft.agent.max_iterations = 0;
      }),
    ).rejects.toMatchObject({ code: 'config_invalid', message: expect.stringContaining('agent.max_iterations') });
    expect(read()).toBe(COMMENTED);
    expect(config.current().agent.max_iterations).toBe(90);
    expect(heard).toBe(0);
  });

  it('sees an edit made outside Hearth at the next read, and tells the listeners (catches a stale cached config)', async () => {
    writeFileSync(configPath(home), COMMENTED);
    const config = new ConfigService(home);
    expect(config.current().approvals.mode).toBe('manual');
    const heard: Array<[string, string]> = [];
    config.onChange((next, previous) => void heard.push([previous.approvals.mode, next.approvals.mode]));
    writeFileSync(configPath(home), COMMENTED.replace('mode: manual', 'mode: smart'));
    expect(config.current().approvals.mode).toBe('smart');
    await Promise.resolve();
    expect(heard).toEqual([['manual', 'smart']]);
    // Read again without a change: no new event, same object.
    expect(config.current()).toBe(config.current());
    expect(heard).toHaveLength(1);
  });

  it('fires one change event per update, after the file is saved, and none for an update that changes nothing', async () => {
    const config = new ConfigService(home);
    const seen: HearthConfig[] = [];
    config.onChange((next) => {
      // The listener reads the file: it must already hold the change.
      expect(new ConfigService(home).current().ui.language).toBe(next.ui.language);
      seen.push(next);
    });
    await config.update((draft) => {
      draft.ui.language = 'zh-CN';
    });
    expect(seen.map((c) => c.ui.language)).toEqual(['zh-CN']);
    await config.update((draft) => {
      draft.ui.language = 'zh-CN';
    });
    expect(seen).toHaveLength(1);
  });

  it('waits for listeners and rejects with their failure, the file still saved (catches a model reload error never reaching settings)', async () => {
    const config = new ConfigService(home);
    config.onChange(async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      throw new Error('the model could not load');
    });
    await expect(config.update((draft) => void (draft.ui.theme = 'light'))).rejects.toThrow('the model could not load');
    expect(new ConfigService(home).current().ui.theme).toBe('light');
  });

  it('concurrent updates keep each other’s change, in one process and across two (catches a lost write)', async () => {
    writeFileSync(configPath(home), COMMENTED);
    const app = new ConfigService(home);
    const cli = new ConfigService(home);
    // The CLI process has read the file before the app changes it.
    expect(cli.current().ui.theme).toBe('system');
    await Promise.all([
      app.update((draft) => void (draft.ui.theme = 'dark')),
      app.update((draft) => void (draft.approvals.allowlist = ['rm -rf'])),
      cli.update((draft) => void (draft.model.fallbacks = ['openai:gpt-4o-mini'])),
      app.update((draft) => void (draft.ui.language = 'zh-CN')),
    ]);
    const final = new ConfigService(home).current();
    expect(final.ui.theme).toBe('dark');
    expect(final.approvals.allowlist).toEqual(['rm -rf']);
    expect(final.model.fallbacks).toEqual(['openai:gpt-4o-mini']);
    expect(final.ui.language).toBe('zh-CN');
    expect(app.current()).toEqual(final);
    expect(read()).toContain('# the fast one');
  });

  it('keeps a key it does not know (a newer Hearth’s, a typo the user will fix) when it saves (catches settings deleting it)', async () => {
    writeFileSync(configPath(home), `${COMMENTED}agent:\n  max_iterationz: 3\n`);
    const config = new ConfigService(home);
    await config.update((draft) => void (draft.approvals.mode = 'smart'));
    expect(read()).toContain('max_iterationz: 3');
    expect(read()).toContain('mode: smart');
    expect(read()).toContain('# manual until I trust it');
  });

  it('writes the whole file when the YAML cannot be edited in place (an aliased section), and the change still lands', async () => {
    writeFileSync(configPath(home), 'version: 1\nshared: &a\n  mode: manual\napprovals: *a\n');
    const config = new ConfigService(home);
    const next = await config.update((draft) => void (draft.approvals.mode = 'smart'));
    expect(next.approvals.mode).toBe('smart');
    expect(new ConfigService(home).current().approvals.mode).toBe('smart');
    expect(read()).toContain('# Hearth configuration.');
  });

  it('passes on the warnings of loading (catches unknown keys going unreported)', () => {
    writeFileSync(configPath(home), 'version: 1\nagent:\n  max_iterationz: 3\n');
    const warnings: string[] = [];
    new ConfigService(home, { onWarning: (w) => warnings.push(w) }).current();
    expect(warnings).toEqual([expect.stringContaining('max_iterationz')]);
  });
});
