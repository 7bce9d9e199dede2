#!/usr/bin/env node
// The `hearth` command: runs the built CLI (npm run build), or says how to build it.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const entry = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
if (!existsSync(entry)) {
  console.error('hearth is not built yet: run `npm run build` (or `npm start`) in the Hearth folder first.');
  process.exit(1);
}
const { main } = await import(pathToFileURL(entry).href);
process.exitCode = await main(process.argv.slice(2));
