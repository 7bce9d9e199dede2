/**
 * The app under test for the UI benchmark, as `hearth serve` runs it: a throwaway HEARTH_HOME whose encrypted
 * store holds the benchmark sessions, the real engine with a paced OpenAI-compatible model as its default,
 * the app service and the web server serving the built renderer.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppError } from '../src/core/app/errors.js';
import { createAppService, type ModelHandlers } from '../src/core/app/service.js';
import { openEngine } from '../src/core/engine.js';
import { openStore } from '../src/core/store/open-store.js';
import { startWebServer, type WebServer } from '../src/server/web-server.js';
import { ConversationWriter } from './ui-session-corpus.js';
import { startPacedModel, type PacedModel, type PacedModelOptions } from './ui-sse-model.js';

export interface BenchSessionSpec {
  title: string;
  messages: number;
}

export interface HearthUnderTest {
  url: string;
  /** Session id per spec title. */
  sessions: Map<string, string>;
  model: PacedModel;
  /** The same engine behind a second server whose app service sends one frame per delta (no joining): the baseline. */
  perTokenUrl: string;
  /** Seconds spent writing the sessions into the store. */
  seedSeconds: number;
  close(): Promise<void>;
}

/** The model manager is not part of this benchmark; its routes refuse clearly instead of hanging. */
function modelRoutesRefused(): ModelHandlers {
  const refuse = () => Promise.reject(new AppError('unavailable', 'The model manager is not part of the UI benchmark.'));
  return { 'models.list': refuse, 'models.fit': refuse, 'models.download': refuse, 'models.pause': refuse, 'models.resume': refuse, 'models.cancel': refuse, 'models.use': refuse };
}

export interface HearthUnderTestOptions {
  rendererDir: string;
  sessions: BenchSessionSpec[];
  model: PacedModelOptions;
}

export async function startHearthUnderTest(options: HearthUnderTestOptions): Promise<HearthUnderTest> {
  if (!existsSync(join(options.rendererDir, 'index.html'))) {
    throw new Error(`no built renderer in ${options.rendererDir}: run \`npx vite build\` first (or set HEARTH_RENDERER_DIR)`);
  }
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'hearth-ui-bench-')));
  const home = join(root, 'home');
  const workspace = join(root, 'workspace');
  mkdirSync(home);
  mkdirSync(workspace);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HEARTH_HOME: home,
    HEARTH_DB_KEY: randomBytes(32).toString('hex'),
    HEARTH_KEYCHAIN_SERVICE: `hearth-ui-bench-${randomBytes(6).toString('hex')}`,
    OPENAI_API_KEY: '',
    OPENAI_BASE_URL: '',
  };
  const model = await startPacedModel(options.model);
  writeFileSync(
    join(home, 'config.yaml'),
    `version: 1\nmodel:\n  default: "paced:bench"\nproviders:\n  paced: { type: openai, base_url: "${model.url}", context_length: 131072 }\n` +
      // Background reviews and reflection would add model calls the benchmark did not ask for.
      `review:\n  enabled: false\nuser_model:\n  enabled: false\n`,
  );

  const seedStart = performance.now();
  const sessions = new Map<string, string>();
  const store = openStore(home, { env });
  try {
    const writer = new ConversationWriter();
    for (const spec of options.sessions) {
      const session = store.createSession({ source: 'desktop', model: 'paced:bench', title: spec.title });
      const messages = writer.messages(spec.messages);
      for (let i = 0; i < messages.length; i += 1000) store.appendMessages(session.id, messages.slice(i, i + 1000));
      sessions.set(spec.title, session.id);
    }
  } finally {
    store.close();
  }
  const seedSeconds = (performance.now() - seedStart) / 1000;

  const engine = await openEngine({ env, workspace, userHome: workspace, onWarning: (warning) => console.warn(`engine warning: ${warning}`) });
  const service = createAppService(engine, { source: 'web', models: modelRoutesRefused() });
  const perTokenService = createAppService(engine, { source: 'web', models: modelRoutesRefused(), deltaBatchMs: 0 });
  const servers: WebServer[] = [];
  try {
    for (const served of [service, perTokenService]) {
      servers.push(await startWebServer({ service: served, port: 0, staticDir: options.rendererDir, log: (line) => console.warn(line) }));
    }
  } catch (error) {
    await Promise.all(servers.map((s) => s.close()));
    await service.dispose();
    await perTokenService.dispose();
    await engine.dispose();
    await model.close();
    throw error;
  }
  const [server, perTokenServer] = servers as [WebServer, WebServer];
  return {
    url: server.url,
    perTokenUrl: perTokenServer.url,
    sessions,
    model,
    seedSeconds,
    async close() {
      await server.close();
      await perTokenServer.close();
      await service.dispose();
      await perTokenService.dispose();
      await engine.dispose();
      await model.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
