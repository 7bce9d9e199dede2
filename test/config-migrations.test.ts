import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configPath, loadConfig } from '../src/core/config/load.js';

/** A config.yaml as Hearth's pre-release (v0, unversioned) builds wrote it. */
const V0_FILE = `# my Hearth settings
model: "openai:gpt-4o"   # the cloud one
fallback_model: "ollama:qwen2.5"
max_iterations: 40
toolset: lite
terminal:
  timeout_s: 30
`;

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'hearth-config-mig-'));
});
afterEach(() => {
  rmSync(home, { recursive: true, force: true });
});

const backups = () => readdirSync(home).filter((name) => name.startsWith('config.yaml.bak-'));

describe('config migrations', () => {
  it('migrates a v0 file: backs up the original byte-for-byte, then rewrites it as v1', () => {
    writeFileSync(configPath(home), V0_FILE);
    const { config, warnings, backupPath } = loadConfig(home);

    expect(config.model).toEqual({ default: 'openai:gpt-4o', fallbacks: ['ollama:qwen2.5'] });
    expect(config.agent).toEqual({ max_iterations: 40, toolset: 'lite' });
    expect(config.terminal.timeout_s).toBe(30);
    expect(warnings.some((w) => w.includes('migrated from version 0 to 1'))).toBe(true);

    // The backup is the untouched original, named after the version it holds.
    expect(backups()).toHaveLength(1);
    expect(backupPath).toBe(join(home, backups()[0] ?? ''));
    expect(backups()[0]).toMatch(/^config\.yaml\.bak-v0-\d{8}T\d{6}Z$/);
    expect(readFileSync(backupPath ?? '', 'utf8')).toBe(V0_FILE);

    // The rewritten file is v1, keeps the user's comments on untouched keys, and has no v0 keys left.
    const rewritten = readFileSync(configPath(home), 'utf8');
    expect(rewritten.startsWith('# my Hearth settings\nversion: 1\n')).toBe(true);
    expect(rewritten).not.toMatch(/^(fallback_model|max_iterations|toolset):/m);
    expect(rewritten).toContain('timeout_s: 30');

    // A second load sees v1: no new backup, same values (catches a migration that re-runs every start).
    const again = loadConfig(home);
    expect(again.backupPath).toBeUndefined();
    expect(again.config).toEqual(config);
    expect(backups()).toHaveLength(1);
  });

  // Catches a hand-written current-layout file without `version:` being backed up and rewritten for nothing.
  it('takes an unversioned file in the current layout as current: no backup, no rewrite', () => {
    const text = '# mine\nmodel:\n  default: openai:gpt-4o\nagent:\n  max_iterations: 12\n';
    writeFileSync(configPath(home), text);
    const { config, warnings, backupPath } = loadConfig(home);
    expect(config.model.default).toBe('openai:gpt-4o');
    expect(config.agent.max_iterations).toBe(12);
    expect(backupPath).toBeUndefined();
    expect(warnings).toEqual([]);
    expect(backups()).toEqual([]);
    expect(readFileSync(configPath(home), 'utf8')).toBe(text);
  });

  it('leaves an old file untouched when its migrated values are invalid (catches a half-migrated file)', () => {
    writeFileSync(configPath(home), 'model: "openai:gpt-4o"\nmax_iterations: 0\n');
    expect(() => loadConfig(home)).toThrow(expect.objectContaining({ code: 'config_invalid', message: expect.stringContaining('agent.max_iterations') }));
    expect(readFileSync(configPath(home), 'utf8')).toBe('model: "openai:gpt-4o"\nmax_iterations: 0\n');
    expect(backups()).toEqual([]);
    expect(existsSync(configPath(home))).toBe(true);
  });
});
