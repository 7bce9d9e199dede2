/**
 * Fixed prompt overhead per model call (system prompt + tool schemas), per toolset.
 * Target for the default toolset: ≤ 4,000 tokens (Hermes Agent sends ~13,900 fixed tokens per call, PARITY §7).
 * Run: node --import tsx bench/prompt-overhead.ts
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { measurePromptOverhead } from '../src/cli/commands/prompt-overhead.js';
import { defaultConfig } from '../src/core/config/schema.js';
import { createModelChain } from '../src/core/model-chain/registry.js';

const HERMES_AGENT_FIXED_TOKENS = 13_900;

export async function runPromptOverheadBench(): Promise<Record<string, unknown>> {
  const empty = mkdtempSync(join(tmpdir(), 'hearth-bench-'));
  const config = defaultConfig();
  const model = createModelChain({ home: empty, config, env: {} });
  // A home with no skills and no memory: the catalog adds nothing, the memory blocks show their empty headers.
  const measured = await measurePromptOverhead({ home: empty, workspace: empty, config, model, userHome: empty }).finally(() => model.dispose?.());
  console.log(`\n## Prompt overhead (tokenizer ${measured.tokenizer})`);
  for (const [name, m] of Object.entries(measured.toolsets)) {
    console.log(
      `${name.padEnd(8)} ${String(m.tokens).padStart(5)} tokens ${String(m.chars).padStart(6)} chars  ${m.tools} tools  ` +
        `ratio vs Hermes Agent's ~${HERMES_AGENT_FIXED_TOKENS}: ${(m.tokens / HERMES_AGENT_FIXED_TOKENS).toFixed(3)}`,
    );
  }
  return measured.toolsets;
}

if (import.meta.url === `file://${process.argv[1]}`) await runPromptOverheadBench();
