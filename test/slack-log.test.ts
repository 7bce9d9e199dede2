import { describe, expect, it } from 'vitest';
import { boltLogger, redact } from '../src/core/gateway/platforms/slack-log.js';

/** Slack's log lines reach the gateway's log and `hearth gateway status`: no token, secret or Socket Mode ticket may ride along. */
describe('slack log lines', () => {
  it('removes every secret and the WebSocket ticket', () => {
    const line = 'auth with xoxb-1-abc failed; app xapp-9-zz; url wss://wss.slack.com/link/?ticket=5f0c-77&app_id=A1 ; xoxb-1-abc again';
    expect(redact(line, ['xoxb-1-abc', 'xapp-9-zz'])).toBe('auth with [redacted] failed; app [redacted]; url wss://wss.slack.com/link/?ticket=[redacted]&app_id=A1 ; [redacted] again');
  });

  it('passes Bolt\'s warnings and errors on and drops debug and info', () => {
    const lines: string[] = [];
    const logger = boltLogger((m) => lines.push(m));
    logger.debug('body {"token":"x"}');
    logger.info('connected');
    logger.warn('slow ack', { envelope: 1 });
    logger.error(new Error('socket closed'));
    expect(lines).toEqual(['slack: slow ack {"envelope":1}', 'slack: socket closed']);
  });
});
