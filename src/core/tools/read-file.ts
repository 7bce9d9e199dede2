import { readFile, stat } from 'node:fs/promises';
import { z } from 'zod';
import { defineTool } from './define.js';
import { displayPath, resolveToolPath, similarNames } from './tool-paths.js';
import { countOf } from '../../shared/plural.js';

const DEFAULT_LIMIT = 500;
const MAX_LIMIT = 2000;
/** Longer lines (minified code, data) are cut so one line cannot fill the context. */
const MAX_LINE_CHARS = 2000;
/** Beyond this the file is not loaded at all; terminal tools (head, sed -n) can still page it. */
const MAX_FILE_BYTES = 50 * 1024 * 1024;

// Plain `number` (not `.int()`): integer JSON Schemas admit `59E307` in node-llama-cpp 3.21 grammars.
const Input = z.object({
  path: z.string().min(1).describe('File to read; relative paths are inside the workspace.'),
  offset: z.number().min(1).optional().describe('First line to show, 1-based (default 1).'),
  limit: z.number().min(1).max(MAX_LIMIT).optional().describe(`Most lines to show (default ${DEFAULT_LIMIT}).`),
});

export const readFileTool = defineTool({
  name: 'read_file',
  description: `Read a text file as numbered lines (LINE_NUM|CONTENT), ${DEFAULT_LIMIT} lines at a time; use offset/limit to page through long files.`,
  input: Input,
  parallelSafe: true,
  paths: (input, ctx) => [resolveToolPath(ctx.workspace, input.path)],
  async run(input, ctx) {
    const absolute = resolveToolPath(ctx.workspace, input.path);
    const shown = displayPath(ctx.workspace, absolute);
    const info = await stat(absolute).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT' || err.code === 'ENOTDIR') return null;
      throw err;
    });
    if (info === null) {
      const similar = similarNames(absolute).map((p) => displayPath(ctx.workspace, p));
      return { isError: true, content: `File not found: ${shown}.${similar.length > 0 ? ` Did you mean: ${similar.join(', ')}?` : ''}` };
    }
    if (info.isDirectory()) return { isError: true, content: `${shown} is a directory. Use search_files with target "files" to list it.` };
    if (info.size > MAX_FILE_BYTES) {
      return { isError: true, content: `${shown} is ${info.size} bytes, too large to read here. Use terminal (head, tail, sed -n 'A,Bp') to look at parts of it.` };
    }
    const buffer = await readFile(absolute);
    if (buffer.subarray(0, 8192).includes(0)) return { isError: true, content: `${shown} looks like a binary file (${info.size} bytes); it cannot be shown as text.` };

    const lines = buffer.toString('utf8').split(/\r?\n/);
    if (lines.at(-1) === '') lines.pop();
    const total = lines.length;
    const offset = Math.floor(input.offset ?? 1);
    const limit = Math.floor(input.limit ?? DEFAULT_LIMIT);
    if (total === 0) return `${shown} is empty (0 lines).`;
    if (offset > total) return { isError: true, content: `offset ${offset} is past the end of ${shown}, which has ${countOf(total, 'line', 'lines')}.` };
    const last = Math.min(total, offset + limit - 1);
    const width = String(last).length;
    const body = lines.slice(offset - 1, last).map((line, i) => {
      const text = line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}… [line cut at ${MAX_LINE_CHARS} of ${line.length} chars]` : line;
      return `${String(offset + i).padStart(width, ' ')}|${text}`;
    });
    const footer =
      last < total
        ? `[Lines ${offset}-${last} of ${total}. Continue with offset=${last + 1}.]`
        : `[Lines ${offset}-${last} of ${total}; end of file.]`;
    return `${body.join('\n')}\n${footer}`;
  },
});
