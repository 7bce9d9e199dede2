// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../src/renderer/markdown/render-markdown.js';

/** Model output is untrusted: what renderMarkdown returns goes into innerHTML. */
function dom(markdown: string): HTMLDivElement {
  const div = document.createElement('div');
  div.innerHTML = renderMarkdown(markdown);
  return div;
}

describe('renderMarkdown', () => {
  it('renders raw HTML as text, never as elements', () => {
    // Catches html:true (or a sanitiser bypass): an onerror handler would run script in the renderer.
    const div = dom('Look: <img src=x onerror="alert(1)"> and <script>alert(2)</script>\n\n<iframe src="https://evil"></iframe>');
    expect(div.querySelector('img, script, iframe')).toBeNull();
    expect(div.querySelector('[onerror]')).toBeNull();
    expect(div.textContent).toContain('<img src=x onerror="alert(1)">');
    expect(div.textContent).toContain('<script>alert(2)</script>');
  });

  it('drops javascript:, data: and other non-http links but keeps their text', () => {
    // Catches markdown-it's default allow-list (which lets e.g. relative and some data: URLs through).
    const div = dom('[a](javascript:alert(1)) [b](JAVASCRIPT:alert(1)) [c](data:text/html,<b>x</b>) [d](vbscript:x) [e](file:///etc/passwd) <javascript:alert(3)> [f](/relative)');
    expect(div.querySelectorAll('a')).toHaveLength(0);
    expect(div.textContent).toContain('a');
  });

  it('opens http(s) links in a new window without an opener', () => {
    // Catches reverse tabnabbing (window.opener) and links navigating the app window itself.
    const div = dom('[docs](https://example.com/x) and http://example.org/y');
    const links = [...div.querySelectorAll('a')];
    expect(links.map((a) => a.getAttribute('href'))).toEqual(['https://example.com/x', 'http://example.org/y']);
    for (const a of links) {
      expect(a.getAttribute('target')).toBe('_blank');
      expect(a.getAttribute('rel')).toContain('noopener');
    }
  });

  it('does not render images (they would fetch remote URLs while the text streams)', () => {
    // Catches a tracking pixel in model output being loaded by the app.
    expect(dom('![pixel](https://tracker.example/p.gif)').querySelector('img')).toBeNull();
  });

  it('highlights fenced code and gives it a copy button', () => {
    // Catches code blocks left unhighlighted or without the copy affordance.
    const div = dom('```ts\nconst x: number = 1; // one\n```');
    expect(div.querySelector('.code-block [data-copy-code]')?.textContent).toBe('Copy');
    expect(div.querySelector('code .hljs-keyword')?.textContent).toBe('const');
    expect(div.querySelector('code')?.textContent).toBe('const x: number = 1; // one\n');
  });

  it('escapes HTML inside code blocks in a language highlight.js does not know', () => {
    // Catches the highlighter's fallback returning the raw code into innerHTML.
    const div = dom('```nosuchlang\n<img src=x onerror=alert(1)>\n```');
    expect(div.querySelector('img')).toBeNull();
    expect(div.querySelector('code')?.textContent).toContain('<img src=x onerror=alert(1)>');
  });
});

describe('renderMarkdown modes and cache', () => {
  const source = 'Run:\n\n```ts\nconst answer = 42;\n```\n';

  it('without highlighting still escapes code and keeps the copy button', () => {
    // Catches the streaming tail's plain mode dropping the escaping (raw HTML into innerHTML) or the button.
    const div = document.createElement('div');
    div.innerHTML = renderMarkdown('```ts\nconst a = "<img src=x onerror=alert(1)>";\n```', 'Copy', { highlight: false });
    expect(div.querySelector('img')).toBeNull();
    expect(div.querySelector('.hljs-keyword')).toBeNull();
    expect(div.querySelector('code')?.textContent).toContain('<img src=x onerror=alert(1)>');
    expect(div.querySelector('[data-copy-code]')?.textContent).toBe('Copy');
  });

  it('caches per source, copy label and highlighting mode', () => {
    // Catches a cache keyed on the source alone: a language switch would keep English buttons, or the
    // streaming tail's plain HTML would be served for a finished message (code never highlighted).
    const plainFirst = renderMarkdown(source, 'Copy', { highlight: false });
    const highlighted = renderMarkdown(source, 'Copy');
    expect(plainFirst).not.toContain('hljs-');
    expect(highlighted).toContain('hljs-');
    expect(renderMarkdown(source, '复制')).toContain('复制');
    expect(renderMarkdown(source, 'Copy')).toBe(highlighted);
  });
});
