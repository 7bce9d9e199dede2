import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSlackAdapter, type SlackAdapter } from '../src/core/gateway/platforms/slack.js';
import { recorder, type Recorder } from './fixtures/slack-adapter-harness.js';
import { slackSignature, startFakeSlack, type FakeSlack } from './fixtures/slack-server.js';

/**
 * The Slack adapter in Events API mode: Bolt's HTTPReceiver on 127.0.0.1, requests signed as Slack signs them
 * (HMAC-SHA256 of `v0:<timestamp>:<body>` with the app's signing secret); the Web API is the local Slack.
 */
const BOT_TOKEN = 'xoxb-2-hearth-test';
const SECRET = 'signing-secret-for-tests';

let slack: FakeSlack;
let adapter: SlackAdapter;
let rec: Recorder;

beforeEach(async () => {
  slack = await startFakeSlack({ botToken: BOT_TOKEN, appToken: 'xapp-unused' });
  rec = recorder();
  adapter = createSlackAdapter({ mode: 'events', botToken: BOT_TOKEN, signingSecret: SECRET, apiUrl: slack.apiUrl, events: { port: 0, path: '/slack/events' } }, rec.ctx);
  await adapter.connect(rec);
});

afterEach(async () => {
  await adapter.disconnect();
  await slack.close();
});

function post(body: string, headers: Record<string, string>): Promise<Response> {
  return fetch(adapter.eventsUrl as string, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
}

function dm(text: string): Record<string, unknown> {
  return { type: 'message', channel: 'D0DM1', channel_type: 'im', user: 'U0ADA', text, ts: slack.nextTs(), event_ts: '0' };
}

describe('slack adapter: Events API', () => {
  it('listens on loopback once the bot token checks out and reports connected', () => {
    expect(adapter.eventsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/slack\/events$/);
    expect(rec.states.map((s) => s.state)).toEqual(['connecting', 'connected']);
  });

  it('accepts a correctly signed event and hands it on; a retried delivery (X-Slack-Retry-Num) is the same message', async () => {
    const event = dm('over http');
    const body = JSON.stringify(slack.eventCallback(event));
    const res = await post(body, slackSignature(SECRET, body));
    expect(res.status).toBe(200);
    await rec.until(() => rec.messages.length === 1, 'the event');
    expect(rec.messages[0]).toMatchObject({ messageId: `D0DM1:${event.ts as string}`, chat: { id: 'D0DM1', type: 'dm' }, text: 'over http' });
    const retry = await post(body, { ...slackSignature(SECRET, body), 'x-slack-retry-num': '1', 'x-slack-retry-reason': 'http_timeout' });
    expect(retry.status).toBe(200);
    const next = JSON.stringify(slack.eventCallback(dm('next')));
    await post(next, slackSignature(SECRET, next));
    await rec.until(() => rec.messages.length === 2, 'the next event');
    expect(rec.messages.map((m) => m.text)).toEqual(['over http', 'next']);
  });

  it('rejects a bad signature, a stale timestamp and an unsigned request with 401, handing nothing on', async () => {
    const body = JSON.stringify(slack.eventCallback(dm('forged')));
    expect((await post(body, slackSignature('not-the-secret', body))).status).toBe(401);
    expect((await post(body, slackSignature(SECRET, body, Math.floor(Date.now() / 1000) - 600))).status).toBe(401);
    expect((await post(body, {})).status).toBe(401);
    const tampered = body.replace('forged', 'tampered');
    expect((await post(tampered, slackSignature(SECRET, body))).status).toBe(401);
    const good = JSON.stringify(slack.eventCallback(dm('genuine')));
    await post(good, slackSignature(SECRET, good));
    await rec.until(() => rec.messages.length === 1, 'the genuine event');
    expect(rec.messages.map((m) => m.text)).toEqual(['genuine']);
  });

  it('answers the url_verification challenge', async () => {
    const body = JSON.stringify({ token: 'legacy', challenge: 'c-3po-r2d2', type: 'url_verification' });
    const res = await post(body, slackSignature(SECRET, body));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ challenge: 'c-3po-r2d2' });
  });

  it('takes a button press (form-encoded payload) and acknowledges it', async () => {
    const ts = slack.nextTs();
    const payload = {
      type: 'block_actions', user: { id: 'U0ADA', username: 'ada' }, team: { id: 'T0HEARTH' }, api_app_id: 'A0HEARTH',
      container: { type: 'message', message_ts: ts, channel_id: 'D0DM1' }, channel: { id: 'D0DM1' }, message: { ts, text: 'Approve?' },
      actions: [{ action_id: 'deny:a9', type: 'button', value: 'deny:a9', action_ts: ts }],
    };
    const body = `payload=${encodeURIComponent(JSON.stringify(payload))}`;
    const res = await fetch(adapter.eventsUrl as string, { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded', ...slackSignature(SECRET, body) } });
    expect(res.status).toBe(200);
    await rec.until(() => rec.actions.length === 1, 'the press');
    expect(rec.actions[0]).toEqual({ platform: 'slack', chat: { id: 'D0DM1', type: 'dm' }, user: { id: 'U0ADA', name: 'ada' }, actionId: 'deny:a9', messageId: `D0DM1:${ts}` });
  });

  it('stops listening on disconnect', async () => {
    const url = adapter.eventsUrl as string;
    await adapter.disconnect();
    expect(rec.states.at(-1)).toEqual({ state: 'stopped' });
    await expect(fetch(url, { method: 'POST', body: '{}' })).rejects.toThrow();
  });
});
