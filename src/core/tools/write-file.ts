import { mkdir, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { defineTool } from './define.js';
import { fileWriteRefusal } from './file-approval.js';
import { displayPath, resolveToolPath } from './tool-paths.js';
import { countOf } from '../../shared/plural.js';

const Input = z.object({
  path: z.string().min(1).describe('File to write; relative paths are inside the workspace. Parent directories are created.'),
  content: z.string().describe('The complete new content of the file.'),
});

export const writeFileTool = defineTool({
  name: 'write_file',
  description: 'Create or overwrite a whole file with the given content (creates parent directories). For small edits to an existing file use patch.',
  input: Input,
  parallelSafe: true,
  paths: (input, ctx) => [resolveToolPath(ctx.workspace, input.path)],
  async run(input, ctx) {
    const absolute = resolveToolPath(ctx.workspace, input.path);
    const shown = displayPath(ctx.workspace, absolute);
    const existing = await stat(absolute).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return null;
      throw err;
    });
    if (existing?.isDirectory()) return { isError: true, content: `${shown} is a directory; give a file path.` };
    const refused = await fileWriteRefusal(ctx, absolute);
    if (refused !== null) return { isError: true, content: refused };
    await ctx.checkpoint?.({ reason: `before write_file ${shown}`, paths: [absolute] });
    await mkdir(dirname(absolute), { recursive: true });
    await writeFile(absolute, input.content, 'utf8');
    const lines = input.content === '' ? 0 : input.content.split('\n').length - (input.content.endsWith('\n') ? 1 : 0);
    return `${existing === null ? 'Created' : 'Overwrote'} ${shown} (${countOf(Buffer.byteLength(input.content), 'byte', 'bytes')}, ${countOf(lines, 'line', 'lines')}).`;
  },
});
