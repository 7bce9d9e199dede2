/**
 * Ctrl+C during a turn: the first press interrupts the turn, a second within 2 s exits the process
 * (as Hermes Agent does), so a stuck tool can always be escaped.
 */
export function onInterrupt(interrupt: () => void, now: () => number = Date.now): () => void {
  let last = 0;
  const handler = () => {
    const t = now();
    if (t - last < 2000) process.exit(130);
    last = t;
    interrupt();
  };
  process.on('SIGINT', handler);
  return () => process.off('SIGINT', handler);
}
