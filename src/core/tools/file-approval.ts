import { realpath } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { refusalReason } from '../safety/approvals/refusal.js';
import type { ToolContext } from './define.js';

/**
 * File tools pass the same approval policy as shell commands: writing `~/.ssh/authorized_keys`, `/etc/hosts`,
 * a shell rc file or Hearth's own config.yaml asks the user, exactly as `echo … > that-file` would. The path
 * judged is where the write really lands, so a symlink in the workspace cannot smuggle a write elsewhere.
 * Returns an error message for the model when the write may not happen, or null when it may.
 */
export async function fileWriteRefusal(ctx: ToolContext, absolute: string): Promise<string | null> {
  const target = await realTarget(absolute);
  const outcome = await ctx.approvals.check(ctx.sessionId, target, ctx.signal, { kind: 'file_write', ...(ctx.origin === undefined ? {} : { origin: ctx.origin }) });
  if (outcome.approved) return null;
  return `Not written: writing ${target} ${refusalReason(outcome)}. Write somewhere inside the workspace, or ask the user.`;
}

/** The path a write to `absolute` reaches: symlinks in the file or its existing ancestors resolved. */
async function realTarget(absolute: string): Promise<string> {
  let existing = absolute;
  const rest: string[] = [];
  for (;;) {
    try {
      return join(await realpath(existing), ...rest);
    } catch (err) {
      // Not there yet (a new file or folder): resolve the nearest ancestor that exists.
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw err;
      const parent = dirname(existing);
      if (parent === existing) return absolute;
      rest.unshift(basename(existing));
      existing = parent;
    }
  }
}
