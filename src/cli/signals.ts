/** What the first Ctrl+C says: without it, a user cannot know that a second press ends the program. */
export const INTERRUPT_NOTICE = '(interrupting; press Ctrl+C again within 2 s to exit)';
export const EXIT_NOTICE = '(press Ctrl+C again within 2 s to exit)';

/**
 * Ctrl+C during a turn: the first press interrupts the turn, a second within 2 s exits the process
 * (as Hermes Agent does), so a stuck tool can always be escaped.
 */
export function onInterrupt(interrupt: () => void, now: () => number = Date.now, say: (notice: string) => void = (n) => process.stderr.write(`\n${n}\n`)): () => void {
  let last = 0;
  const handler = () => {
    const t = now();
    if (t - last < 2000) process.exit(130);
    last = t;
    interrupt();
    say(INTERRUPT_NOTICE);
  };
  process.on('SIGINT', handler);
  return () => process.off('SIGINT', handler);
}
