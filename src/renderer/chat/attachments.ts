import type { Attachment } from '../../shared/contract.js';
import type { z } from 'zod';

export const MAX_ATTACHMENT_BYTES = 1024 * 1024;

export type AttachmentResult =
  | { ok: true; attachment: z.infer<typeof Attachment> }
  | { ok: false; name: string; reason: 'too_large' | 'binary' };

/**
 * A dropped file as a text attachment. Binary files are refused, not mangled: a NUL byte or bytes that are not
 * UTF-8 would reach the model as garbage and waste its context.
 */
export function decodeTextFile(name: string, bytes: Uint8Array): AttachmentResult {
  if (bytes.byteLength > MAX_ATTACHMENT_BYTES) return { ok: false, name, reason: 'too_large' };
  if (bytes.subarray(0, 8192).includes(0)) return { ok: false, name, reason: 'binary' };
  try {
    return { ok: true, attachment: { name, content: new TextDecoder('utf-8', { fatal: true }).decode(bytes) } };
  } catch {
    return { ok: false, name, reason: 'binary' }; // the fatal decoder throws exactly on non-UTF-8 input
  }
}

export async function readAttachment(file: File): Promise<AttachmentResult> {
  // Check the size before reading, so a dropped 4 GB video is refused without loading it.
  if (file.size > MAX_ATTACHMENT_BYTES) return { ok: false, name: file.name, reason: 'too_large' };
  return decodeTextFile(file.name, new Uint8Array(await file.arrayBuffer()));
}
