import { sandboxUser } from '../src/core/exec/docker-container-spec.js';
import { describe, expect, it } from 'vitest';
import { DockerStreamDemuxer } from '../src/core/exec/docker-demux.js';
import { MarkedStdout } from '../src/core/exec/docker-run-script.js';

/** The stream parsing under DockerBackend, fed the byte splits a socket can produce (no daemon needed). */
describe('MarkedStdout', () => {
  const marker = '__hearth_done_abc__';

  function feed(chunks: string[]): { emitted: string[]; reader: MarkedStdout } {
    const emitted: string[] = [];
    const reader = new MarkedStdout(marker, (text) => emitted.push(text));
    for (const chunk of chunks) reader.push(Buffer.from(chunk));
    return { emitted, reader };
  }

  it('strips a marker split across chunks and reads status and cwd (catches marker fragments leaking into output)', () => {
    const { emitted, reader } = feed(['hello\n__hearth_', 'done_ab', 'c__3:/tm', 'p/x\n']);
    expect(emitted.join('')).toBe('hello\n');
    expect(reader.status).toEqual({ exitCode: 3, cwd: '/tmp/x' });
  });

  it('passes on a held-back prefix that turned out not to be the marker', () => {
    const { emitted, reader } = feed(['a __hearth_', 'elsewhere\n']);
    expect(emitted.join('')).toBe('a __hearth_elsewhere\n');
    const tail = feed(['ends with __hear']);
    tail.reader.end();
    expect(tail.emitted.join('')).toBe('ends with __hear');
    expect(reader.status).toBeNull();
  });

  it('keeps output a background job writes after the status line', () => {
    const { emitted } = feed([`${marker}0:/w\nlate line\n`, 'later\n']);
    expect(emitted.join('')).toBe('late line\nlater\n');
  });

  it('does not split a multi-byte character across chunks', () => {
    const bytes = Buffer.from('naïve ✓\n');
    const emitted: string[] = [];
    const reader = new MarkedStdout(marker, (text) => emitted.push(text));
    for (const byte of bytes) reader.push(Buffer.from([byte]));
    reader.end();
    expect(emitted.join('')).toBe('naïve ✓\n');
  });
});

describe('DockerStreamDemuxer', () => {
  const frame = (type: number, text: string): Buffer => {
    const payload = Buffer.from(text);
    const header = Buffer.alloc(8);
    header[0] = type;
    header.writeUInt32BE(payload.length, 4);
    return Buffer.concat([header, payload]);
  };

  it('separates stdout and stderr frames even when cut mid-header (catches header bytes in output)', () => {
    const out: string[] = [];
    const err: string[] = [];
    const demux = new DockerStreamDemuxer((b) => out.push(b.toString()), (b) => err.push(b.toString()));
    const wire = Buffer.concat([frame(1, 'out one\n'), frame(2, 'err\n'), frame(1, 'out two\n')]);
    for (let i = 0; i < wire.length; i += 3) demux.push(wire.subarray(i, i + 3));
    expect(out.join('')).toBe('out one\nout two\n');
    expect(err.join('')).toBe('err\n');
  });
});

describe('sandbox user', () => {
  // Catches a default that runs commands as root, or as "nobody" for a desktop user whose workspace it then cannot write.
  it('is the user running Hearth, never root', () => {
    expect(sandboxUser(1000, 1000)).toBe('1000:1000');
    expect(sandboxUser(0, 0)).toBe('65534:65534');
  });
});
