import { afterEach, describe, expect, it } from 'vitest';
import {
  alice, aliceDm, connectAdapter, memoryCursor, startFakeTelegram, waitFor, type AdapterRun, type FakeTelegram,
} from './fixtures/telegram-bot-api-server.js';

/**
 * The Telegram adapter's connection life against a Bot API server on 127.0.0.1: states reported to the app, a
 * refused token that stops retrying, a server that goes away and comes back, 429 `retry_after`, and the update
 * offset kept in the cursor store so that a restart neither loses nor repeats an update. Catches an offset stored
 * before the gateway took the update, a long poll left hanging after disconnect, and a retry loop that hammers.
 */
let fake: FakeTelegram;
const runs: AdapterRun[] = [];

afterEach(async () => {
  for (const r of runs.splice(0)) await r.adapter.disconnect();
  await fake?.close();
});

async function start(options: Parameters<typeof connectAdapter>[1] = {}): Promise<AdapterRun> {
  const r = await connectAdapter(fake, options);
  runs.push(r);
  return r;
}

describe('Telegram connection', () => {
  it('reports bad_token for a refused token and stops calling', async () => {
    fake = await startFakeTelegram();
    const r = await start({ token: '999:wrong' });
    expect(r.lastState()).toEqual({ state: 'bad_token', reason: 'getMe: 401 Unauthorized' });
    await new Promise((res) => setTimeout(res, 300));
    expect(fake.calls.map((c) => c.method)).toEqual(['getMe']);
    expect(JSON.stringify(r.states)).not.toContain('999:wrong');
  });

  it('goes retrying with growing attempts while the server is down, then connected again, and receives', async () => {
    fake = await startFakeTelegram();
    const r = await start();
    await fake.down();
    await waitFor(() => r.states.filter((s) => s.state === 'retrying').length >= 3, 'three retries');
    const retries = r.states.filter((s) => s.state === 'retrying');
    expect(retries.map((s) => s.attempt).slice(0, 3)).toEqual([1, 2, 3]);
    expect(retries[0]?.reason).toMatch(/^network: /);
    for (const s of retries) expect(s.nextRetryAt).toBeGreaterThan(Date.now() - 1000);
    const before = r.states.length;
    await fake.up();
    await waitFor(() => r.states.slice(before).some((s) => s.state === 'connected'), 'connected again');
    expect(r.lastState()).toMatchObject({ state: 'connected', account: 'hearth_test_bot' });
    fake.pushMessage(aliceDm, alice, 'back online');
    await waitFor(() => r.messages[0], 'the message after reconnecting');
  });

  it('keeps retrying getMe while the server is unreachable at start, and connect resolves once it answers', async () => {
    fake = await startFakeTelegram();
    await fake.down();
    const pending = start();
    await new Promise((res) => setTimeout(res, 150));
    await fake.up();
    const r = await pending;
    expect(r.states[0]).toEqual({ state: 'connecting' });
    expect(r.states.some((s) => s.state === 'retrying')).toBe(true);
    expect(r.lastState()).toMatchObject({ state: 'connected' });
  });

  it('waits out a 429 retry_after before polling again', async () => {
    fake = await startFakeTelegram();
    const r = await start();
    fake.failNext('getUpdates', { error_code: 429, description: 'Too Many Requests: retry after 1', parameters: { retry_after: 1 } });
    fake.pushMessage(aliceDm, alice, 'first');
    await waitFor(() => r.states.find((s) => s.state === 'retrying'), 'retrying');
    const retrying = r.states.find((s) => s.state === 'retrying');
    expect(retrying).toMatchObject({ attempt: 1, reason: expect.stringMatching(/^rate limited/) as unknown });
    fake.pushMessage(aliceDm, alice, 'second');
    await waitFor(() => r.messages.length >= 2, 'second message');
    const polls = fake.callsTo('getUpdates');
    // Some poll was answered 429; the one after it came no sooner than retry_after, not after the 20 ms backoff.
    const gaps = polls.slice(1).map((c, i) => c.at - polls[i]!.at);
    expect(gaps.some((g) => g >= 990)).toBe(true);
    expect(r.lastState()).toMatchObject({ state: 'connected' });
  });

  it('survives a restart on the same cursor store: the next update only, none lost, none repeated', async () => {
    fake = await startFakeTelegram();
    const cursor = memoryCursor();
    const first = await start({ cursor });
    const m1 = fake.pushMessage(aliceDm, alice, 'one');
    await waitFor(() => first.messages[0], 'one');
    await first.adapter.disconnect();
    // Nothing of the first run keeps polling: a second poller would take the updates or cause 409s. (A poll
    // aborted on the way may still reach the server just after; it is closed at once.)
    await new Promise((res) => setTimeout(res, 100));
    expect(fake.openPolls()).toBe(0);
    const pollsAfterStop = fake.callsTo('getUpdates').length;
    await new Promise((res) => setTimeout(res, 200));
    expect(fake.callsTo('getUpdates').length).toBe(pollsAfterStop);
    const m2 = fake.pushMessage(aliceDm, alice, 'two');
    const second = await start({ cursor });
    await waitFor(() => second.messages[0], 'two');
    await new Promise((res) => setTimeout(res, 200));
    expect(second.messages.map((m) => m.text)).toEqual(['two']);
    // The second run asked from the stored offset, past update one, and has confirmed two.
    expect(fake.callsTo('getUpdates')[pollsAfterStop]?.params.offset).toBe(m1.updateId + 1);
    expect(fake.callsTo('getUpdates').at(-1)?.params.offset).toBe(m2.updateId + 1);
    expect(fake.conflicts).toBe(0);
  });

  it('stores the offset only after onMessage resolved: a failed handler gets the update again', async () => {
    fake = await startFakeTelegram();
    let calls = 0;
    const seen: string[] = [];
    const r = await start({
      onMessage: async (e) => {
        calls += 1;
        seen.push(e.text);
        if (calls === 1) {
          // The failure happens before the gateway took it: the cursor must still point at this update.
          expect(r.cursor.get('update_offset')).toBeUndefined();
          throw new Error('inbox write failed');
        }
      },
    });
    const m = fake.pushMessage(aliceDm, alice, 'retry me');
    await waitFor(() => calls >= 2, 'the second attempt');
    expect(seen).toEqual(['retry me', 'retry me']);
    expect(r.warnings.some((w) => w.includes(`handling update ${m.updateId} failed (attempt 1 of 5)`) && w.includes('inbox write failed'))).toBe(true);
    await waitFor(() => JSON.parse(r.cursor.get('update_offset') ?? '{"offset":0}').offset === m.updateId + 1, 'the offset past it');
  });

  it('gives up on an update whose handler always fails, with a warning, and goes on with the next', async () => {
    fake = await startFakeTelegram();
    const r = await start({
      maxHandlerAttempts: 3,
      onMessage: async (e) => {
        if (e.text === 'poison') throw new Error('boom');
        r.messages.push(e);
      },
    });
    const poison = fake.pushMessage(aliceDm, alice, 'poison');
    fake.pushMessage(aliceDm, alice, 'fine');
    await waitFor(() => r.messages[0], 'the next message');
    expect(r.messages.map((m) => m.text)).toEqual(['fine']);
    expect(r.warnings.filter((w) => w.includes(`update ${poison.updateId}`))).toHaveLength(3);
    expect(r.warnings.some((w) => w.includes(`gave up on update ${poison.updateId} after 3 failed attempt(s): boom`))).toBe(true);
  });

  it('does not use an offset older than a day (Telegram dropped those updates and may have restarted its ids)', async () => {
    fake = await startFakeTelegram();
    const cursor = memoryCursor({ update_offset: JSON.stringify({ offset: 10_000_000, at: Date.now() - 25 * 3600_000 }) });
    fake.pushMessage(aliceDm, alice, 'new after a long pause');
    const r = await start({ cursor });
    await waitFor(() => r.messages[0], 'the message');
    expect(fake.callsTo('getUpdates')[0]?.params.offset).toBeUndefined();
  });

  it('warns about an unreadable stored offset and starts from what Telegram holds', async () => {
    fake = await startFakeTelegram();
    fake.pushMessage(aliceDm, alice, 'hi');
    const r = await start({ cursor: memoryCursor({ update_offset: 'garbage' }) });
    await waitFor(() => r.messages[0], 'the message');
    expect(r.warnings[0]).toMatch(/stored update offset is unreadable/);
  });

  it('ends a long poll at once on disconnect and reports stopped', async () => {
    fake = await startFakeTelegram();
    const r = await start({ pollTimeoutS: 30 });
    await waitFor(() => fake.openPolls() === 1, 'a waiting long poll');
    const t0 = Date.now();
    await r.adapter.disconnect();
    expect(Date.now() - t0).toBeLessThan(2000);
    await waitFor(() => fake.openPolls() === 0, 'the poll closed on the server');
    expect(r.lastState()).toEqual({ state: 'stopped' });
  });
});
