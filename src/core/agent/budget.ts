/**
 * The iteration budget of one turn: how many model calls it may make before it must wrap up. When it
 * runs out the loop makes exactly one more "grace" call with tools disabled, asking for a summary
 * (PARITY §1). There are deliberately no 70%/90% warnings: Hermes removed them because models quit early.
 */
export const DEFAULT_MAX_ITERATIONS = 90;

export const BUDGET_EXHAUSTED_REQUEST =
  'You have reached the limit of steps for this turn, so tools are now disabled. Reply to the user with a summary: ' +
  'what you did, what you found, what is left to do, and how to continue.';

export class IterationBudget {
  private used = 0;

  constructor(readonly max: number) {}

  /** Counts one model call; false when the budget was already spent (the next call is the grace call). */
  consume(): boolean {
    if (this.used >= this.max) return false;
    this.used += 1;
    return true;
  }

  get callsMade(): number {
    return this.used;
  }
}
