import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getSecret } from '../src/core/safety/secrets/keychain.js';
import { freshHomeEnv, runHearth } from './fixtures/cli.js';

/** Reads a secret under the test's own keychain namespace. */
function secretFor(env: NodeJS.ProcessEnv, account: string): string | null {
  const previous = process.env.HEARTH_KEYCHAIN_SERVICE;
  process.env.HEARTH_KEYCHAIN_SERVICE = env.HEARTH_KEYCHAIN_SERVICE;
  try {
    return getSecret(account);
  } finally {
    process.env.HEARTH_KEYCHAIN_SERVICE = previous;
  }
}

describe('hearth setup', () => {
  // Catches an API key written into config.yaml (or anywhere in the home) instead of the OS keychain.
  it('stores the API key only in the keychain and points config at the endpoint', async () => {
    const env = freshHomeEnv();
    const key = 'sk-test-4f1c2e9a7b';
    const result = await runHearth(['setup'], { env, input: `2\nhttp://127.0.0.1:9/v1\nmy-model\n${key}\n` });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);

    const home = env.HEARTH_HOME as string;
    const config = readFileSync(join(home, 'config.yaml'), 'utf8');
    expect(config).toContain('default: custom:my-model');
    expect(config).toContain('base_url: http://127.0.0.1:9/v1');
    for (const file of readdirSync(home, { recursive: true, withFileTypes: true })) {
      if (file.isFile()) expect(readFileSync(join(file.parentPath, file.name), 'utf8')).not.toContain(key);
    }
    expect(secretFor(env, 'provider:custom')).toBe(key);
  });

  // Catches a wizard that silently writes a config for an answer it did not understand.
  it('rejects an unknown choice without writing anything', async () => {
    const env = freshHomeEnv();
    const result = await runHearth(['setup'], { env, input: '7\n' });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('"7" is not 1, 2 or 3');
    expect(readdirSync(env.HEARTH_HOME as string)).not.toContain('config.yaml');
  });
});

describe('hearth doctor', () => {
  // Catches a doctor that reports success while the configured model cannot work, or gives no fix.
  it('reports each problem with its fix and exits 1', async () => {
    const env = freshHomeEnv({ OPENAI_API_KEY: '' });
    const result = await runHearth(['doctor', '--json'], { env });
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as { ok: boolean; checks: { name: string; ok: boolean; fix?: string }[] };
    expect(report.ok).toBe(false);
    const byName = new Map(report.checks.map((c) => [c.name, c]));
    expect(byName.get('database')?.ok).toBe(true);
    expect(byName.get('keychain')?.ok).toBe(true);
    const model = report.checks.find((c) => c.name.startsWith('model '));
    expect(model?.ok).toBe(false);
    expect(model?.fix).toMatch(/download a GGUF model/);
    expect(byName.get('gpu')?.ok).toBe(true);
  });
});
