import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { ensureHome, resolveHome } from '../../core/config/home.js';
import { loadConfig, saveConfig } from '../../core/config/load.js';
import type { HearthConfig } from '../../core/config/schema.js';
import { HearthError } from '../../core/errors.js';
import { apiKeyAccount, setSecret } from '../../core/safety/secrets/keychain.js';
import { parseCommandArgs } from '../args.js';
import type { CliIO } from '../io.js';
import { LineReader } from '../line-reader.js';

const OPENAI_DEFAULT_URL = 'https://api.openai.com/v1';

/**
 * First-run wizard: choose a local GGUF file, an OpenAI-compatible endpoint or Anthropic, and write
 * config.yaml. API keys go to the OS keychain (account `provider:<name>`), never into the file.
 */
export async function setupCommand(argv: string[], io: CliIO): Promise<number> {
  const { values } = parseCommandArgs('setup', argv, {});
  if (values.help) {
    io.out('Usage: hearth setup\nAsks which model to use and writes config.yaml; API keys are stored in the OS keychain.\n');
    return 0;
  }
  const home = resolveHome(io.env);
  ensureHome(home);
  const { config } = loadConfig(home);
  const reader = new LineReader(io.stdin, io.out);
  try {
    io.out(`Hearth setup (home: ${home})\n\nWhich model should Hearth use?\n` +
      '  1. a local GGUF model file (private, offline)\n' +
      '  2. an OpenAI-compatible endpoint (OpenAI, OpenRouter, Ollama, vLLM, LM Studio, llama-server)\n' +
      '  3. Anthropic\n');
    const choice = await reader.ask('Choose 1, 2 or 3:', '1');
    const next = await configure(choice, config, reader, home);
    saveConfig(home, next);
    io.out(`\nSaved ${home}/config.yaml (model: ${next.model.default}). Start chatting with \`hearth\`.\n`);
    return 0;
  } finally {
    reader.dispose();
  }
}

async function configure(choice: string, config: HearthConfig, reader: LineReader, home: string): Promise<HearthConfig> {
  switch (choice) {
    case '1': {
      const path = resolve(await reader.ask('Path to the .gguf file:'));
      if (!existsSync(path)) throw new HearthError('usage', `${path} does not exist. Download a GGUF model (e.g. Hermes 3) and run \`hearth setup\` again.`);
      return { ...config, model: { ...config.model, default: `local:${path}` } };
    }
    case '2': {
      const baseUrl = await reader.ask('Base URL:', OPENAI_DEFAULT_URL);
      const model = await reader.ask('Model name:', 'gpt-4o-mini');
      const provider = baseUrl.replace(/\/+$/, '') === OPENAI_DEFAULT_URL ? 'openai' : 'custom';
      const key = await reader.ask('API key (leave empty for local servers that need none):', '');
      if (key) setSecret(apiKeyAccount(provider), key);
      const providers = provider === 'custom' ? { ...config.providers, custom: { type: 'openai' as const, base_url: baseUrl } } : config.providers;
      return { ...config, providers, model: { ...config.model, default: `${provider}:${model}` } };
    }
    case '3': {
      const model = await reader.ask('Model name:', 'claude-sonnet-4-5');
      const key = await reader.ask('API key:');
      if (!key) throw new HearthError('usage', 'Anthropic needs an API key.');
      setSecret('provider:anthropic', key);
      return { ...config, model: { ...config.model, default: `anthropic:${model}` } };
    }
    default:
      throw new HearthError('usage', `"${choice}" is not 1, 2 or 3. Nothing was changed in ${home}.`);
  }
}
