import { memo, useCallback, type MouseEvent } from 'react';
import { copyText } from '../api/shell-api.js';
import { useT } from '../i18n/i18n.js';
import { renderMarkdown } from './render-markdown.js';
import { streamChunks } from './stream-chunks.js';

/**
 * Rendered markdown. `innerHTML` is safe here only because `renderMarkdown` escapes all raw HTML and keeps
 * nothing but http(s) links; never pass it anything else.
 */
export const Markdown = memo(function Markdown({ text, highlight = true, cache = true }: { text: string; highlight?: boolean; cache?: boolean }) {
  const t = useT();
  const onClick = useCallback(
    (event: MouseEvent<HTMLDivElement>) => {
      const button = (event.target as HTMLElement).closest('[data-copy-code]');
      if (!button) return;
      const code = button.parentElement?.querySelector('code')?.textContent ?? '';
      copyText(code).then(
        () => {
          button.textContent = t('chat.copied');
        },
        (error: unknown) => {
          button.textContent = t('chat.copyFailed');
          console.warn('hearth: clipboard write refused', error);
        },
      );
    },
    [t],
  );
  return <div className="markdown" onClick={onClick} dangerouslySetInnerHTML={{ __html: renderMarkdown(text, t('chat.copy'), { highlight, cache }) }} />;
});

/**
 * An answer still streaming: closed chunks are memoised, so a frame re-renders only the growing tail, and
 * the tail's code is left unhighlighted until its chunk closes: running highlight.js over a growing block
 * every frame is work thrown away a frame later.
 */
export const StreamingMarkdown = memo(function StreamingMarkdown({ text }: { text: string }) {
  const chunks = streamChunks(text);
  return (
    <div className="markdown-stream">
      {chunks.map((chunk, i) => (
        <Markdown key={i} text={chunk} highlight={i < chunks.length - 1} cache={false} />
      ))}
    </div>
  );
});
