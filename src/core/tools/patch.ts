import { readFile, writeFile } from 'node:fs/promises';
import { z } from 'zod';
import { defineTool } from './define.js';
import { fileWriteRefusal } from './file-approval.js';
import { replaceText } from './text-match.js';
import { displayPath, resolveToolPath, similarNames } from './tool-paths.js';
import { unifiedDiff } from '../text/unified-diff.js';

const Input = z.object({
  path: z.string().min(1).describe('File to edit; relative paths are inside the workspace.'),
  old_string: z.string().min(1).describe('Text to find. Include enough surrounding lines to make it unique.'),
  new_string: z.string().describe('Replacement text.'),
  replace_all: z.boolean().optional().describe('Replace every occurrence instead of requiring exactly one.'),
});

export const patchTool = defineTool({
  name: 'patch',
  description:
    'Edit a file by replacing old_string with new_string. Exact match first, then a match that ignores indentation and trailing-space differences. Returns a unified diff.',
  input: Input,
  parallelSafe: true,
  paths: (input, ctx) => [resolveToolPath(ctx.workspace, input.path)],
  async run(input, ctx) {
    const absolute = resolveToolPath(ctx.workspace, input.path);
    const shown = displayPath(ctx.workspace, absolute);
    const raw = await readFile(absolute, 'utf8').catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return null;
      throw err;
    });
    if (raw === null) {
      const similar = similarNames(absolute).map((p) => displayPath(ctx.workspace, p));
      return { isError: true, content: `File not found: ${shown}.${similar.length > 0 ? ` Did you mean: ${similar.join(', ')}?` : ''} Use write_file to create a new file.` };
    }
    if (input.old_string === input.new_string) return { isError: true, content: 'old_string and new_string are identical; nothing to change.' };

    // Work on LF text and put CRLF back on write, so a CRLF file stays CRLF whatever the model sent.
    const crlf = raw.includes('\r\n');
    const before = crlf ? raw.replaceAll('\r\n', '\n') : raw;
    const outcome = replaceText(before, input.old_string.replaceAll('\r\n', '\n'), input.new_string.replaceAll('\r\n', '\n'), input.replace_all ?? false);
    if (outcome.kind === 'not_found') {
      return { isError: true, content: `old_string was not found in ${shown} (also tried ignoring indentation and trailing spaces). Read the file again and copy the exact text.` };
    }
    if (outcome.kind === 'ambiguous') {
      return {
        isError: true,
        content: `old_string matches ${outcome.count} places in ${shown} (lines ${outcome.lines.join(', ')}). Include more surrounding context to pick one, or set replace_all: true.`,
      };
    }
    const refused = await fileWriteRefusal(ctx, absolute);
    if (refused !== null) return { isError: true, content: refused };
    await ctx.checkpoint?.({ reason: `before patch ${shown}`, paths: [absolute] });
    await writeFile(absolute, crlf ? outcome.content.replaceAll('\n', '\r\n') : outcome.content, 'utf8');
    const diff = unifiedDiff(before, outcome.content, { fromFile: `a/${shown}`, toFile: `b/${shown}` });
    const how = outcome.strategy === 'whitespace' ? ' (matched ignoring whitespace differences)' : '';
    return `Patched ${shown}: ${outcome.count} replacement${outcome.count === 1 ? '' : 's'}${how}.\n${diff}`;
  },
});
