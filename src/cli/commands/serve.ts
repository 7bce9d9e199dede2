import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { HearthError } from '../../core/errors.js';
import { modelFlags, parseCommandArgs, readModelFlags, type ModelFlags } from '../args.js';
import type { CliIO } from '../io.js';

export const serveHelp = `Usage: hearth serve [--port N] [--open] [--new-token] [model flags]
       hearth serve --api [--port N] [model flags]
Serves the Hearth interface to your browser on 127.0.0.1 and prints its address. The address carries a token,
the same on every start (it is kept in the OS keychain), so a bookmark keeps working: anyone with the address
can use your sessions, so keep it private.
  --port N      listen on port N (default: 47291, or any free port when that one is taken)
  --open        open the address in the default browser
  --new-token   replace the token: addresses opened or bookmarked before stop working
With --api it serves the local OpenAI-compatible API instead (/v1/chat/completions, /v1/models) on api.host
(default 127.0.0.1) and api.port (default 8642; --port overrides) and prints its base URL. Model "hearth-agent"
runs the agent (tools, memory, skills; dangerous actions are denied, nobody is here to approve them); the
configured models answer by their ids. Every request needs "Authorization: Bearer <key>": HEARTH_API_KEY when
set, else a key generated on the first start, printed that once and kept in the OS keychain.
Ctrl+C (or SIGTERM) stops it.`;

/**
 * The web surface runs as its own process (src/server/main), started by path as the engine starts the
 * model host: surfaces never import each other. This command checks the flags, hands them over as one
 * JSON argument, relays the output, passes SIGINT/SIGTERM on, and exits with the server's code.
 */
export async function serveCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('serve', argv, { ...modelFlags, port: { type: 'string' }, open: { type: 'boolean' }, 'new-token': { type: 'boolean' }, api: { type: 'boolean' } });
  if (values.help) {
    io.out(`${serveHelp}\n`);
    return 0;
  }
  if (positionals.length > 0) throw new HearthError('usage', `hearth serve takes no arguments (got "${positionals.join(' ')}"). Run \`hearth serve --help\`.`);
  const flags = readModelFlags(values);
  if (values.api === true) {
    const webOnly = (['open', 'new-token'] as const).filter((flag) => values[flag] === true);
    if (webOnly.length > 0) throw new HearthError('usage', `hearth serve --api does not take ${webOnly.map((f) => `--${f}`).join(' or ')} (web mode's flags). Run \`hearth serve --help\`.`);
    return serveApi({ ...(values.port === undefined ? {} : { port: parsePort(values.port) }), flags }, io);
  }
  const options = {
    ...(values.port === undefined ? {} : { port: parsePort(values.port) }),
    open: values.open === true,
    newToken: values['new-token'] === true,
    workspace: io.cwd,
    yolo: flags.yolo,
    overrides: { model: flags.model, provider: flags.provider, baseUrl: flags.baseUrl, apiKeyEnv: flags.apiKeyEnv },
  };
  const entry = serverEntry();
  const child = spawn(process.execPath, [...entry.execArgv, entry.path, JSON.stringify(options)], { env: io.env, cwd: io.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', (chunk: Buffer) => io.out(chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => io.err(chunk.toString()));
  const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
  const onInt = forward('SIGINT');
  const onTerm = forward('SIGTERM');
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  try {
    return await new Promise<number>((resolve, reject) => {
      child.once('error', (err) => reject(new HearthError('usage', `Could not start the web server process: ${err.message}`)));
      child.once('close', (code, signal) => resolve(code ?? (signal === 'SIGINT' ? 130 : 143)));
    });
  } finally {
    process.off('SIGINT', onInt);
    process.off('SIGTERM', onTerm);
  }
}

function parsePort(text: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65_535) throw new HearthError('usage', `--port takes a port number from 0 to 65535 (got "${text}").`);
  return port;
}

/** `src/server/main.ts` through tsx when Hearth runs from source, `dist/server/main.js` when built. */
function serverEntry(): { path: string; execArgv: string[] } {
  const fromSource = import.meta.url.endsWith('.ts');
  const path = fileURLToPath(new URL(`../../server/main.${fromSource ? 'ts' : 'js'}`, import.meta.url));
  if (!fromSource) return { path, execArgv: [] };
  // Resolve tsx from this file, not from whatever directory the user runs Hearth in.
  return { path, execArgv: ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href] };
}

/** A second signal this long after the first means "stop now", when closing is stuck. */
const DUPLICATE_SIGNAL_MS = 1000;

/**
 * `hearth serve --api`: the engine and the OpenAI-compatible API in this process (both are core, so no second
 * process is needed), until SIGINT or SIGTERM. The base URL goes to stdout, and the key only on the start that
 * generated it; HEARTH_API_KEY, when set, is used instead and never printed. Nobody but the API client is
 * attached, so a dangerous action of a `hearth-agent` turn is denied.
 */
async function serveApi(options: { port?: number; flags: ModelFlags }, io: CliIO): Promise<number> {
  const [{ resolveApiKey }, { startApi }, { openCliEngine }] = await Promise.all([
    import('../../core/openai-api/api-key.js'),
    import('../../core/openai-api/server.js'),
    import('../engine.js'),
  ]);
  const engine = await openCliEngine(io, options.flags);
  try {
    const key = resolveApiKey(io.env);
    // The key opens the agent: like every secret Hearth knows, it never reaches a transcript or the log in clear.
    engine.safety.redactor?.addSecret(key.key, 'HEARTH_API_KEY');
    const api = await startApi({
      engine,
      apiKey: key.key,
      ...(options.port === undefined ? {} : { port: options.port }),
      approvals: 'deny',
      log: (line) => io.err(`${line}\n`),
    });
    io.out(`${api.url}\n`);
    if (key.source === 'generated') io.out(`API key (shown this once; kept in the OS keychain): ${key.key}\n`);
    if (key.source === 'ephemeral') io.out(`API key (for this run only): ${key.key}\n`);
    if (key.note !== undefined) io.err(`${key.note}\n`);
    io.err(`Hearth's OpenAI-compatible API is serving on ${api.host}:${api.port}: model "hearth-agent" runs the agent, the configured models answer by their ids. Dangerous actions are denied (nobody is here to approve them). Ctrl+C stops.\n`);
    await untilSignal();
    io.err('Stopping…\n');
    await api.stop();
    return 0;
  } finally {
    await engine.dispose();
  }
}

function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    let firstAt: number | null = null;
    const onSignal = () => {
      if (firstAt === null) {
        firstAt = Date.now();
        resolve();
        return;
      }
      // One Ctrl+C often arrives twice (the terminal signals the process group); a later one means closing is stuck.
      if (Date.now() - firstAt > DUPLICATE_SIGNAL_MS) process.exit(130);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}
