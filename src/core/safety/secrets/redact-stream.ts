import type { Redactor } from './redact.js';

/** Live output redacted chunk by chunk: what `push` returns is safe to show at once. */
export interface StreamRedactor {
  /** Takes the next chunk; returns the redacted text that can no longer be part of a secret still arriving. */
  push(chunk: string): string;
  /** The end of the stream: returns the redacted rest. */
  flush(): string;
}

export interface StreamRedactorOptions {
  /** Characters always held back, so a key cut across two chunks is never shown in halves. */
  tail?: number;
  /** Most characters held while waiting for a secret to end (a private key block); beyond it the text is let go, redacted. */
  maxHeld?: number;
}

const DEFAULT_TAIL = 256;
const DEFAULT_MAX_HELD = 64 * 1024;
const PRIVATE_KEY_BEGIN = /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/g;
const PRIVATE_KEY_END = /-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/;
/** Enough to recognise an END line that arrives split: `-----END ENCRYPTED PRIVATE KEY BLOCK-----` and then some. */
const END_MARKER_TAIL = 64;

/**
 * Terminal output arrives in arbitrary chunks, so a key can be split across two of them. The stream holds
 * back a bounded tail (at least `tail` characters, and at least the longest known secret), and never cuts
 * inside a secret it can already see: the cut moves back to that secret's start, so it is emitted whole
 * (and redacted) once it has fully arrived. A private key block is held until its END line; one longer
 * than `maxHeld` is let go as a placeholder and the rest of its body is dropped until the END line.
 */
export function createStreamRedactor(redactor: Redactor, options: StreamRedactorOptions = {}): StreamRedactor {
  const tail = options.tail ?? DEFAULT_TAIL;
  const maxHeld = options.maxHeld ?? DEFAULT_MAX_HELD;
  let pending = '';
  let insidePrivateKey = false;

  /** Drops the body of a private key block already replaced by its placeholder; false while its END has not arrived. */
  function skipPrivateKeyBody(): boolean {
    const end = PRIVATE_KEY_END.exec(pending);
    if (end === null) {
      pending = pending.slice(-END_MARKER_TAIL);
      return false;
    }
    pending = pending.slice(end.index + end[0].length);
    insidePrivateKey = false;
    return true;
  }

  function safeCut(): number {
    let cut = pending.length - Math.max(tail, redactor.longestKnownSecret);
    if (cut <= 0) return 0;
    const spans = redactor.spans(pending);
    // Moving the cut back can land it inside another (overlapping) secret, so repeat until nothing straddles it.
    for (let moved = true; moved && cut > 0; ) {
      moved = false;
      for (const span of spans) {
        if (span.start < cut && span.end > cut) {
          cut = span.start;
          moved = true;
        }
      }
    }
    return cut;
  }

  return {
    push(chunk) {
      pending += chunk;
      if (insidePrivateKey && !skipPrivateKeyBody()) return '';
      let cut = safeCut();
      if (pending.length - cut > maxHeld) {
        cut = pending.length;
        insidePrivateKey = endsInsidePrivateKey(pending);
      }
      if (cut === 0) return '';
      const ready = pending.slice(0, cut);
      pending = pending.slice(cut);
      const redacted = redactor.redact(ready);
      if (insidePrivateKey) skipPrivateKeyBody();
      return redacted;
    },
    flush() {
      const rest = insidePrivateKey ? '' : pending;
      pending = '';
      insidePrivateKey = false;
      return redactor.redact(rest);
    },
  };
}

function endsInsidePrivateKey(text: string): boolean {
  let lastBegin = -1;
  for (const match of text.matchAll(PRIVATE_KEY_BEGIN)) lastBegin = match.index;
  return lastBegin >= 0 && !PRIVATE_KEY_END.test(text.slice(lastBegin));
}
