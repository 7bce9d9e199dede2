import { parseArgs } from 'node:util';
import { HearthError } from '../core/errors.js';

/** Flags every command that talks to a model accepts (`hearth`, `hearth chat`, `hearth run`). */
export const modelFlags = {
  model: { type: 'string' },
  'base-url': { type: 'string' },
  'api-key-env': { type: 'string' },
  provider: { type: 'string' },
  yolo: { type: 'boolean' },
} as const;

export interface ModelFlags {
  model?: string;
  baseUrl?: string;
  apiKeyEnv?: string;
  provider?: 'openai' | 'anthropic' | 'local';
  yolo: boolean;
}

type FlagSpec = Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }>;

/** Strict parsing: an unknown flag or a missing value is a usage error with the command's name, never ignored. */
export function parseCommandArgs<T extends FlagSpec>(command: string, argv: string[], options: T) {
  try {
    return parseArgs({ args: argv, options: { ...options, help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true });
  } catch (err) {
    throw new HearthError('usage', `hearth ${command}: ${(err as Error).message}. Run \`hearth ${command} --help\`.`);
  }
}

export function readModelFlags(values: Record<string, unknown>): ModelFlags {
  const provider = values.provider as string | undefined;
  if (provider !== undefined && !['openai', 'anthropic', 'local'].includes(provider)) {
    throw new HearthError('usage', `--provider must be one of openai, anthropic, local (got "${provider}").`);
  }
  return {
    model: values.model as string | undefined,
    baseUrl: values['base-url'] as string | undefined,
    apiKeyEnv: values['api-key-env'] as string | undefined,
    provider: provider as ModelFlags['provider'],
    yolo: values.yolo === true,
  };
}
