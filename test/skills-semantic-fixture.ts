/**
 * Shared by the semantic skill ranking tests: a small real skill library on disk, and an Embedder that
 * counts what it is asked to embed (it forwards every call to a real embedder: nothing is faked, the
 * count is what proves "embedded once per content version" and "one call per request").
 */
import type { Embedder } from '../src/core/llm/embedder.js';
import { skillMd, tempDir, writeSkill } from './fixtures/skills/write-skill.js';

/**
 * Enough skills that one can stand out from the library's spread of similarities (semantic-rank.ts).
 * `when-it-is-not-there` is written only in stop words: the keyword ranker indexes nothing for it, so a
 * request only its embedding can match proves the semantic path is in use.
 */
export const LIBRARY: Record<string, string> = {
  'when-it-is-not-there': 'What to do when it is not there any more.',
  'postgres-backup': 'Back up a Postgres database with pg_dump and restore it. Use when asked for a database snapshot.',
  'deploy-docs': 'Build and publish the documentation site. Use after a release.',
  'resize-images': 'Resize and convert photos in bulk with ImageMagick.',
  'git-bisect': 'Find the commit that introduced a regression with git bisect.',
  'weekly-report': 'Write the weekly status report from closed tickets and merged pull requests.',
  'rotate-logs': 'Rotate and compress application logs with logrotate.',
  'kubernetes-rollout': 'Roll out a new image to a Kubernetes deployment and watch it become ready.',
  'invoice-pdf': 'Generate a PDF invoice from a CSV of billable hours.',
  'meal-planner': 'Plan a week of dinners from what is in the fridge.',
  'ssh-hardening': 'Harden an SSH server: keys only, no root login, fail2ban.',
  'translate-strings': 'Translate the app’s UI strings into another language and keep placeholders intact.',
  'flaky-tests': 'Track down flaky tests by rerunning them and comparing timings.',
  'budget-tracker': 'Categorise bank transactions and compare spending against a monthly budget.',
  'podcast-notes': 'Turn a podcast transcript into show notes with timestamps.',
  'dns-records': 'Add or change DNS records for a domain and check propagation.',
  'python-packaging': 'Package a Python project with pyproject.toml and publish it to PyPI.',
};

export function writeLibrary(root = tempDir('hearth-semantic-skills-')): string {
  for (const [name, description] of Object.entries(LIBRARY)) writeSkill(root, name, skillMd(`name: ${name}\ndescription: ${description}`));
  return root;
}

export function editSkill(root: string, name: string, description: string, body?: string): void {
  writeSkill(root, name, skillMd(`name: ${name}\ndescription: ${description}`, body));
}

export class CountingEmbedder implements Embedder {
  /** One entry per `embed` call: how many texts it carried. */
  readonly calls: number[] = [];
  /** `dimensions()` calls: each is an attempt to (re)load the model. */
  dimensionCalls = 0;

  constructor(private readonly inner: Embedder) {}

  get id(): string {
    return this.inner.id;
  }

  get textsEmbedded(): number {
    return this.calls.reduce((sum, n) => sum + n, 0);
  }

  dimensions(): Promise<number> {
    this.dimensionCalls += 1;
    return this.inner.dimensions();
  }

  embed(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]> {
    this.calls.push(texts.length);
    return this.inner.embed(texts, signal);
  }

  dispose(): Promise<void> {
    return this.inner.dispose();
  }
}
