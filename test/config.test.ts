import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HearthError } from '../src/core/errors.js';
import { ensureHome, resolveHome } from '../src/core/config/home.js';
import { configPath, loadConfig, saveConfig } from '../src/core/config/load.js';
import { defaultConfig } from '../src/core/config/schema.js';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'hearth-config-'));
});
afterEach(() => {
  rmSync(home, { recursive: true, force: true });
});

function writeConfig(text: string): void {
  writeFileSync(configPath(home), text);
}

function loadError(): HearthError {
  try {
    loadConfig(home);
  } catch (err) {
    if (err instanceof HearthError) return err;
    throw err;
  }
  throw new Error('loadConfig accepted an invalid config');
}

describe('home', () => {
  it('uses HEARTH_HOME when set and ~/.hearth otherwise (catches app and CLI disagreeing on the home)', () => {
    expect(resolveHome({ HEARTH_HOME: '/srv/hearth' })).toBe('/srv/hearth');
    expect(resolveHome({ HEARTH_HOME: '~/h2' })).toBe(join(homedir(), 'h2'));
    expect(resolveHome({})).toBe(join(homedir(), '.hearth'));
  });

  it('creates an owner-only home with skills/, models/, logs/ (catches a world-readable home)', () => {
    const target = join(home, 'nested', 'hearth');
    ensureHome(target);
    ensureHome(target); // idempotent: a second start must not fail
    expect(statSync(target).mode & 0o777).toBe(0o700);
    for (const sub of ['skills', 'models', 'logs']) expect(statSync(join(target, sub)).isDirectory()).toBe(true);
  });

  it('reports an unusable home as config_io naming the folder (catches a raw EACCES/ENOTDIR crash)', () => {
    const file = join(home, 'a-file');
    writeFileSync(file, 'x');
    expect(() => ensureHome(join(file, 'hearth'))).toThrow(expect.objectContaining({ code: 'config_io', message: expect.stringContaining('HEARTH_HOME') }));
  });
});

describe('loadConfig', () => {
  it('returns the defaults when config.yaml does not exist (catches a first run failing)', () => {
    const { config, warnings } = loadConfig(home);
    expect(warnings).toEqual([]);
    expect(config).toEqual(defaultConfig());
    expect(config.agent.max_iterations).toBe(90);
    expect(config.approvals.mode).toBe('manual');
    expect(Object.keys(config.providers).sort()).toEqual(['anthropic', 'lmstudio', 'ollama', 'openai', 'openrouter']);
  });

  it('applies set values, keeps defaults for the rest, and adds user providers to the presets', () => {
    writeConfig(`version: 1
model:
  default: openai:gpt-4o-mini
  fallbacks: ["ollama:qwen2.5"]
providers:
  vllm: { type: openai, base_url: "http://10.0.0.5:8000/v1" }
  openai: { type: openai, base_url: "https://proxy.example/v1", api_key_env: MY_OPENAI_KEY }
local: { threads: 2, gpu: false }
agent: { max_iterations: 12 }
`);
    const { config, warnings } = loadConfig(home);
    expect(warnings).toEqual([]);
    expect(config.model).toEqual({ default: 'openai:gpt-4o-mini', fallbacks: ['ollama:qwen2.5'] });
    expect(config.providers.vllm).toEqual({ type: 'openai', base_url: 'http://10.0.0.5:8000/v1' });
    expect(config.providers.openai?.api_key_env).toBe('MY_OPENAI_KEY');
    expect(config.providers.anthropic?.base_url).toBe('https://api.anthropic.com');
    expect(config.local).toEqual({ threads: 2, gpu: false, context_size: 8192 });
    expect(config.agent).toEqual({ max_iterations: 12, toolset: 'default' });
    expect(config.terminal.timeout_s).toBe(180);
  });

  it.each([
    ['agent:\n  max_iterations: -3\n', 'agent.max_iterations', 'positive integer', '-3'],
    ['approvals:\n  mode: yes-please\n', 'approvals.mode', 'expected manual, smart or off', 'yes-please'],
    ['local:\n  threads: many\n', 'local.threads', 'positive integer or "auto"', 'many'],
    ['model:\n  fallbacks: openai:gpt-4o\n', 'model.fallbacks', 'list', 'openai:gpt-4o'],
    ['providers:\n  mine: { type: openai, base_url: "not a url" }\n', 'providers.mine.base_url', 'URL', 'not a url'],
    ['providers:\n  mine: { type: openai, base_url: "localhost:11434" }\n', 'providers.mine.base_url', 'http(s) URL', 'localhost:11434'],
  ])('names the key and what is allowed for an invalid value (%#) (catches an unexplained crash)', (yaml, key, allowed, got) => {
    writeConfig(yaml);
    const err = loadError();
    expect(err.code).toBe('config_invalid');
    expect(err.message).toContain(configPath(home));
    expect(err.message).toContain(`${key}:`);
    expect(err.message).toContain(allowed);
    expect(err.message).toContain(got);
  });

  it('reports malformed YAML with its line (catches a raw YAML parser exception)', () => {
    writeConfig('agent:\n  max_iterations: 5\n  toolset: [unclosed\n');
    const err = loadError();
    expect(err.code).toBe('config_invalid');
    expect(err.message).toMatch(/line \d+, column \d+: not valid YAML/);
  });

  it('rejects a top level that is not a mapping', () => {
    writeConfig('- just\n- a list\n');
    expect(loadError().message).toContain('mapping');
  });

  it('warns about unknown keys with a suggestion instead of failing (catches typos silently ignored)', () => {
    writeConfig('version: 1\nagent:\n  max_iteration: 5\ncolour: blue\n');
    const { config, warnings } = loadConfig(home);
    expect(config.agent.max_iterations).toBe(90);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toContain('unknown key "agent.max_iteration"');
    expect(warnings[0]).toContain('did you mean "agent.max_iterations"');
    expect(warnings[1]).toContain('unknown key "colour"');
  });

  it('refuses a file written by a newer Hearth rather than misreading it', () => {
    writeConfig('version: 7\n');
    const err = loadError();
    expect(err.code).toBe('config_invalid');
    expect(err.message).toContain('newer Hearth');
  });
});

describe('saveConfig', () => {
  it('round-trips, writes owner-only, and does not freeze the provider presets into the file', () => {
    const config = defaultConfig();
    config.model.default = 'anthropic:claude-sonnet-4';
    config.approvals.allowlist = ['git status'];
    config.providers.vllm = { type: 'openai', base_url: 'http://127.0.0.1:8000/v1' };
    saveConfig(home, config);

    const text = readFileSync(configPath(home), 'utf8');
    expect(text).toContain('vllm');
    expect(text).not.toContain('openrouter');
    expect(statSync(configPath(home)).mode & 0o777).toBe(0o600);
    const { config: loaded, warnings } = loadConfig(home);
    expect(warnings).toEqual([]);
    expect(loaded).toEqual(config);
  });

  it('refuses to save an invalid config (catches writing a file the next start cannot read)', () => {
    const config = defaultConfig();
    config.agent.max_iterations = 0;
    expect(() => saveConfig(home, config)).toThrow(expect.objectContaining({ code: 'config_invalid' }));
  });
});
