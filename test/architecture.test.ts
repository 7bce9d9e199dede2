import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative, resolve, dirname, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importSites } from './fixtures/source-imports.js';

/**
 * Keeps the layer rules of docs/architecture.md from eroding: imports point one way only, between the
 * top-level layers under src/ and between the sub-layers inside src/core/. Imports are read from the
 * TypeScript syntax tree (test/fixtures/source-imports.ts), so dynamic `import()`, `export … from` and
 * type-only imports count, and a comment that looks like an import does not.
 */
const root = resolve(import.meta.dirname, '..');
const src = join(root, 'src');
const core = join(src, 'core');

type Layer = 'core' | 'shared' | 'model-host' | 'cli' | 'main' | 'server' | 'preload' | 'renderer';

/** For each layer: which other layers it may import, and which packages it may never import. */
const rules: Record<Layer, { layers: Layer[]; bannedPackages: RegExp[]; allowNodeBuiltins: boolean }> = {
  shared: { layers: ['shared'], bannedPackages: [/^(?!zod$).*/], allowNodeBuiltins: false },
  core: { layers: ['core', 'shared'], bannedPackages: [/^electron/, /^react/], allowNodeBuiltins: true },
  'model-host': { layers: ['model-host', 'shared'], bannedPackages: [/^electron/, /^react/], allowNodeBuiltins: true },
  cli: { layers: ['cli', 'core', 'shared'], bannedPackages: [/^electron/, /^react/], allowNodeBuiltins: true },
  server: { layers: ['server', 'core', 'shared'], bannedPackages: [/^electron/, /^react/], allowNodeBuiltins: true },
  main: { layers: ['main', 'core', 'shared'], bannedPackages: [/^react/], allowNodeBuiltins: true },
  preload: { layers: ['preload', 'shared'], bannedPackages: [/^(?!electron$|zod$).*/], allowNodeBuiltins: false },
  renderer: { layers: ['renderer', 'shared'], bannedPackages: [/^electron/], allowNodeBuiltins: false },
};

/**
 * The sub-layers of src/core/, lowest first (decision 0016). A module may import its own folder and any
 * module of a lower tier; modules in one tier are peers and may not import each other, so a tier never
 * hides a cycle. A module is a folder under src/core/ or a file directly in it (`errors.ts` → `errors`).
 * A new folder fails the test until it is given a tier.
 */
const coreTiers: readonly (readonly string[])[] = [
  ['errors', 'seeded-random', 'text', 'lifecycle'],
  ['config'],
  ['llm'],
  ['local-model'],
  ['model-chain'],
  ['safety'],
  ['store'],
  ['exec', 'model-files', 'cron'],
  ['memory', 'search'],
  ['skills'],
  ['user-model'],
  ['tools'],
  ['learning', 'checkpoints'],
  ['agent'],
  ['engine'],
  ['gateway', 'openai-api'],
  ['app'],
];

const tierOf = new Map(coreTiers.flatMap((tier, index) => tier.map((name) => [name, index] as const)));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

function layerOf(file: string): Layer {
  return relative(src, file).split(sep)[0] as Layer;
}

/** The core module a path under src/core/ belongs to. */
function coreModuleOf(path: string): string {
  const [first = '', ...rest] = relative(core, path).split(sep);
  return rest.length === 0 ? first.replace(/\.(js|ts|tsx)$/, '') : first;
}

/** Why a relative import from one core file into another breaks the sub-layer order, or null when it may. */
function coreImportProblem(file: string, spec: string): string | null {
  const target = resolve(dirname(file), spec);
  if (!target.startsWith(core + sep)) return null;
  const from = coreModuleOf(file);
  const to = coreModuleOf(target);
  if (from === to) return null;
  const fromTier = tierOf.get(from);
  const toTier = tierOf.get(to);
  if (fromTier === undefined) return `core/${from} has no tier in coreTiers; place it in the order`;
  if (toTier === undefined) return `core/${to} has no tier in coreTiers; place it in the order`;
  if (toTier === fromTier) return `core/${from} and core/${to} are peers in one tier and may not import each other (${spec})`;
  if (toTier > fromTier) return `core/${from} may not import core/${to}, which sits above it (${spec})`;
  return null;
}

