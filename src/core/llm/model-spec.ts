import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { HearthError } from '../errors.js';

/**
 * A model named the way users write it: `provider:model-name`, `local:<file.gguf>`, or a bare path to a
 * `.gguf` file. Parsing is separate from construction so config validation and `hearth doctor` can check
 * specs without touching the network.
 */
export type ModelSpec =
  | { kind: 'local'; path: string }
  | { kind: 'remote'; provider: string; model: string };

export function parseModelSpec(spec: string, options: { home: string; provider?: string }): ModelSpec {
  const text = spec.trim();
  if (text === '') throw new HearthError('model_not_configured', 'The model name is empty. Use provider:model (e.g. openai:gpt-4o-mini) or a path to a .gguf file.');
  const forced = options.provider;
  if (forced === 'local') return { kind: 'local', path: resolveModelPath(text.replace(/^local:/, ''), options.home) };
  if (forced) return { kind: 'remote', provider: forced, model: text.replace(new RegExp(`^${escapeRegExp(forced)}:`), '') };
  if (text.startsWith('local:')) return { kind: 'local', path: resolveModelPath(text.slice('local:'.length), options.home) };
  if (/\.gguf$/i.test(text)) return { kind: 'local', path: resolveModelPath(text, options.home) };
  const colon = text.indexOf(':');
  if (colon <= 0 || colon === text.length - 1) {
    throw new HearthError(
      'model_not_configured',
      `"${text}" is not a model Hearth can use. Write provider:model (e.g. openai:gpt-4o-mini, anthropic:claude-sonnet-4-5) or a path to a .gguf file.`,
    );
  }
  return { kind: 'remote', provider: text.slice(0, colon), model: text.slice(colon + 1) };
}

/** Relative GGUF paths are looked up under HEARTH_HOME (`models/x.gguf` → `<home>/models/x.gguf`) unless they exist in cwd. */
function resolveModelPath(path: string, home: string): string {
  if (isAbsolute(path)) return path;
  const fromCwd = resolve(path);
  return existsSync(fromCwd) ? fromCwd : resolve(home, path);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
