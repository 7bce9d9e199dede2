import MarkdownIt from 'markdown-it';
import hljs from 'highlight.js/lib/common';

/**
 * Markdown from the model, rendered for `innerHTML`. Model output is untrusted (a web page it read can put
 * anything in it), so: raw HTML is escaped (`html: false`), links are kept only for http(s) and open in a new
 * window without an opener, images are off (they would fetch remote URLs the moment text streams in).
 */
const md = new MarkdownIt({
  html: false,
  linkify: true,
  breaks: false,
  highlight: highlightCode,
});

md.disable('image');

md.validateLink = (url: string) => {
  try {
    const protocol = new URL(url.trim()).protocol;
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false; // relative or malformed: there is no page it could sensibly point into
  }
};

const defaultLinkOpen = md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  const token = tokens[idx];
  if (token) {
    token.attrSet('target', '_blank');
    token.attrSet('rel', 'noopener noreferrer');
  }
  return defaultLinkOpen(tokens, idx, options, env, self);
};

/** Code blocks get a copy button; the click is handled by delegation in `<Markdown>` (no inline handlers under the CSP). */
const defaultFence = md.renderer.rules.fence;
md.renderer.rules.fence = (tokens, idx, options, env, self) => {
  const html = defaultFence ? defaultFence(tokens, idx, options, env, self) : self.renderToken(tokens, idx, options);
  return `<div class="code-block"><button type="button" class="copy-code" data-copy-code data-testid="copy-code">${escapeHtml(copyLabel(env))}</button>${html}</div>`;
};

function highlightCode(code: string, language: string): string {
  try {
    if (language) {
      if (hljs.getLanguage(language)) return hljs.highlight(code, { language, ignoreIllegals: true }).value;
    } else if (code.length < 5_000) {
      // Only unlabelled code is guessed: guessing runs every grammar, too slow for long blocks mid-stream.
      return hljs.highlightAuto(code).value;
    }
  } catch (error) {
    console.warn('hearth: highlighting failed, showing plain code', error);
  }
  return md.utils.escapeHtml(code);
}

function escapeHtml(text: string): string {
  return md.utils.escapeHtml(text);
}

function copyLabel(env: unknown): string {
  const label = (env as { copyLabel?: unknown } | undefined)?.copyLabel;
  return typeof label === 'string' ? label : 'Copy';
}

/** The HTML for a message. `copyLabel` is the (translated) text of the copy buttons. */
export function renderMarkdown(source: string, copyLabel = 'Copy'): string {
  return md.render(source, { copyLabel });
}
