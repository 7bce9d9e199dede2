/**
 * Download speed over a moving window, and the ETA it implies. A window (rather than bytes / elapsed)
 * lets the speed recover after a stall or a resume, and keeps it from jumping with every chunk.
 */
export class TransferRate {
  private samples: Array<{ at: number; bytes: number }> = [];

  constructor(
    private readonly windowMs = 3000,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Record the running byte count. `reset()` first when the count restarts (a resume, a restart from 0). */
  record(totalBytes: number): void {
    const at = this.now();
    this.samples.push({ at, bytes: totalBytes });
    // Keep one sample older than the window so the rate always spans the whole window.
    while (this.samples.length > 2 && (this.samples[1] as { at: number }).at <= at - this.windowMs) this.samples.shift();
  }

  reset(): void {
    this.samples = [];
  }

  bytesPerSecond(): number {
    const first = this.samples[0];
    const last = this.samples.at(-1);
    if (!first || !last || last.at - first.at < 50) return 0;
    return Math.max(0, ((last.bytes - first.bytes) * 1000) / (last.at - first.at));
  }

  /** Seconds left at the current speed; null when the total is unknown or nothing is moving. */
  etaSeconds(receivedBytes: number, totalBytes: number | null): number | null {
    const speed = this.bytesPerSecond();
    if (totalBytes === null || speed <= 0) return null;
    return Math.max(0, Math.ceil((totalBytes - receivedBytes) / speed));
  }
}
