import { HearthError } from '../../core/errors.js';
import { applyStagedWrite } from '../../core/learning/apply-staged.js';
import { memoryBudget } from '../../core/memory/budget.js';
import { parseCommandArgs } from '../args.js';
import type { CliIO } from '../io.js';
import { withCliStore } from '../services.js';

export const pendingHelp = `Usage:
  hearth pending list [--json]        memory and skill writes waiting for your approval
  hearth pending approve <id>         apply one (the same checks run again)
  hearth pending reject <id>          discard one
Writes are staged instead of applied when memory.write_approval or skills.write_approval is true, and always
when the agent asks to change or remove a protected memory entry (one you wrote, approved or marked: hearth memory protect).`;

export async function pendingCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('pending', argv, { json: { type: 'boolean' } });
  if (values.help) {
    io.out(`${pendingHelp}\n`);
    return 0;
  }
  const [action, idText] = positionals;
  // The store-only composition: staged writes are applied without starting a model.
  return withCliStore(io, async (services) => {
    const { pending } = services;
    switch (action) {
      case 'list': {
        const writes = pending.list();
        if (values.json) io.out(`${JSON.stringify(writes)}\n`);
        else io.out(writes.length ? writes.map((w) => `#${w.id}  ${new Date(w.createdAt).toISOString().slice(0, 16).replace('T', ' ')}  ${w.kind.padEnd(6)} ${w.summary}`).join('\n') + '\n' : 'Nothing is waiting for approval.\n');
        return 0;
      }
      case 'approve': {
        const id = parseId(idText);
        // The CLI does not know the session's model, so the configured (unscaled) memory budget applies.
        const limits = memoryBudget(services.config.current().memory);
        const skills = await services.skills();
        let message = '';
        await pending.approve(id, async (write) => {
          message = await applyStagedWrite(write, { memory: services.memory(limits), limits, skills, home: services.home, facts: services.facts });
        });
        io.out(`${message}\n`);
        return 0;
      }
      case 'reject': {
        const write = pending.reject(parseId(idText));
        io.out(`Rejected #${write.id}: ${write.summary}\n`);
        return 0;
      }
      default:
        throw new HearthError('usage', `Unknown pending action "${action ?? ''}".\n${pendingHelp}`);
    }
  });
}

function parseId(text: string | undefined): number {
  const id = Number(text);
  if (text === undefined || !Number.isInteger(id) || id <= 0) throw new HearthError('usage', `Give the id of a staged write, e.g. hearth pending approve 3 (got "${text ?? ''}").`);
  return id;
}
