import { openEngine, type Engine } from '../core/engine.js';
import type { ModelFlags } from './args.js';
import type { CliIO } from './io.js';

export type CliEngine = Engine & { toolNames: string[] };

/** The engine with the command line's model flags applied; warnings go to stderr. */
export async function openCliEngine(io: CliIO, flags: ModelFlags): Promise<CliEngine> {
  const engine = await openEngine({
    env: io.env,
    workspace: io.cwd,
    yolo: flags.yolo,
    overrides: {
      ...(flags.model ? { model: flags.model } : {}),
      ...(flags.provider ? { provider: flags.provider } : {}),
      ...(flags.baseUrl ? { baseUrl: flags.baseUrl } : {}),
      ...(flags.apiKeyEnv ? { apiKeyEnv: flags.apiKeyEnv } : {}),
    },
    onWarning: (message) => io.err(`warning: ${message}\n`),
    // A local model takes seconds to load: show it on a terminal (stderr, so answers stay clean).
    ...(io.isTTY ? { onLoadProgress: (p: number) => io.err(`\rloading model… ${Math.round(p * 100)}%${p >= 1 ? '\n' : ''}`) } : {}),
  });
  return Object.assign(engine, { toolNames: engine.tools.offered.names() });
}
