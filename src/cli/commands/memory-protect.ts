import { HearthError } from '../../core/errors.js';
import { describeChange, quoteLine } from '../../core/memory/changes.js';
import { describeProvenance } from '../../core/memory/provenance.js';
import type { MemoryStore } from '../../core/memory/store.js';
import type { CliIO } from '../io.js';

/**
 * `hearth memory protect|unprotect|changes|undo`: the user's side of protected entries (issue 11). An
 * entry the agent may only propose changing is protected; each removal or replacement the agent made is
 * listed by name and can be undone.
 */
export const memoryProtectHelp = `  hearth memory protect <id>                           mark an entry as yours (a standing rule): the agent can only propose changing it
  hearth memory unprotect <id>                         let the agent consolidate the entry again
  hearth memory changes [--json]                       the agent's recent removals and replacements, with their undo ids
  hearth memory undo <change-id>                       put back what the agent removed or replaced`;

export type ProtectAction = 'protect' | 'unprotect' | 'changes' | 'undo';

export function memoryProtectCommand(memory: MemoryStore, action: ProtectAction, arg: string | undefined, json: boolean, io: CliIO): number {
  switch (action) {
    case 'protect':
    case 'unprotect': {
      const entry = memory.setProtected(parseId(arg, `hearth memory ${action} 3`, 'entry'), action === 'protect');
      const what = entry.protected ? 'Protected: only you can change or remove it; the agent can propose changes (hearth pending).' : 'Unprotected: the agent may consolidate it again.';
      io.out(json ? `${JSON.stringify(entry)}\n` : `#${entry.id} '${quoteLine(entry.content)}' (written by ${describeProvenance(entry)})\n${what}\n`);
      return 0;
    }
    case 'changes': {
      const changes = memory.changes();
      if (json) io.out(`${JSON.stringify(changes)}\n`);
      else if (changes.length === 0) io.out('The agent has not removed or replaced any memory entry.\n');
      else
        io.out(
          `${changes
            .map((c) => `#${c.id}  ${new Date(c.createdAt).toISOString().slice(0, 16).replace('T', ' ')}  ${describeChange(c)}${c.undoneAt === null ? '' : '  (undone)'}`)
            .join('\n')}\nUndo one with: hearth memory undo <id>\n`,
        );
      return 0;
    }
    case 'undo': {
      const { change, entry } = memory.undo(parseId(arg, 'hearth memory undo 3', 'change'));
      io.out(json ? `${JSON.stringify({ change, entry })}\n` : `Undone #${change.id}: '${quoteLine(entry.content)}' is back in ${entry.target === 'user' ? 'the user profile' : 'memory'}, protected (entry #${entry.id}).\n`);
      return 0;
    }
  }
}

function parseId(text: string | undefined, example: string, what: 'entry' | 'change'): number {
  const id = Number(text);
  if (text === undefined || !Number.isInteger(id) || id <= 0) {
    const where = what === 'entry' ? '`hearth memory show` lists entry ids' : '`hearth memory changes` lists change ids';
    throw new HearthError('usage', `Give the id of a memory ${what}, e.g. ${example} (got "${text ?? ''}"); ${where}.`);
  }
  return id;
}
