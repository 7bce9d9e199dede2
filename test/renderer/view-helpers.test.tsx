// @vitest-environment jsdom
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { decodeTextFile, MAX_ATTACHMENT_BYTES } from '../../src/renderer/chat/attachments.js';
import { streamChunks } from '../../src/renderer/markdown/stream-chunks.js';
import { splitSnippet } from '../../src/renderer/sessions/snippet.js';
import { DiffView } from '../../src/renderer/skills/DiffView.js';
import { splitFrontmatter } from '../../src/renderer/skills/skill-markdown.js';
import { filterSkills } from '../../src/renderer/skills/SkillsView.js';

afterEach(cleanup);

describe('attachments', () => {
  const bytes = (text: string) => new TextEncoder().encode(text);

  it('accepts UTF-8 text, including CJK', () => {
    // Catches a decoder that mangles non-ASCII text files.
    expect(decodeTextFile('notes.md', bytes('# 笔记\nhello'))).toEqual({ ok: true, attachment: { name: 'notes.md', content: '# 笔记\nhello' } });
  });

  it('refuses binary files (NUL bytes or invalid UTF-8) and files over 1 MB', () => {
    // Catches a PNG or a huge log reaching the model as garbage that eats its context.
    expect(decodeTextFile('a.png', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]))).toEqual({ ok: false, name: 'a.png', reason: 'binary' });
    expect(decodeTextFile('latin1.txt', new Uint8Array([0x63, 0x61, 0x66, 0xe9]))).toMatchObject({ ok: false, reason: 'binary' });
    expect(decodeTextFile('big.log', new Uint8Array(MAX_ATTACHMENT_BYTES + 1).fill(0x61))).toMatchObject({ ok: false, reason: 'too_large' });
    expect(decodeTextFile('edge.log', new Uint8Array(MAX_ATTACHMENT_BYTES).fill(0x61))).toMatchObject({ ok: true });
  });
});

describe('search snippets', () => {
  it('splits U+E000…U+E001 marks into matched and plain runs', () => {
    // Catches marks left as invisible characters or matches shifted by one run.
    expect(splitSnippet('the \uE000deploy\uE001 script \uE000部署\uE001')).toEqual([
      { text: 'the ', match: false },
      { text: 'deploy', match: true },
      { text: ' script ', match: false },
      { text: '部署', match: true },
    ]);
  });
});

describe('skill helpers', () => {
  it('splits SKILL.md frontmatter from the body', () => {
    // Catches the frontmatter rendered as a markdown heading/rule soup.
    expect(splitFrontmatter('---\nname: x\ndescription: y\n---\n# Body\n')).toEqual({ frontmatter: 'name: x\ndescription: y', body: '# Body\n' });
    expect(splitFrontmatter('# No frontmatter')).toEqual({ frontmatter: null, body: '# No frontmatter' });
  });

  it('filters by every word across name, description, category and tags', () => {
    // Catches a filter that only looks at names.
    const skill = (name: string, description: string, tags: string[]) => ({
      name,
      description,
      location: '',
      scope: 'user',
      category: null,
      tags,
      editable: true,
      usage: { viewed: 0, used: 0, patched: 0, lastUsedAt: null },
    });
    const skills = [skill('deploy-docs', 'Publish the docs site', ['web']), skill('pdf', 'Fill PDF forms', ['documents'])];
    expect(filterSkills(skills, 'publish WEB').map((s) => s.name)).toEqual(['deploy-docs']);
    expect(filterSkills(skills, '').map((s) => s.name)).toEqual(['deploy-docs', 'pdf']);
  });

  it('renders diff lines as text with +/- classes', () => {
    // Catches a diff injected as HTML, or additions and deletions looking alike.
    const { container } = render(<DiffView diff={'--- a/SKILL.md\n+++ b/SKILL.md\n@@ -1 +1 @@\n-old <b>x</b>\n+new\n same'} />);
    const lines = [...container.querySelectorAll('.diff > div')];
    expect(lines.map((l) => l.className)).toEqual(['diff-file', 'diff-file', 'diff-hunk', 'diff-del', 'diff-add', 'diff-context']);
    expect(container.querySelector('b')).toBeNull();
    expect(lines[3]?.textContent).toBe('-old <b>x</b>');
  });
});

describe('streaming markdown chunks', () => {
  it('closed chunks never change as the text grows, never split a code fence, and join back to the text', () => {
    // Catches chunk boundaries that move (every chunk re-renders each frame) or cut a fence in two.
    const paragraph = (i: number) => `Paragraph ${i} ${'word '.repeat(60)}\n\n`;
    const fence = '```ts\n' + 'const a = 1;\n\n'.repeat(200) + '```\n\n';
    let text = '';
    let previous: string[] = [];
    for (let i = 0; i < 40; i++) {
      text += i === 10 ? fence : paragraph(i);
      const chunks = streamChunks(text, 1000);
      expect(chunks.join('')).toBe(text);
      expect(chunks.slice(0, previous.length - 1)).toEqual(previous.slice(0, -1));
      for (const chunk of chunks) expect((chunk.match(/```/g) ?? []).length % 2, chunk.slice(0, 40)).toBe(0);
      previous = chunks;
    }
    expect(previous.length).toBeGreaterThan(5);
  });
});
