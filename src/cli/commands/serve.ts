import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { HearthError } from '../../core/errors.js';
import { modelFlags, parseCommandArgs, readModelFlags } from '../args.js';
import type { CliIO } from '../io.js';

export const serveHelp = `Usage: hearth serve [--port N] [--open] [--new-token] [model flags]
Serves the Hearth interface to your browser on 127.0.0.1 and prints its address. The address carries a token,
the same on every start (it is kept in the OS keychain), so a bookmark keeps working: anyone with the address
can use your sessions, so keep it private.
  --port N      listen on port N (default: 47291, or any free port when that one is taken)
  --open        open the address in the default browser
  --new-token   replace the token: addresses opened or bookmarked before stop working
Ctrl+C (or SIGTERM) stops it.`;

/**
 * The web surface runs as its own process (src/server/main), started by path as the engine starts the
 * model host: surfaces never import each other. This command checks the flags, hands them over as one
 * JSON argument, relays the output, passes SIGINT/SIGTERM on, and exits with the server's code.
 */
export async function serveCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('serve', argv, { ...modelFlags, port: { type: 'string' }, open: { type: 'boolean' }, 'new-token': { type: 'boolean' } });
  if (values.help) {
    io.out(`${serveHelp}\n`);
    return 0;
  }
  if (positionals.length > 0) throw new HearthError('usage', `hearth serve takes no arguments (got "${positionals.join(' ')}"). Run \`hearth serve --help\`.`);
  const flags = readModelFlags(values);
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
