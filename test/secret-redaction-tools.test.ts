import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { executeCall, prepareCall } from '../src/core/agent/execute-call.js';
import { LocalBackend } from '../src/core/exec/local.js';
import { Redactor } from '../src/core/safety/secrets/redact.js';
import { defineTool } from '../src/core/tools/define.js';
import { ToolRegistry, anyTool, builtinTools } from '../src/core/tools/registry.js';
import { toolContext } from './fixtures/tool-harness.js';

const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'hearth-redact-tools-')));
const backend = new LocalBackend({ killGraceMs: 300 });
afterAll(async () => {
  await backend.dispose();
  rmSync(workspace, { recursive: true, force: true });
});

const KNOWN = 'my-custom-provider-secret-0042';
const GITHUB = 'ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z5A';

const leaky = anyTool(
  defineTool({
    name: 'leaky',
    description: 'fails quoting a key',
    input: z.object({}),
    parallelSafe: true,
    run: async () => {
      throw new Error(`401 Unauthorized for token ${GITHUB}`);
    },
  }),
);
const echoText = anyTool(
  defineTool({ name: 'echo_text', description: 'returns its input', input: z.object({ text: z.string() }), parallelSafe: true, run: async (input) => input.text }),
);
const tools = new ToolRegistry([...builtinTools({ backend }), leaky, echoText]);

function redactor(): Redactor {
  const r = new Redactor();
  r.addSecret(KNOWN, 'env:CUSTOM_API_KEY');
  return r;
}

async function run(name: string, args: object, resultLimit = 50_000, redact?: (text: string) => string) {
  const prepared = prepareCall({ id: 'c1', name, arguments: JSON.stringify(args) }, tools);
  return executeCall(prepared, toolContext({ workspace }), resultLimit, redact);
}

describe('executeCall with a redactor', () => {
  // Catches: a real command's output (a child process printing a key) reaching the model unredacted.
  it('redacts what a real terminal command prints', async () => {
    const r = redactor();
    const executed = await run('terminal', { command: `printf 'key=%s\\nremote: %s\\n' '${KNOWN}' '${GITHUB}'` }, 50_000, (t) => r.redact(t));
    expect(executed.result.content).toContain('[REDACTED:env:CUSTOM_API_KEY]');
    expect(executed.result.content).toContain('[REDACTED:github-token]');
    expect(executed.result.content).not.toContain(KNOWN);
    expect(executed.result.content).not.toContain(GITHUB);
  });

  // Control: proves the assertions above can fail, and that leaving `redact` out keeps the old behaviour.
  it('leaves output alone without one', async () => {
    const executed = await run('terminal', { command: `printf '%s\\n' '${GITHUB}'` });
    expect(executed.result.content).toContain(GITHUB);
  });

  // Catches: an error message (shown to the model and as a notice to the user) quoting a token.
  it('redacts the message of a tool that throws', async () => {
    const r = redactor();
    const executed = await run('leaky', {}, 50_000, (t) => r.redact(t));
    expect(executed.result.isError).toBe(true);
    expect(executed.result.content).toBe('Tool leaky failed: 401 Unauthorized for token [REDACTED:github-token]');
    expect(executed.thrown).toBe('401 Unauthorized for token [REDACTED:github-token]');
  });

  // Catches: redaction applied after the head/tail cap, which cuts this key in two unrecognisable halves.
  it('redacts before the cap, so a key straddling the cut leaves no fragment', async () => {
    const r = redactor();
    // The cap keeps the first half of 2000 characters: the key starts 10 characters before that cut.
    const text = `${'a'.repeat(989)} ${GITHUB} ${'b'.repeat(3000)}`;
    const unredacted = await run('echo_text', { text }, 2000);
    expect(unredacted.result.content).toContain(GITHUB.slice(0, 10));
    expect(unredacted.result.content).not.toContain(GITHUB);
    const executed = await run('echo_text', { text }, 2000, (t) => r.redact(t));
    for (let i = 0; i + 6 <= GITHUB.length; i++) expect(executed.result.content).not.toContain(GITHUB.slice(i, i + 6));
  });
});
