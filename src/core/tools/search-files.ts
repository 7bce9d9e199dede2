import { spawn } from 'node:child_process';
import { accessSync, constants as fsConstants, statSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { z } from 'zod';
import { abortError } from '../errors.js';
import { defineTool } from './define.js';
import { nameFilter } from './glob-match.js';
import { nodeSearch, type SearchQuery, type SearchResult } from './search-fallback.js';
import { displayPath, resolveToolPath } from './tool-paths.js';

const DEFAULT_LIMIT = 50;

const Input = z.object({
  pattern: z.string().min(1).describe('content: a regular expression to find in files. files: a glob (e.g. "*.ts") or part of a file name.'),
  target: z.enum(['content', 'files']).optional().describe('"content" (default) searches inside files; "files" finds files by name.'),
  path: z.string().optional().describe('Directory or file to search (default: the workspace).'),
  file_glob: z.string().optional().describe('Only search files whose name matches this glob, e.g. "*.py".'),
  limit: z.number().min(1).max(1000).optional().describe(`Most results to return (default ${DEFAULT_LIMIT}).`),
});

export interface SearchFilesOptions {
  /** 'auto' (default): ripgrep when `rg` is on PATH, else the built-in walker. 'never': always the walker. */
  ripgrep?: 'auto' | 'never';
}

export function createSearchFilesTool(options: SearchFilesOptions = {}) {
  const rgPath = options.ripgrep === 'never' ? null : findOnPath('rg');
  return defineTool({
    name: 'search_files',
    description: 'Search file contents with a regex (target "content", shows path:line:text) or find files by name (target "files"). Skips hidden and ignored files.',
    input: Input,
    parallelSafe: true,
    async run(input, ctx) {
      const root = resolveToolPath(ctx.workspace, input.path ?? '.');
      let rootIsFile: boolean;
      try {
        rootIsFile = statSync(root).isFile();
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { isError: true, content: `Path not found: ${displayPath(ctx.workspace, root)}` };
        throw err;
      }
      const query: SearchQuery = { ...input, target: input.target ?? 'content', root, rootIsFile, limit: Math.floor(input.limit ?? DEFAULT_LIMIT) };
      const result = rgPath === null ? await nodeSearch(query, ctx.signal) : await ripgrepSearch(rgPath, query, ctx.signal);
      if ('error' in result) return { isError: true, content: result.error };
      return formatResult(result, query, (p) => displayPath(ctx.workspace, p));
    },
  });
}

function formatResult(result: SearchResult, query: SearchQuery, show: (absolute: string) => string): string {
  const noun = query.target === 'content' ? 'matches' : 'files';
  if (result.items.length === 0) return `No ${noun} for ${JSON.stringify(query.pattern)} in ${show(query.root)}.`;
  const lines = result.items.map((item) => (item.line === undefined ? show(item.path) : `${show(item.path)}:${item.line}:${item.text ?? ''}`));
  const footer = result.more
    ? `[First ${result.items.length} ${noun} shown; there are more. Narrow the pattern or path, or raise limit.]`
    : `[${result.items.length} ${noun}.]`;
  return `${lines.join('\n')}\n${footer}`;
}

async function ripgrepSearch(rg: string, query: SearchQuery, signal: AbortSignal): Promise<SearchResult | { error: string }> {
  const args =
    query.target === 'content'
      ? ['--line-number', '--no-heading', '--with-filename', '--color', 'never', '--max-columns', '400', '--max-columns-preview', '--sort', 'path']
      : ['--files', '--sort', 'path'];
  // Dependencies are noise for the model even where no .gitignore says so (the fallback skips them too).
  args.push('--glob', '!node_modules');
  if (query.file_glob !== undefined) args.push('--glob', query.file_glob);
  if (query.target === 'content') args.push('-e', query.pattern);
  // Run from the root (or the file's directory) so output paths are short and relative to it.
  const cwd = query.rootIsFile ? join(query.root, '..') : query.root;
  if (query.rootIsFile) args.push('--', query.root);

  const fileGlob = query.target === 'files' ? nameFilter(query.pattern) : null;
  const child = spawn(rg, args, { cwd, signal, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve, reject) => {
    child.once('error', (err) => (signal.aborted ? reject(abortError(signal)) : reject(err)));
    child.once('close', (code) => resolve(code));
  });

  const items: SearchResult['items'] = [];
  let more = false;
  for await (const line of createInterface({ input: child.stdout })) {
    const item = query.target === 'content' ? parseContentLine(line, cwd) : { path: resolve(cwd, line) };
    if (item === null || (fileGlob !== null && !fileGlob(line))) continue;
    if (items.length === query.limit) {
      more = true;
      child.kill();
      break;
    }
    items.push(item);
  }
  const code = await exited;
  if (signal.aborted) throw abortError(signal);
  // Exit 1 is "nothing found"; 2 is an error (bad glob, unreadable path) unless we stopped it ourselves.
  if (!more && code === 2 && items.length === 0) return { error: `Search failed: ${stderr.trim()}` };
  return { items, more };
}

function parseContentLine(line: string, cwd: string): SearchResult['items'][number] | null {
  const match = /^(.*?):(\d+):(.*)$/.exec(line);
  if (match === null) return null;
  return { path: resolve(cwd, match[1] as string), line: Number(match[2]), text: match[3] as string };
}

function findOnPath(name: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, fsConstants.X_OK);
      return candidate;
    } catch (err) {
      // Not in this PATH entry (or not executable there): keep looking.
      if (!['ENOENT', 'EACCES', 'ENOTDIR'].includes((err as NodeJS.ErrnoException).code ?? '')) throw err;
    }
  }
  return null;
}
