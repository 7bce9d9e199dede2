import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { ensureHome } from '../../core/config/home.js';
import { PROVIDER_PRESETS, type HearthConfig, type ProviderConfig } from '../../core/config/schema.js';
import { HearthError } from '../../core/errors.js';
import { isLocalEndpoint, probeProvider, type ProbeResult } from '../../core/llm/provider-probe.js';
import { apiKeyAccount, setSecret } from '../../core/safety/secrets/keychain.js';
import { parseCommandArgs } from '../args.js';
import type { CliIO } from '../io.js';
import { LineReader } from '../line-reader.js';
import { cliConfig } from '../services.js';

const OPENAI_DEFAULT_URL = 'https://api.openai.com/v1';
/** Models listed by number; a longer list (OpenRouter has hundreds) is cut, and any name can still be typed. */
const MAX_LISTED_MODELS = 20;

interface Asker {
  ask(question: string, fallback?: string): Promise<string>;
  /** The same, with the answer not echoed on a terminal (API keys). */
  askSecret(question: string): Promise<string>;
  out(text: string): void;
}

/**
 * First-run wizard: choose a local GGUF file, an OpenAI-compatible endpoint or Anthropic, and write
 * config.yaml. An endpoint is tested (its model list fetched) before anything is saved, and the model is
 * picked from that list. API keys go to the OS keychain (account `provider:<name>`), never into the file,
 * and are not echoed while typed.
 */
export async function setupCommand(argv: string[], io: CliIO): Promise<number> {
  const { values } = parseCommandArgs('setup', argv, {});
  if (values.help) {
    io.out('Usage: hearth setup\nAsks which model to use, tests the connection and writes config.yaml; API keys are stored in the OS keychain.\n');
    return 0;
  }
  const configService = cliConfig(io);
  const { home } = configService;
  ensureHome(home);
  const config = configService.current();
  const reader = new LineReader(io.stdin, io.out);
  const asker: Asker = {
    ask: (question, fallback) => reader.ask(question, fallback),
    askSecret: (question) => askWithoutEcho(reader, io, question),
    out: io.out,
  };
  try {
    io.out(`Hearth setup (home: ${home})\n\nWhich model should Hearth use?\n` +
      '  1. a local GGUF model file (private, offline)\n' +
      '  2. an OpenAI-compatible endpoint (OpenAI, OpenRouter, Ollama, vLLM, LM Studio, llama-server)\n' +
      '  3. Anthropic\n');
    const choice = await reader.ask('Choose 1, 2 or 3:', '1');
    const next = await configure(choice, config, asker, home);
    // Saved through the one read-modify-write: the comments in config.yaml stay, only changed keys are written.
    await configService.update(() => next);
    io.out(`\nSaved ${home}/config.yaml (model: ${next.model.default}). Start chatting with \`hearth\`.\n`);
    return 0;
  } finally {
    reader.dispose();
  }
}

async function configure(choice: string, config: HearthConfig, asker: Asker, home: string): Promise<HearthConfig> {
  switch (choice) {
    case '1': {
      const path = resolve(await asker.ask('Path to the .gguf file:'));
      if (!existsSync(path)) throw new HearthError('usage', `${path} does not exist. Download a GGUF model (e.g. Hermes 3) and run \`hearth setup\` again.`);
      return { ...config, model: { ...config.model, default: `local:${path}` } };
    }
    case '2': {
      const baseUrl = (await asker.ask('Base URL:', OPENAI_DEFAULT_URL)).replace(/\/+$/, '');
      const provider = baseUrl === OPENAI_DEFAULT_URL ? 'openai' : 'custom';
      const local = isLocalEndpoint(baseUrl);
      if (local) asker.out('This server runs on this machine: Ollama, LM Studio and llama-server need no API key (press Enter).\n');
      const key = await asker.askSecret(local ? 'API key (if the server was started with one):' : 'API key (leave empty for servers that need none):');
      const model = await pickModel({ type: 'openai', baseUrl, apiKey: key }, asker, home, 'gpt-4o-mini');
      if (key) setSecret(apiKeyAccount(provider), key);
      const providers = provider === 'custom' ? { ...config.providers, custom: { type: 'openai' as const, base_url: baseUrl } } : config.providers;
      return { ...config, providers, model: { ...config.model, default: `${provider}:${model}` } };
    }
    case '3': {
      const key = await asker.askSecret('Anthropic API key:');
      if (!key) throw new HearthError('usage', `Anthropic needs an API key. Nothing was changed in ${home}.`);
      const endpoint: ProviderConfig = config.providers.anthropic ?? (PROVIDER_PRESETS.anthropic as ProviderConfig);
      const model = await pickModel({ type: 'anthropic', baseUrl: endpoint.base_url, apiKey: key }, asker, home, 'claude-sonnet-4-5');
      setSecret(apiKeyAccount('anthropic'), key);
      return { ...config, model: { ...config.model, default: `anthropic:${model}` } };
    }
    default:
      throw new HearthError('usage', `"${choice}" is not 1, 2 or 3. Nothing was changed in ${home}.`);
  }
}

