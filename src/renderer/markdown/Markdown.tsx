import { memo, useCallback, type MouseEvent } from 'react';
import { useT } from '../i18n/i18n.js';
import { renderMarkdown } from './render-markdown.js';
import { streamChunks } from './stream-chunks.js';

/**
 * Rendered markdown. `innerHTML` is safe here only because `renderMarkdown` escapes all raw HTML and keeps
 * nothing but http(s) links; never pass it anything else.
 */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  const t = useT();
  const onClick = useCallback(
    (event: MouseEvent<HTMLDivElement>) => {
      const button = (event.target as HTMLElement).closest('[data-copy-code]');
      if (!button) return;
      const code = button.parentElement?.querySelector('code')?.textContent ?? '';
      navigator.clipboard.writeText(code).then(
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
  return <div className="markdown" onClick={onClick} dangerouslySetInnerHTML={{ __html: renderMarkdown(text, t('chat.copy')) }} />;
});

/** An answer still streaming: closed chunks are memoised, so a frame re-renders only the growing tail. */
export const StreamingMarkdown = memo(function StreamingMarkdown({ text }: { text: string }) {
  return (
    <div className="markdown-stream">
      {streamChunks(text).map((chunk, i) => (
        <Markdown key={i} text={chunk} />
      ))}
    </div>
  );
});
