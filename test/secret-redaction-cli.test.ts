import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freshHomeEnv, runHearth } from './fixtures/cli.js';
import { startScriptedOpenAIServer } from './fixtures/scripted-openai-server.js';
import type { ScriptedServer } from './fixtures/scripted-turns.js';

/**
 * Secret hygiene end to end through `hearth run`: the key in Hearth's environment never reaches the command the
 * model runs, a key a command prints reaches neither the model nor the transcript in clear, and a provider
 * error that quotes the key is redacted on stderr.
 */
const KEY = 'sk-proj-Zq4tW9vX2bY7nM3kL8pR5sT1uV6wA0cD';
const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe('secret hygiene through hearth run', () => {
  it('commands do not see the API key; a key they print is redacted for the model and the transcript', async () => {
    const printed = 'ghp_R4nd0mT0k3nV4lu3F0rT3st1ngPurp0s3s00';
    const server = await startScriptedOpenAIServer(
      [{ toolCalls: [{ name: 'terminal', arguments: { command: `echo "key=[$OPENAI_API_KEY]"; echo token ${printed}` } }] }, { text: 'done' }],
      { apiKey: KEY },
    );
    servers.push(server);
    const env = { ...freshHomeEnv(), OPENAI_API_KEY: KEY };
    const result = await runHearth(['run', 'show me', '--json', '--model', 'openai:s', '--base-url', server.url, '--api-key-env', 'OPENAI_API_KEY'], { env, cwd: mkdtempSync(join(tmpdir(), 'hearth-ws-')) });
    expect(result.code).toBe(0);
    const toolResult = (server.requests[1] as { messages: { role: string; content: string }[] }).messages.at(-1)?.content ?? '';
    expect(toolResult).toContain('key=[]'); // the variable is not in the command's environment at all
    expect(toolResult).toContain('[REDACTED:');
    expect(toolResult).not.toContain(printed);
    const shown = await runHearth(['sessions', 'show', JSON.parse(result.stdout).session_id, '--json'], { env });
    expect(shown.stdout).not.toContain(printed);
    expect(shown.stdout).not.toContain(KEY);
  });

  it('a provider error that quotes the key is redacted on stderr', async () => {
    const server = await startScriptedOpenAIServer([{ status: 400, errorMessage: `Invalid request for key ${KEY}` }]);
    servers.push(server);
    const env = { ...freshHomeEnv(), OPENAI_API_KEY: KEY };
    const result = await runHearth(['run', 'hi', '--model', 'openai:s', '--base-url', server.url, '--api-key-env', 'OPENAI_API_KEY'], { env });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('Invalid request for key');
    expect(result.stderr).not.toContain(KEY);
  });
});
