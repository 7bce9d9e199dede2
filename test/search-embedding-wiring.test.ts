import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { openEngine, type Engine } from '../src/core/engine.js';
import { freshHomeEnv } from './fixtures/cli.js';
import { modelDir, writeGguf, writeMalformedGguf } from './fixtures/gguf/index.js';
import { tempDir } from './fixtures/skills/write-skill.js';

/**
 * `search.embedding_model` wired through the engine: session search embeds the stored messages with the
 * configured GGUF (real embedding host process) and fuses the result; a broken model leaves keyword
 * search working and tells the user once.
 */
const dirs = modelDir('hearth-embed-wiring-');
afterAll(() => dirs.cleanup());
const engines: Engine[] = [];
afterEach(async () => {
  for (const engine of engines.splice(0)) await engine.dispose();
});

async function engineWithEmbeddings(modelPath: string, warnings: string[]): Promise<Engine> {
  const env = freshHomeEnv();
  const home = env.HEARTH_HOME as string;
  writeFileSync(
    join(home, 'config.yaml'),
    `version: 1\nmodel:\n  default: idle:m\nproviders:\n  idle: { type: openai, base_url: "http://127.0.0.1:9/v1" }\nsearch:\n  embedding_model: ${JSON.stringify(modelPath)}\n`,
  );
  const workspace = tempDir('hearth-embed-ws-');
  const engine = await openEngine({ env, workspace, userHome: workspace, onWarning: (w) => warnings.push(w) });
  engines.push(engine);
  const session = engine.sessions.store.createSession({ source: 'cli', model: 'idle:m' });
  engine.sessions.store.appendMessage(session.id, { role: 'user', content: 'The staging database runs on port 5433.' });
  engine.sessions.store.appendMessage(session.id, { role: 'assistant', content: 'Noted: staging Postgres listens on 5433.' });
  return engine;
}

describe('semantic session search through the engine', () => {
  it('embeds stored messages with the configured model and still finds the session', async () => {
    const warnings: string[] = [];
    const engine = await engineWithEmbeddings(writeGguf(dirs.path('embed.gguf'), { preset: 'tiny' }).path, warnings);
    const result = await engine.learning.search.discover('staging database port');
    expect(result.hits[0]?.window.map((m) => m.content).join('\n')).toContain('5433');
    // Catches a config key that is read but never reaches the search path.
    const stored = engine.sessions.store.db.prepare('SELECT count(*) AS n FROM message_embeddings').get() as { n: number };
    expect(stored.n).toBe(2);
    expect(warnings.filter((w) => w.includes('Semantic search'))).toEqual([]);
  }, 90_000);

  it('a broken embedding model degrades to keyword search with one warning', async () => {
    const warnings: string[] = [];
    const engine = await engineWithEmbeddings(writeMalformedGguf(dirs.path('broken.gguf'), 'truncated'), warnings);
    for (let i = 0; i < 2; i++) {
      const result = await engine.learning.search.discover('staging database port');
      expect(result.hits.length).toBeGreaterThan(0);
    }
    // Told once, not on every search (the keychain may add its own, unrelated warning outside a desktop session).
    const semantic = warnings.filter((w) => w.includes('Semantic search'));
    expect(semantic).toHaveLength(1);
    expect(semantic[0]).toMatch(/Semantic search is off for now, keyword search still works: .+/);
  }, 90_000);
});
