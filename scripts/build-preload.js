// Compiles src/preload/preload.ts alone to dist/preload/preload.cjs (CommonJS, one file).
// Usage: node scripts/build-preload.js [output] [input]
//
// Why not tsc with the rest of main: main is ESM (it imports the engine, which uses import.meta), but a
// sandboxed preload is evaluated as a plain CommonJS-style script whose `require` knows only `electron`,
// `events`, `timers` and `url`; it cannot load a sibling file. So the preload is written with type-only
// imports plus `electron`, transpiled on its own, and the result is checked: any other `require` fails the
// build here instead of failing silently in the window at run time. Types are checked by `tsc -p tsconfig.json`.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const SANDBOX_MODULES = new Set(['electron', 'events', 'timers', 'url']);

/** TypeScript source → CommonJS text; throws if it requires anything a sandboxed preload cannot. */
export function compilePreload(source, fileName = 'preload.ts') {
  const { outputText, diagnostics } = ts.transpileModule(source, {
    fileName,
    reportDiagnostics: true,
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false, isolatedModules: true, sourceMap: false },
  });
  if (diagnostics && diagnostics.length > 0) {
    throw new Error(`preload does not compile: ${diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')).join('; ')}`);
  }
  const required = [...outputText.matchAll(/\brequire\(\s*["'`]([^"'`]+)["'`]\s*\)/g)].map((m) => m[1]);
  const dynamic = /\brequire\(\s*[^"'`\s]/.test(outputText) || /\bimport\(/.test(outputText);
  const forbidden = required.filter((name) => !SANDBOX_MODULES.has(name));
  if (forbidden.length > 0 || dynamic) {
    throw new Error(`a sandboxed preload cannot load ${forbidden.length > 0 ? forbidden.join(', ') : 'a computed module'}: keep src/preload/preload.ts self-contained (type-only imports)`);
  }
  return outputText;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const output = resolve(root, process.argv[2] ?? 'dist/preload/preload.cjs');
  const input = resolve(root, process.argv[3] ?? 'src/preload/preload.ts');
  mkdirSync(dirname(output), { recursive: true });
  writeFileSync(output, compilePreload(readFileSync(input, 'utf8'), input));
  console.log(`preload → ${output}`);
}
