import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative, resolve, dirname, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Keeps the layer rules of docs/architecture.md from eroding: imports point one way only.
 * Catches, e.g., the engine importing a surface, or the contract importing the engine.
 */
const root = resolve(import.meta.dirname, '..');
const src = join(root, 'src');

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

const importPattern = /(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^import\s+['"]([^'"]+)['"]/gm;

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(importPattern)].map((m) => (m[1] ?? m[2] ?? m[3]) as string);
}

const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);

describe('architecture: layer imports point one way', () => {
  const files = sourceFiles(src);

  it('finds source files to check (guards against a vacuous pass)', () => {
    expect(files.length).toBeGreaterThan(10);
  });

  it.each(files.map((f) => [relative(root, f), f]))('%s', (_name, file) => {
    const layer = layerOf(file);
    const rule = rules[layer];
    expect(rule, `unknown layer folder src/${layer}`).toBeDefined();
    for (const spec of importsOf(file)) {
      if (spec.startsWith('.')) {
        const target = resolve(dirname(file), spec);
        expect(target.startsWith(src), `${spec} leaves src/`).toBe(true);
        const targetLayer = layerOf(target);
        expect(rule.layers, `${layer} may not import ${targetLayer} (${spec})`).toContain(targetLayer);
      } else if (builtins.has(spec)) {
        expect(rule.allowNodeBuiltins, `${layer} may not import node built-in ${spec}`).toBe(true);
      } else {
        for (const banned of rule.bannedPackages) {
          expect(banned.test(spec), `${layer} may not import package ${spec}`).toBe(false);
        }
      }
    }
  });
});
