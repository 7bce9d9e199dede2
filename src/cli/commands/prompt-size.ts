import { measurePromptOverhead } from './prompt-overhead.js';
import { createModelChain } from '../../core/model-chain/registry.js';
import { parseCommandArgs } from '../args.js';
import type { CliIO } from '../io.js';
import { cliConfig } from '../services.js';

/** `hearth prompt-size`: the fixed prompt overhead (system prompt + tool schemas) per toolset. */
export async function promptSizeCommand(argv: string[], io: CliIO): Promise<number> {
  const { values } = parseCommandArgs('prompt-size', argv, { json: { type: 'boolean' } });
  if (values.help) {
    io.out('Usage: hearth prompt-size [--json]\nThe fixed prompt overhead of every model call (system prompt + tool schemas), per toolset.\n');
    return 0;
  }
  const configService = cliConfig(io);
  const { home } = configService;
  const config = configService.current();
  // The model is built, never called: its id and context window shape the prompt (memory budgets).
  const model = createModelChain({ home, config, env: io.env });
  const measured = await measurePromptOverhead({ home, workspace: io.cwd, config, model, ...(io.env.HOME ? { userHome: io.env.HOME } : {}) }).finally(() => model.dispose?.());
  const toolsets = Object.fromEntries(Object.entries(measured.toolsets).map(([name, m]) => [name, { chars: m.chars, tokens: m.tokens }]));
  if (values.json) {
    io.out(`${JSON.stringify({ default: config.agent.toolset, tokenizer: measured.tokenizer, toolsets })}\n`);
    return 0;
  }
  io.out(`Fixed prompt overhead per call (tokens counted with ${measured.tokenizer}):\n`);
  for (const [name, m] of Object.entries(measured.toolsets)) {
    const marker = name === config.agent.toolset ? ' (default)' : '';
    io.out(`  ${name.padEnd(10)} ${String(m.tokens).padStart(6)} tokens  ${String(m.chars).padStart(7)} chars  ` +
      `(${m.tools} tools; system prompt ${m.systemPromptChars} chars, tool schemas ${m.toolSchemaChars} chars)${marker}\n`);
  }
  return 0;
}
