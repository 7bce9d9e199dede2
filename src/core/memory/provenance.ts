/**
 * Who wrote a memory entry and how, and what that means for who may change it (issue 11). The rule is
 * enforced by MemoryStore, not by the review prompt: the agent cannot remove or replace a protected entry;
 * it can only propose that, and the proposal waits for the user in `pending_writes`.
 */

/** NULL in the store for entries written before provenance was recorded (store version 8). */
export type MemoryAuthor = 'user' | 'agent';

/**
 * How the text got in: typed in the app or the CLI (`hearth memory edit`), imported from a MEMORY.md/USER.md
 * file, an agent write the user approved (`hearth pending approve`, the app's pending list), written by the
 * agent's memory tool, or there before version 8.
 */
export type MemoryVia = 'app' | 'cli' | 'import' | 'confirmed' | 'tool' | 'legacy';

/** Who is making a write. The author of new text and the rights of the write both follow from it. */
export interface MemoryWriter {
  author: MemoryAuthor;
  via: Exclude<MemoryVia, 'legacy'>;
  /** The session whose tool made the write, kept with the agent's removals and replacements. */
  sessionId?: string;
}

/** The memory tool, in a live turn or a background review: the default, so a caller that forgets is held to the agent's rights. */
export const AGENT_WRITER: MemoryWriter = { author: 'agent', via: 'tool' };
export const USER_IN_APP: MemoryWriter = { author: 'user', via: 'app' };
export const USER_IN_CLI: MemoryWriter = { author: 'user', via: 'cli' };
export const USER_IMPORT: MemoryWriter = { author: 'user', via: 'import' };
/** An agent write the user approved: the agent's text, the user's decision. */
export const USER_CONFIRMED: MemoryWriter = { author: 'agent', via: 'confirmed' };

/** The user's own writes and writes they approved may change anything; the agent's alone may not touch protected entries. */
export function actsForUser(writer: MemoryWriter): boolean {
  return writer.author === 'user' || writer.via === 'confirmed';
}

/** Entries the user wrote or confirmed are protected from the start. */
export function protectsNewEntries(writer: MemoryWriter): boolean {
  return actsForUser(writer);
}

/** "you (in the app)", "the agent", for lists the user reads. */
export function describeProvenance(entry: { author: MemoryAuthor | null; via: MemoryVia }): string {
  if (entry.via === 'legacy') return 'saved before Hearth recorded who wrote entries';
  if (entry.via === 'confirmed') return 'the agent, confirmed by you';
  if (entry.author === 'agent') return 'the agent';
  return { app: 'you, in the app', cli: 'you, in the CLI', import: 'you, imported from a file', tool: 'you' }[entry.via];
}
