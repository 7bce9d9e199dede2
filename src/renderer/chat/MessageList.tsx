import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useLayoutEffect, useRef } from 'react';
import { useChat } from '../app/services.js';
import { useT } from '../i18n/i18n.js';
import { MessageItem } from './MessageItem.js';

/** Within this many pixels of the end counts as "reading the newest message": keep following the stream. */
const STICK_THRESHOLD = 48;

/**
 * The thread, virtualised: only the rows on screen (plus a few) are in the DOM, so a 10,000-message session
 * opens and scrolls like a short one. Rows measure themselves, since messages vary from one line to pages.
 */
export function MessageList() {
  const t = useT();
  const items = useChat((s) => s.items);
  const sessionId = useChat((s) => s.sessionId);
  const scrollRef = useRef<HTMLDivElement>(null);
  const stickToBottom = useRef(true);
  const itemsRef = useRef(items);
  itemsRef.current = items;
  // A stable key function: the virtualizer recomputes every row's offset (10,000 of them) whenever it gets a
  // new one, which a fresh closure per render would cause on every scroll and every streamed frame. Within
  // a session a row keeps its key (items are appended or replaced in place), so the session is the only dependency.
  const getItemKey = useCallback((index: number) => itemsRef.current[index]?.key ?? index, [sessionId]);

  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 96,
    overscan: 8,
    getItemKey,
  });

  const onScroll = useCallback(() => {
    const el = scrollRef.current;
    if (el) stickToBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < STICK_THRESHOLD;
  }, []);

  // A newly opened session starts at its end, like any chat.
  useEffect(() => {
    stickToBottom.current = true;
  }, [sessionId]);

  const totalSize = virtualizer.getTotalSize();
  // Follow the stream by pinning scrollTop to the end. (The virtualizer's scrollToIndex re-reads the layout
  // and retries over several frames; called every frame while streaming it cost a third of each frame.)
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (el && stickToBottom.current) el.scrollTop = el.scrollHeight;
  }, [items, totalSize]);

  if (items.length === 0) {
    return (
      <div className="message-list empty" data-testid="message-list">
        <p className="empty-hint">{t('chat.empty')}</p>
      </div>
    );
  }

  return (
    <div className="message-list" data-testid="message-list" ref={scrollRef} onScroll={onScroll}>
      <div className="message-list-inner" style={{ height: totalSize }}>
        {virtualizer.getVirtualItems().map((row) => {
          const item = items[row.index];
          if (!item) return null;
          return (
            <div key={row.key} data-index={row.index} ref={virtualizer.measureElement} className="message-row" style={{ transform: `translateY(${row.start}px)` }}>
              <MessageItem item={item} />
            </div>
          );
        })}
      </div>
    </div>
  );
}
