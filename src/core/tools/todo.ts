import { z } from 'zod';
import { defineTool, type ToolContext } from './define.js';

const Status = z.enum(['pending', 'in_progress', 'completed', 'cancelled']);

const Item = z.object({
  id: z.string().min(1),
  content: z.string().optional().describe('What to do (required for new items).'),
  status: Status.optional().describe('pending | in_progress | completed | cancelled (new items default to pending).'),
});

const Input = z.object({
  todos: z.array(Item).optional().describe('Items to write. Omit to just read the list.'),
  merge: z.boolean().optional().describe('true: update items by id and add new ones. false (default): replace the whole list.'),
});

interface Todo {
  id: string;
  content: string;
  status: z.infer<typeof Status>;
}

const MARK: Record<Todo['status'], string> = { pending: '[ ]', in_progress: '[>]', completed: '[x]', cancelled: '[-]' };

export const todoTool = defineTool({
  name: 'todo',
  description: 'Keep a task list for this session: plan multi-step work, mark items in_progress/completed as you go. Returns the whole list.',
  input: Input,
  parallelSafe: false,
  async run(input, ctx) {
    const current = todoList(ctx);
    if (input.todos !== undefined) {
      const next = input.merge === true ? [...current] : [];
      for (const item of input.todos) {
        const index = next.findIndex((t) => t.id === item.id);
        const existing = index === -1 ? undefined : next[index];
        const content = item.content ?? existing?.content;
        if (content === undefined) return { isError: true, content: `Todo "${item.id}" is new, so it needs a content.` };
        const updated: Todo = { id: item.id, content, status: item.status ?? existing?.status ?? 'pending' };
        if (index === -1) next.push(updated);
        else next[index] = updated;
      }
      ctx.state.set('todo', next);
      return render(next);
    }
    return render(current);
  },
});

function todoList(ctx: Pick<ToolContext, 'state'>): Todo[] {
  return (ctx.state.get('todo') as Todo[] | undefined) ?? [];
}

function render(list: Todo[]): string {
  if (list.length === 0) return 'The todo list is empty.';
  const done = list.filter((t) => t.status === 'completed').length;
  return [...list.map((t) => `${MARK[t.status]} ${t.id}. ${t.content}`), `(${done}/${list.length} completed)`].join('\n');
}
