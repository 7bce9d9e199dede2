import { HearthError } from '../../core/errors.js';
import { PairingStore } from '../../core/gateway/pairing.js';
import { Platform } from '../../core/gateway/types.js';
import { openStore } from '../../core/store/open-store.js';
import { resolveHome } from '../../core/config/home.js';
import { parseCommandArgs } from '../args.js';
import type { CliIO } from '../io.js';

export const pairingHelp = `Usage:
  hearth pairing list [--json]                  pending pairing codes and paired users
  hearth pairing approve <platform> <code>      let the user who got this code talk to the agent
  hearth pairing revoke <platform> <user_id>    take a paired user's access away
  hearth pairing clear-pending                  drop every pending code
Platforms: telegram, discord, slack, whatsapp, signal.`;

/** Who may DM the bot (PARITY §10): the owner's side of DM pairing, on the encrypted store. */
export async function pairingCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('pairing', argv, { json: { type: 'boolean' } });
  if (values.help) {
    io.out(`${pairingHelp}\n`);
    return 0;
  }
  const [action, first, second] = positionals;
  const json = values.json === true;
  const store = openStore(resolveHome(io.env), { env: io.env });
  try {
    const pairing = new PairingStore(store.db);
    switch (action) {
      case 'list': {
        const pending = pairing.pending();
        const paired = pairing.paired();
        const locked = Platform.options.flatMap((platform) => {
          const until = pairing.lockedUntil(platform);
          return until === null ? [] : [{ platform, until }];
        });
        if (json) {
          io.out(`${JSON.stringify({ pending, paired, locked })}\n`);
          return 0;
        }
        const lines = [
          pending.length === 0 ? 'No pending pairing requests.' : 'Pending (approve with `hearth pairing approve <platform> <code>`):',
          ...pending.map((r) => `  ${r.platform.padEnd(9)} ${r.code}  ${r.userName ?? ''} (${r.userId})  expires ${new Date(r.expiresAt).toISOString()}`),
          paired.length === 0 ? 'No paired users.' : 'Paired:',
          ...paired.map((u) => `  ${u.platform.padEnd(9)} ${u.userId}  ${u.userName ?? ''}  since ${new Date(u.approvedAt).toISOString()}`),
          ...locked.map((l) => `Approvals for ${l.platform} are locked until ${new Date(l.until).toISOString()} (too many failed attempts).`),
        ];
        io.out(`${lines.join('\n')}\n`);
        return 0;
      }
      case 'approve': {
        const user = pairing.approve(platformArg(first, 'approve'), required(second, 'hearth pairing approve needs the code the user was sent, e.g. hearth pairing approve telegram K7QX2MPA'));
        if (json) io.out(`${JSON.stringify(user)}\n`);
        else io.out(`Paired ${user.platform} user ${user.userName ?? ''} (${user.userId}): they can now talk to the agent.\n`);
        return 0;
      }
      case 'revoke': {
        const platform = platformArg(first, 'revoke');
        const userId = required(second, 'hearth pairing revoke needs the user id (see `hearth pairing list`)');
        const revoked = pairing.revoke(platform, userId);
        if (!revoked) throw new HearthError('usage', `${platform} user ${userId} is not paired (\`hearth pairing list\` shows who is). Users in gateway.${platform}.allowed_users are removed in config.yaml.`);
        if (json) io.out(`${JSON.stringify({ revoked: true, platform, userId })}\n`);
        else io.out(`Revoked ${platform} user ${userId}.\n`);
        return 0;
      }
      case 'clear-pending': {
        const cleared = pairing.clearPending();
        if (json) io.out(`${JSON.stringify({ cleared })}\n`);
        else io.out(`Cleared ${cleared} pending pairing request${cleared === 1 ? '' : 's'}.\n`);
        return 0;
      }
      default:
        throw new HearthError('usage', `Unknown pairing action "${action ?? ''}".\n${pairingHelp}`);
    }
  } finally {
    store.close();
  }
}

function platformArg(value: string | undefined, action: string): Platform {
  const parsed = Platform.safeParse(value);
  if (!parsed.success) throw new HearthError('usage', `hearth pairing ${action} needs a platform first: one of ${Platform.options.join(', ')}${value === undefined ? '' : ` (got "${value}")`}.`);
  return parsed.data;
}

function required(value: string | undefined, message: string): string {
  if (value === undefined || value.trim() === '') throw new HearthError('usage', message);
  return value;
}