/**
 * Tests the endpoint and lets the user pick one of its models (by number or name). When the test fails the
 * user sees why and chooses between stopping (nothing saved) and saving anyway (a server not started yet).
 */
async function pickModel(endpoint: { type: ProviderConfig['type']; baseUrl: string; apiKey: string }, asker: Asker, home: string, suggestion: string): Promise<string> {
  asker.out('Testing the connection…\n');
  const result = await probeProvider({ type: endpoint.type, baseUrl: endpoint.baseUrl, apiKey: endpoint.apiKey || undefined });
  if (!result.ok) {
    asker.out(`${result.message}\n`);
    const answer = (await asker.ask('Save this endpoint anyway? (y/N)', 'n')).toLowerCase();
    if (answer !== 'y' && answer !== 'yes') throw new HearthError('usage', `${failureSummary(result)} Nothing was changed in ${home}.`);
    return asker.ask('Model name:', suggestion);
  }
  asker.out(`${result.message}\n`);
  if (result.models.length === 0) return asker.ask('The server lists no models. Model name:', suggestion);
  const shown = result.models.slice(0, MAX_LISTED_MODELS);
  asker.out(shown.map((id, i) => `  ${i + 1}. ${id}`).join('\n') + '\n');
  if (result.models.length > shown.length) asker.out(`  … and ${result.models.length - shown.length} more: type a name to use one of them.\n`);
  const fallback = shown.includes(suggestion) ? String(shown.indexOf(suggestion) + 1) : '1';
  const answer = await asker.ask('Model (number or name):', fallback);
  if (/^\d+$/.test(answer)) {
    const picked = shown[Number(answer) - 1];
    if (picked === undefined) throw new HearthError('usage', `"${answer}" is not one of the numbers 1 to ${shown.length}. Nothing was changed in ${home}.`);
    return picked;
  }
  // A name the list does not have is still allowed (a listing can be partial), with a warning.
  if (!result.models.includes(answer)) asker.out(`Note: the server did not list "${answer}"; it is saved as typed.\n`);
  return answer;
}

function failureSummary(result: Extract<ProbeResult, { ok: false }>): string {
  return `The connection test failed (${result.problem.replace('_', ' ')}).`;
}

/**
 * On a terminal the line is read with echo off (raw mode), so a key is never shown on screen or left in the
 * scroll-back; the line editing the terminal would have done (backspace, Ctrl-U, Ctrl-C) is done here.
 * Piped input has no echo to turn off and is read as it is.
 */
async function askWithoutEcho(reader: LineReader, io: CliIO, question: string): Promise<string> {
  const stdin = io.stdin as NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown };
  if (stdin.isTTY !== true || typeof stdin.setRawMode !== 'function') return reader.ask(question, '');
  // Raw mode turns Ctrl-C into a byte; without this it would wait for Enter. Stop at once, as a cooked terminal would.
  const onData = (chunk: Buffer | string) => {
    if (!chunk.toString().includes('\u0003')) return;
    stdin.setRawMode?.(false);
    process.kill(process.pid, 'SIGINT');
  };
  stdin.setRawMode(true);
  stdin.on('data', onData);
  let typed: string;
  try {
    typed = await reader.ask(question, '');
  } finally {
    stdin.off('data', onData);
    stdin.setRawMode(false);
    io.out('\n'); // the Enter was not echoed either
  }
  return applyLineEditing(typed);
}

/** What a cooked-mode terminal would have made of raw keystrokes. Ctrl-C stops setup, as it does elsewhere. */
export function applyLineEditing(raw: string): string {
  let line = '';
  for (const char of raw) {
    if (char === '\u0003') throw new HearthError('aborted', 'Setup was cancelled. Nothing was changed.');
    if (char === '\u007f' || char === '\b') line = [...line].slice(0, -1).join('');
    else if (char === '\u0015') line = '';
    else if (char >= ' ') line += char;
  }
  return line.trim();
}
