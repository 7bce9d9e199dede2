import MarkdownIt from 'markdown-it';
import hljs from 'highlight.js/lib/common';

/**
 * Markdown from the model, rendered for `innerHTML`. Model output is untrusted (a web page it read can put
 * anything in it), so: raw HTML is escaped (`html: false`), links are kept only for http(s) and open in a new
 * window without an opener, images are off (they would fetch remote URLs the moment text streams in).
 * One parser per highlighting mode; both get every rule below.
 */
function createParser(highlight: boolean): InstanceType<typeof MarkdownIt> {
  const md = new MarkdownIt({
    html: false,
    linkify: true,
    breaks: false,
    ...(highlight ? { highlight: highlightCode } : {}),
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
  return md;
}

const highlighted = createParser(true);
/** For the growing tail of a streaming answer: its code is highlighted once the chunk closes, not every frame. */
const plain = createParser(false);

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
  return escapeHtml(code);
}

function escapeHtml(text: string): string {
  return plain.utils.escapeHtml(text);
}

function copyLabel(env: unknown): string {
  const label = (env as { copyLabel?: unknown } | undefined)?.copyLabel;
  return typeof label === 'string' ? label : 'Copy';
}

/**
 * Rendered messages by source: a virtualised thread mounts a row again each time it scrolls back into view,
 * and re-running markdown-it and highlight.js for it would cost a frame. Least recently used entries go.
 */
const CACHE_ENTRIES = 400;
const CACHE_MAX_SOURCE = 100_000;
const cache = new Map<string, string>();

export interface RenderOptions {
  /** Highlight fenced code (default true). */
  highlight?: boolean;
  /** Keep the result for the next render of the same source (default true; pieces of a stream are never asked twice). */
  cache?: boolean;
}

/** The HTML for a message. `copyLabel` is the (translated) text of the copy buttons. */
export function renderMarkdown(source: string, copyLabel = 'Copy', options: RenderOptions = {}): string {
  const highlight = options.highlight ?? true;
  const key = `${highlight ? 'h' : 'p'}\u0000${copyLabel}\u0000${source}`;
  const hit = cache.get(key);
  if (hit !== undefined) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const html = (highlight ? highlighted : plain).render(source, { copyLabel });
  if (options.cache !== false && source.length <= CACHE_MAX_SOURCE) {
    cache.set(key, html);
    if (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value as string);
  }
  return html;
}
