import type { PairingOutcome } from './pairing.js';
import type { Platform } from './types.js';

/** What an unknown user is told when they DM the bot; null when they are told nothing (the gateway logs why). */
export function pairingReply(outcome: PairingOutcome, platform: Platform): string | null {
  switch (outcome.kind) {
    case 'issued':
    case 'pending': {
      const minutes = Math.max(1, Math.round((outcome.request.expiresAt - outcome.request.createdAt) / 60_000));
      return `Hi! This Hearth agent only talks to people its owner has approved. Your pairing code is ${outcome.request.code}. Ask the owner to run:\nhearth pairing approve ${platform} ${outcome.request.code}\nThe code works for ${minutes} minutes.`;
    }
    case 'already_paired':
      return null;
    case 'rate_limited':
    case 'too_many_pending':
      return null;
  }
}
