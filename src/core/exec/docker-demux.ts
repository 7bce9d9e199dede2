/**
 * Splits Docker's multiplexed attach stream (used when the exec has no TTY) into stdout and stderr.
 * Each frame is an 8-byte header — stream type (1 stdout, 2 stderr), three zero bytes, payload length
 * as a big-endian uint32 — then the payload. Frames arrive cut at arbitrary points, so bytes are buffered.
 */
export class DockerStreamDemuxer {
  private buffered: Buffer = Buffer.alloc(0);

  constructor(
    private readonly onStdout: (chunk: Buffer) => void,
    private readonly onStderr: (chunk: Buffer) => void,
  ) {}

  push(data: Buffer): void {
    this.buffered = this.buffered.length === 0 ? data : Buffer.concat([this.buffered, data]);
    while (this.buffered.length >= 8) {
      const type = this.buffered[0];
      const size = this.buffered.readUInt32BE(4);
      if (this.buffered.length < 8 + size) return;
      const payload = this.buffered.subarray(8, 8 + size);
      this.buffered = this.buffered.subarray(8 + size);
      // Type 0 (stdin echo) never carries output for us; anything else that is not stderr is stdout.
      if (type === 2) this.onStderr(payload);
      else if (type !== 0) this.onStdout(payload);
    }
  }
}
