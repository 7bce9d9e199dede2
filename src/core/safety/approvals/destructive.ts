import { readCommand } from './detector.js';

/**
 * Commands that delete or overwrite files, so the terminal tool snapshots the project first (checkpoints).
 * This is not an approval question — `rm -rf build` inside the workspace is routine and safe — but such a
 * command is exactly what a user may want to undo. It is the detector's own reading of the line (the same
 * AST walk, every redirect, `rm`, `mv`, `sed -i`, `find -delete`, a working-tree reset), so the two never
 * disagree about what a command touches. Erring towards "destructive" costs one cheap snapshot.
 */
export function isDestructive(command: string): boolean {
  return readCommand(command).mutatesFiles;
}
