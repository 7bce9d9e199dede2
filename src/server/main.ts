/**
 * The `hearth serve` process: the engine, the app service and the web server, until SIGINT or SIGTERM.
 * The CLI starts this file by path (like the model host), because surfaces do not import each other; it
 * passes its parsed flags as one JSON argument.
 */
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { openAppService } from '../core/app/open-app-service.js';
import { openEngine } from '../core/engine.js';
import { errorMessage } from '../core/errors.js';
import { DisposalStack } from '../core/lifecycle.js';
import { redactingLogger, redactorFromEnvironment, type Redactor } from '../core/safety/secrets/redact.js';
import { openBrowser } from './open-browser.js';
import { DEFAULT_WEB_PORT, launchToken } from './launch-address.js';
import { startWebServer } from './web-server.js';

const ServeOptions = z.object({
  /** Absent: DEFAULT_WEB_PORT, or any free port when that one is taken. */
  port: z.number().int().min(0).max(65_535).optional(),
  open: z.boolean(),
  newToken: z.boolean().default(false),
  workspace: z.string().min(1),
  yolo: z.boolean(),
  overrides: z.object({
    model: z.string().optional(),
    provider: z.enum(['openai', 'anthropic', 'local']).optional(),
    baseUrl: z.string().optional(),
    apiKeyEnv: z.string().optional(),
  }),
});
type ServeOptions = z.infer<typeof ServeOptions>;

const DUPLICATE_SIGNAL_MS = 1000;

/** The port asked for, or the default one; the default only falls back to a free port when it is taken. */
async function listenOn<T>(port: number | undefined, start: (port: number) => Promise<T>, log: (line: string) => void): Promise<T> {
  if (port !== undefined) return start(port);
  try {
    return await start(DEFAULT_WEB_PORT);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw e;
    log(`Port ${DEFAULT_WEB_PORT} is taken (another Hearth?): serving on a free port instead, so this address differs from your bookmark.`);
    return start(0);
  }
}

/** dist/renderer, from src/server (tsx) and from dist/server (built) alike. */
const RENDERER_DIR = fileURLToPath(new URL('../../dist/renderer', import.meta.url));

async function serve(options: ServeOptions): Promise<number> {
  // Known secrets and key formats never reach the log in clear (the engine's own redactor also knows keychain keys).
  const envRedactor = redactorFromEnvironment(process.env);
  let redactor: Pick<Redactor, 'redact'> = envRedactor;
  const err = redactingLogger({ redact: (text) => redactor.redact(text) }, (line) => process.stderr.write(`${line}\n`));
  // Everything this process opens goes on one stack and closes in reverse: the web server, the app service, the engine.
  const stack = new DisposalStack();
  const engine = stack.use(await openEngine({
    env: process.env,
    workspace: options.workspace,
    yolo: options.yolo,
    overrides: Object.fromEntries(Object.entries(options.overrides).filter(([, v]) => v !== undefined)),
    onWarning: (message) => err(`warning: ${message}`),
  }));
  redactor = engine.safety.redactor ?? envRedactor;
  const app = openAppService(engine, { source: 'web', env: process.env });
  stack.use(app);
  let server;
  try {
    const { token, note } = launchToken({ rotate: options.newToken });
    if (note !== null) err(note);
    server = await listenOn(options.port, (port) => startWebServer({ service: app, port, token, staticDir: RENDERER_DIR, log: err }), err);
  } catch (e) {
    await stack.dispose();
    throw e;
  }
  const running = server;
  stack.defer(() => running.close());
  process.stdout.write(`${server.url}\n`);
  err(`Hearth is serving its interface on 127.0.0.1:${server.port}. Keep the address private: the token in it opens your sessions. Ctrl+C stops.`);
  if (options.open) openBrowser(server.url, err);

  await new Promise<void>((resolve) => {
    let stopAskedAt: number | null = null;
    const onSignal = () => {
      if (stopAskedAt === null) {
        stopAskedAt = Date.now();
        resolve();
        return;
      }
      // One Ctrl+C often arrives twice (the terminal signals the process group, and the CLI relays it);
      // a signal well after the first means "stop now" when closing is stuck.
      if (Date.now() - stopAskedAt > DUPLICATE_SIGNAL_MS) process.exit(130);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
  err('Stopping…');
  await stack.dispose();
  return 0;
}

const parsed = ServeOptions.safeParse(parseJson(process.argv[2] ?? ''));
if (!parsed.success) {
  process.stderr.write(`hearth serve: bad options from the launcher: ${parsed.error.message}\n`);
  process.exitCode = 2;
} else {
  process.exitCode = await serve(parsed.data).catch((e: unknown) => {
    process.stderr.write(`hearth serve: ${errorMessage(e)}\n`);
    return 1;
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (_err) {
    // Reported by the schema check above as "bad options from the launcher".
    return undefined;
  }
}
