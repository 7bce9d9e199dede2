import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getSecret } from '../src/core/safety/secrets/keychain.js';
import { applyLineEditing } from '../src/cli/commands/setup.js';
import { freshHomeEnv, runHearth, spawnHearthOnTerminal } from './fixtures/cli.js';

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

/** An OpenAI-compatible endpoint that lists its models to the right Bearer key only, as a real one does. */
async function startListingServer(key: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url !== '/v1/models') {
      res.writeHead(404).end('{"error":"not found"}');
    } else if (req.headers.authorization !== `Bearer ${key}`) {
      res.writeHead(401).end('{"error":{"message":"invalid api key"}}');
    } else {
      res.end(JSON.stringify({ object: 'list', data: [{ id: 'small-model', object: 'model' }, { id: 'big-model', object: 'model' }] }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A port nothing listens on (it was free a moment ago). */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('hearth setup', () => {
  // Catches an API key written into config.yaml (or anywhere in the home) instead of the OS keychain, a
  // key not sent with the connection test, or a model picked by number that is not the one listed.
  it('tests the endpoint, picks a listed model and stores the key only in the keychain', async () => {
    const key = 'sk-test-4f1c2e9a7b';
    const server = await startListingServer(key);
    try {
      const env = freshHomeEnv();
      const result = await runHearth(['setup'], { env, input: `2\n${server.url}/v1\n${key}\n2\n` });
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('2 models available');
      expect(result.stdout).toContain('1. small-model');

      const home = env.HEARTH_HOME as string;
      const config = readFileSync(join(home, 'config.yaml'), 'utf8');
      expect(config).toContain('default: custom:big-model');
      expect(config).toContain(`base_url: ${server.url}/v1`);
      for (const file of readdirSync(home, { recursive: true, withFileTypes: true })) {
        if (file.isFile()) expect(readFileSync(join(file.parentPath, file.name), 'utf8')).not.toContain(key);
      }
      expect(secretFor(env, 'provider:custom')).toBe(key);
    } finally {
      await server.close();
    }
  });

  // Catches the first-run case: a dead port accepted silently, to fail only at the first message.
  it('says nothing is listening and saves nothing unless told to', async () => {
    const port = await deadPort();
    const env = freshHomeEnv();
    const result = await runHearth(['setup'], { env, input: `2\nhttp://127.0.0.1:${port}/v1\n\n\n` });
    expect(result.code).toBe(2);
    expect(result.stdout).toContain('no API key');
    expect(result.stdout).toContain(`Nothing is listening at 127.0.0.1:${port}`);
    expect(result.stderr).toContain('The connection test failed (unreachable)');
    expect(readdirSync(env.HEARTH_HOME as string)).not.toContain('config.yaml');

    // A server that is not started yet can still be saved, on purpose.
    const anyway = await runHearth(['setup'], { env, input: `2\nhttp://127.0.0.1:${port}/v1\n\ny\nlater-model\n` });
    expect(anyway.code).toBe(0);
    expect(readFileSync(join(env.HEARTH_HOME as string, 'config.yaml'), 'utf8')).toContain('default: custom:later-model');
  });

  // Catches a 404 from a base URL without /v1 reported with no hint.
  it('hints at a missing /v1', async () => {
    const server = await startListingServer('k');
    try {
      const result = await runHearth(['setup'], { env: freshHomeEnv(), input: `2\n${server.url}\n\n\n` });
      expect(result.code).toBe(2);
      expect(result.stdout).toContain('Is "/v1" missing?');
    } finally {
      await server.close();
    }
  });

  // Catches the "echoes the typed API key in clear": on a terminal the key must not appear on screen.
  it('does not echo the API key on a terminal', async () => {
    const key = 'sk-hidden-7e6d5c4b3a';
    const server = await startListingServer(key);
    try {
      const env = freshHomeEnv();
      const child = spawnHearthOnTerminal(['setup'], { env });
      let output = '';
      const answers: [string, string][] = [['Choose 1, 2 or 3', '2'], ['Base URL', `${server.url}/v1`], ['API key (if the server was started with one):', key], ['Model (number or name)', '1']];
      child.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        // Each answer is typed only once its question is on screen, as a person would (and after echo is off).
        const next = answers[0];
        if (next && output.includes(next[0])) {
          answers.shift();
          child.stdin?.write(`${next[1]}\r`);
        }
      });
      const code = await new Promise<number | null>((resolve, reject) => {
        const timer = setTimeout(() => {
          child.kill('SIGKILL');
          reject(new Error(`no exit within 30 s; output so far:\n${output}`));
        }, 30_000);
        child.on('close', (exitCode) => {
          clearTimeout(timer);
          resolve(exitCode);
        });
      });
      expect(code).toBe(0);
      expect(output).toContain(`${server.url}/v1`); // typed text is echoed as usual…
      expect(output).not.toContain(key); // …but not the key
      expect(output).toContain('Saved');
      expect(secretFor(env, 'provider:custom')).toBe(key);
    } finally {
      await server.close();
    }
  }, 40_000);

  // Catches Anthropic set up without a test: the key and the model are checked against its own /v1/models.
  it('lists Anthropic models with its headers before saving', async () => {
    const key = 'sk-ant-setup-0a1b2c3d';
    const server = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      const ok = req.url?.startsWith('/v1/models') && req.headers['x-api-key'] === key && req.headers['anthropic-version'] === '2023-06-01';
      if (!ok) res.writeHead(401).end('{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}');
      else res.end(JSON.stringify({ data: [{ type: 'model', id: 'claude-haiku-4-5', display_name: 'Claude Haiku 4.5', created_at: '2025-10-01T00:00:00Z' }], has_more: false }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const env = freshHomeEnv();
      const home = env.HEARTH_HOME as string;
      writeFileSync(join(home, 'config.yaml'), `providers:\n  anthropic: { type: anthropic, base_url: "http://127.0.0.1:${(server.address() as AddressInfo).port}" }\n`);
      const wrong = await runHearth(['setup'], { env, input: '3\nsk-ant-wrong\n\n' });
      expect(wrong.code).toBe(2);
      expect(wrong.stdout).toContain('invalid x-api-key');

      const result = await runHearth(['setup'], { env, input: `3\n${key}\n\n` });
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('1. claude-haiku-4-5');
      expect(readFileSync(join(home, 'config.yaml'), 'utf8')).toContain('default: anthropic:claude-haiku-4-5');
      expect(secretFor(env, 'provider:anthropic')).toBe(key);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('applies backspace and Ctrl-U typed with echo off', () => {
    expect(applyLineEditing('sk-abx\u007fc')).toBe('sk-abc');
    expect(applyLineEditing('wrong\u0015right')).toBe('right');
    expect(() => applyLineEditing('sk\u0003')).toThrow(/cancelled/);
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

  // Catches ✓ for an endpoint on a dead port, a wrong key, or a model the server does not have (issue 12).
  it('checks what it claims: a dead port and a wrong key fail, a listed model passes, an unlisted one warns', async () => {
    const key = 'sk-doctor-1a2b3c';
    const server = await startListingServer(key);
    const dead = await deadPort();
    try {
      const home = mkdtempSync(join(tmpdir(), 'hearth-doctor-'));
      const config = (model: string, fallbacks: string[]) =>
        `providers:\n  lab: { type: openai, base_url: "${server.url}/v1", api_key_env: LAB_KEY }\n  gone: { type: openai, base_url: "http://127.0.0.1:${dead}/v1" }\nmodel:\n  default: ${model}\n  fallbacks: [${fallbacks.join(', ')}]\n`;
      writeFileSync(join(home, 'config.yaml'), config('lab:small-model', ['gone:any', 'lab:missing-model']));
      const env = freshHomeEnv({ HEARTH_HOME: home, LAB_KEY: key });
      const result = await runHearth(['doctor', '--json'], { env });
      const report = JSON.parse(result.stdout) as { ok: boolean; checks: { name: string; ok: boolean; warning?: boolean; detail: string; fix?: string }[] };
      const byName = new Map(report.checks.map((c) => [c.name, c]));
      expect(byName.get('model lab:small-model')).toMatchObject({ ok: true });
      expect(byName.get('model lab:small-model')?.detail).toContain('lists small-model');
      expect(byName.get('model gone:any')).toMatchObject({ ok: false });
      expect(byName.get('model gone:any')?.fix).toMatch(/start the server/);
      expect(byName.get('model lab:missing-model')).toMatchObject({ ok: true, warning: true });
      expect(result.code).toBe(1);

      const wrongKey = await runHearth(['doctor', '--json'], { env: { ...env, LAB_KEY: 'sk-wrong' } });
      const wrong = JSON.parse(wrongKey.stdout) as { checks: { name: string; ok: boolean; fix?: string }[] };
      expect(wrong.checks.find((c) => c.name === 'model lab:small-model')).toMatchObject({ ok: false });
    } finally {
      await server.close();
    }
  });

  // Catches ✓ for a keychain that cannot store anything: no Secret Service on the bus.
  it('says the keychain is unusable when no keychain answers (a warning while HEARTH_DB_KEY is set)', async () => {
    const env = freshHomeEnv({ DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/hearth-no-bus' });
    const withKey = JSON.parse((await runHearth(['doctor', '--json'], { env })).stdout) as { checks: { name: string; ok: boolean; warning?: boolean }[] };
    expect(withKey.checks.find((c) => c.name === 'keychain')).toMatchObject({ ok: true, warning: true });
    const withoutKey = JSON.parse((await runHearth(['doctor', '--json'], { env: { ...env, HEARTH_DB_KEY: '' } })).stdout) as { checks: { name: string; ok: boolean }[] };
    expect(withoutKey.checks.find((c) => c.name === 'keychain')).toMatchObject({ ok: false });
  });
});
