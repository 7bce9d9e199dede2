import { z } from 'zod';
import { defineTool } from './define.js';

const Input = z.object({
  question: z.string().min(1).describe('The question for the user.'),
  choices: z.array(z.string().min(1)).max(4).optional().describe('Up to 4 suggested answers; the user may still answer freely.'),
});

export const clarifyTool = defineTool({
  name: 'clarify',
  description: 'Ask the user a question and wait for the answer. Use only when you cannot proceed sensibly without it.',
  input: Input,
  // Waits on a human: never run alongside other calls (PARITY §1: any clarify makes the batch sequential).
  parallelSafe: false,
  async run(input, ctx) {
    const answer = await ctx.askUser({ question: input.question, ...(input.choices === undefined ? {} : { choices: input.choices }) });
    return `The user answered: ${answer}`;
  },
});
