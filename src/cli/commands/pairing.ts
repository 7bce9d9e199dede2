import { HearthError } from '../../core/errors.js';
import type { CliIO } from '../io.js';

// Placeholder while issue 13's `hearth pairing` is built in this file; it fails with a clear message, never silently.
export async function pairingCommand(_argv: string[], _io: CliIO): Promise<number> {
  throw new HearthError('usage', 'hearth pairing is not built yet (issue 13).');
}