function coreProblems(file: string, text: string): string[] {
  return importSites(file, text).flatMap(({ specifier, line }) => {
    if (!specifier.startsWith('.')) return [];
    const problem = coreImportProblem(file, specifier);
    return problem === null ? [] : [`${relative(root, file)}:${line}: ${problem}`];
  });
}

const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
const files = sourceFiles(src);

describe('architecture: layer imports point one way', () => {
  it('finds source files to check (guards against a vacuous pass)', () => {
    expect(files.length).toBeGreaterThan(10);
  });

  it.each(files.map((f) => [relative(root, f), f]))('%s', (_name, file) => {
    const layer = layerOf(file);
    const rule = rules[layer];
    expect(rule, `unknown layer folder src/${layer}`).toBeDefined();
    for (const { specifier: spec, line } of importSites(file, readFileSync(file, 'utf8'))) {
      const where = `${relative(root, file)}:${line}`;
      if (spec.startsWith('.')) {
        const target = resolve(dirname(file), spec);
        expect(target.startsWith(src), `${where}: ${spec} leaves src/`).toBe(true);
        const targetLayer = layerOf(target);
        expect(rule.layers, `${where}: ${layer} may not import ${targetLayer} (${spec})`).toContain(targetLayer);
      } else if (builtins.has(spec)) {
        expect(rule.allowNodeBuiltins, `${where}: ${layer} may not import node built-in ${spec}`).toBe(true);
      } else {
        for (const banned of rule.bannedPackages) {
          expect(banned.test(spec), `${where}: ${layer} may not import package ${spec}`).toBe(false);
        }
      }
    }
  });
});

describe('architecture: sub-layers inside src/core/ point one way', () => {
  const coreFiles = files.filter((f) => f.startsWith(core + sep));

  it('gives every module under src/core/ a tier, and names no module twice', () => {
    const modules = new Set(coreFiles.map(coreModuleOf));
    expect([...modules].filter((m) => !tierOf.has(m)), 'modules without a tier').toEqual([]);
    expect(tierOf.size).toBe(coreTiers.flat().length);
  });

  it('has no import that runs up or sideways', () => {
    const problems = coreFiles.flatMap((file) => coreProblems(file, readFileSync(file, 'utf8')));
    expect(problems).toEqual([]);
  });

  // The rule itself, on planted sources: each of these is a back-import the check must catch.
  const llmFile = join(core, 'llm', 'planted.ts');
  it.each([
    ['a static import', `import { runTurn } from '../agent/loop.js';`],
    ['a type-only import', `import type { TurnResult } from '../agent/loop.js';`],
    ['a re-export', `export { runTurn } from '../agent/loop.js';`],
    ['a star re-export', `export * from '../tools/registry.js';`],
    ['a dynamic import()', `export async function later() { return (await import('../agent/loop.js')).runTurn; }`],
    ['an import type in a type position', `export type Loop = typeof import('../agent/loop.js');`],
    ['an import split over lines', `import {\n  apiKeyAccount,\n} from\n  '../safety/secrets/keychain.js';`],
    ['an import of a top-level core file above it', `import { openEngine } from '../engine.js';`],
  ])('fails on %s', (_what, text) => {
    expect(coreProblems(llmFile, text)).toHaveLength(1);
  });

  it('fails on peers importing each other and on a folder without a tier', () => {
    expect(coreProblems(join(core, 'memory', 'x.ts'), `import '../search/session-search.js';`)[0]).toMatch(/peers in one tier/);
    expect(coreProblems(join(core, 'nowhere', 'x.ts'), `import '../errors.js';`)[0]).toMatch(/core\/nowhere has no tier/);
  });

  it('lets a module import below itself and within itself, and ignores what only looks like an import', () => {
    const text = [
      `import { HearthError } from '../errors.js';`,
      `import type { HearthConfig } from '../config/schema.js';`,
      `export { parseModelSpec } from './model-spec.js';`,
      `// import { runTurn } from '../agent/loop.js';`,
      `const example = "import { runTurn } from '../agent/loop.js'";`,
    ].join('\n');
    expect(importSites(llmFile, text).map((s) => s.specifier)).toEqual(['../errors.js', '../config/schema.js', './model-spec.js']);
    expect(coreProblems(llmFile, text)).toEqual([]);
  });
});
