import { LogLevel, type Logger } from '@slack/bolt';

/**
 * What the Slack adapter logs: Bolt's and the Socket Mode client's warnings and errors become the gateway's log
 * lines, and every line is stripped of the adapter's secrets first.
 */

/** The text with each secret and any Socket Mode ticket (the WebSocket URL's one-time credential) replaced. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text.replace(/ticket=[^&\s"']+/g, 'ticket=[redacted]');
  for (const secret of secrets) out = out.split(secret).join('[redacted]');
  return out;
}

/** Debug and info (which can hold request bodies) are dropped. */
export function boltLogger(warn: (message: string) => void): Logger {
  let level = LogLevel.WARN;
  const line = (parts: unknown[]): string => parts.map((p) => (p instanceof Error ? p.message : typeof p === 'string' ? p : JSON.stringify(p))).join(' ');
  return {
    debug: () => {},
    info: () => {},
    warn: (...parts: unknown[]) => warn(`slack: ${line(parts)}`),
    error: (...parts: unknown[]) => warn(`slack: ${line(parts)}`),
    setLevel: (next: LogLevel) => { level = next; },
    getLevel: () => level,
    setName: () => {},
  };
}
