import { memo } from 'react';
import { useT } from '../i18n/i18n.js';
import { Markdown, StreamingMarkdown } from '../markdown/Markdown.js';
import type { ChatItem } from './chat-machine.js';
import { NoticeLine } from './NoticeLine.js';
import { ToolCard } from './ToolCard.js';

export const MessageItem = memo(function MessageItem({ item }: { item: ChatItem }) {
  const t = useT();
  switch (item.kind) {
    case 'user':
      return (
        <div className="message message-user" data-testid="message" data-role="user">
          <div className="message-text">{item.text}</div>
          {item.attachments.length > 0 && (
            <div className="attachment-list">
              {item.attachments.map((name) => (
                <span key={name} className="chip">
                  📎 {name}
                </span>
              ))}
            </div>
          )}
        </div>
      );
    case 'assistant':
      return (
        <div className="message message-assistant" data-testid="message" data-role="assistant" data-streaming={item.done ? undefined : 'true'}>
          {item.reasoning && (
            <details className="reasoning" data-testid="reasoning">
              <summary>{item.done ? t('chat.reasoning') : t('chat.reasoningLive')}</summary>
              <div className="reasoning-text">{item.reasoning}</div>
            </details>
          )}
          {item.done ? <Markdown text={item.text} /> : <StreamingMarkdown text={item.text} />}
        </div>
      );
    case 'tool':
      return <ToolCard item={item} />;
    case 'notice':
      return <NoticeLine event={item.event} />;
  }
});
