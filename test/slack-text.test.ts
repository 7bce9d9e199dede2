import { describe, expect, it } from 'vitest';
import { actionBlocks, readableSlackText, slackMrkdwn } from '../src/core/gateway/platforms/slack-text.js';

/** Slack's text in both directions: what the agent writes must show as written and ping no one; what users write must read as they typed it. */
describe('slack text', () => {
  it('escapes what would otherwise ping a channel, link or mention someone', () => {
    expect(slackMrkdwn('<!channel> <!here> <@U0BOSS> <https://evil.example|click> a & b')).toBe(
      '&lt;!channel&gt; &lt;!here&gt; &lt;@U0BOSS&gt; &lt;https://evil.example|click&gt; a &amp; b',
    );
  });

  it('turns Markdown into mrkdwn outside code and leaves code as written (escaped, language tag dropped)', () => {
    const markdown = '## Plan\n**Bold** and *italic*, ~~gone~~, [docs](https://example.com/?a=1&b=2)\n* one\n* two\n```ts\nconst x = a ** b < c && *p;\n```\nand `**not bold**`';
    expect(slackMrkdwn(markdown)).toBe(
      '*Plan*\n*Bold* and _italic_, ~gone~, <https://example.com/?a=1&amp;b=2|docs>\n• one\n• two\n```\nconst x = a ** b &lt; c &amp;&amp; *p;\n```\nand `**not bold**`',
    );
  });

  it('reads incoming text as typed: the bot\'s mention gone, others named, links shown, entities unescaped', () => {
    expect(readableSlackText('<@UBOT> hi <@U0BOB|bob> and <@U0EVE>, see <#C0GEN|general> <https://a.example|the doc> <mailto:x@y.z|x@y.z> &lt;T&gt; &amp; <!here>', 'UBOT'))
      .toBe('hi @bob and @U0EVE, see #general the doc (https://a.example) x@y.z (mailto:x@y.z) <T> & @here');
    // A mention of the bot mid-sentence is removed too; text that names nobody stays.
    expect(readableSlackText('ask <@UBOT> about it', 'UBOT')).toBe('ask about it');
  });

  it('puts button text in 3,000-character sections without cutting an entity, and at most 25 buttons per actions block', () => {
    const text = `${'x'.repeat(2998)}&&${'y'.repeat(10)}`;
    const actions = Array.from({ length: 30 }, (_, i) => ({ id: `opt:${i}`, label: `Option ${i}` }));
    const blocks = actionBlocks(text, actions) as { type: string; text?: { text: string }; elements?: unknown[] }[];
    const sections = blocks.filter((b) => b.type === 'section').map((b) => b.text?.text ?? '');
    expect(sections.every((s) => s.length <= 3000)).toBe(true);
    expect(sections.join('')).toBe(`${'x'.repeat(2998)}&amp;&amp;${'y'.repeat(10)}`);
    expect(sections[0]!.endsWith('x')).toBe(true);
    expect(blocks.filter((b) => b.type === 'actions').map((b) => b.elements?.length)).toEqual([25, 5]);
  });
});
