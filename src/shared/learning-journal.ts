import { z } from 'zod';

/**
 * One background learning run as the journal keeps it (core/learning/journal.ts) and every surface shows it
 * (`hearth learning log`, the app's Learning view). Defined once here so the store, the CLI and the app agree.
 *
 * Kinds: reviews are named by what was due (memory / skill / combined nudges), `flush` runs before compression
 * or a reset, `reflection` updates the user model, `curator` archives unused skills.
 */
export const LearningRunKind = z.enum(['memory_review', 'skill_review', 'combined_review', 'flush', 'reflection', 'curator']);
/**
 * `saved`: at least one write landed. `nothing`: it ran cleanly and decided nothing needed saving. `refused`: it
 * tried to write and every write was refused or errored, so nothing landed (whatever the model's last words
 * claim). `failed`: the run itself broke (model error, bad answer). `cancelled`: stopped on purpose.
 */
export const LearningRunOutcome = z.enum(['saved', 'nothing', 'failed', 'refused', 'cancelled']);
export const RefusedWrite = z.object({ tool: z.string(), reason: z.string() });

export const LearningRun = z.object({
  id: z.number().int(),
  kind: LearningRunKind,
  sessionId: z.string().nullable(),
  startedAt: z.number(),
  endedAt: z.number().nullable(),
  /** Null while the run is going, or when the process died before it ended. */
  outcome: LearningRunOutcome.nullable(),
  /** What was saved, as the user was told ("Memory updated", "Skill 'x' created"). */
  saved: z.array(z.string()),
  refused: z.array(RefusedWrite),
  error: z.string().nullable(),
  /** Kind-specific counts, e.g. a reflection's added / reinforced / superseded facts. */
  detail: z.record(z.string(), z.number()).nullable(),
});

export type LearningRunKind = z.infer<typeof LearningRunKind>;
export type LearningRunOutcome = z.infer<typeof LearningRunOutcome>;
export type RefusedWrite = z.infer<typeof RefusedWrite>;
export type LearningRun = z.infer<typeof LearningRun>;
