import type { AdapterState } from '../types.js';

/**
 * The Gateway close codes discord.js does not recover from (https://discord.com/developers/docs/topics/opcodes-and-status-codes#gateway-close-event-codes),
 * as the state the user sees, with what to do about it. The others (4000 unknown error, 4007 invalid seq, 4009
 * session timed out, a dropped TCP connection, …) discord.js resumes or re-identifies by itself.
 */
export function closeCodeState(code: number, badTokenReason: string): AdapterState {
  switch (code) {
    case 4004:
      return { state: 'bad_token', reason: badTokenReason };
    case 4013:
      return { state: 'failed', reason: 'Discord refused the Gateway intents (close 4013, invalid intents): this is a bug in Hearth\'s Discord adapter' };
    case 4014:
      return {
        state: 'failed',
        reason: 'Discord refused the Message Content intent (close 4014, disallowed intents): enable "Message Content Intent" under Bot → Privileged Gateway Intents in the developer portal',
      };
    case 4010:
    case 4011:
      return { state: 'failed', reason: `Discord requires sharding for this bot (close ${code}): Hearth runs one shard, enough for up to 2,500 servers` };
    case 4012:
      return { state: 'failed', reason: 'Discord refused the Gateway API version (close 4012): update Hearth' };
    default:
      return { state: 'failed', reason: `Discord closed the Gateway with ${code} and it cannot be resumed` };
  }
}
