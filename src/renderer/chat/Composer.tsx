import { useState, type DragEvent, type KeyboardEvent } from 'react';
import type { z } from 'zod';
import type { Attachment } from '../../shared/contract.js';
import { useChat } from '../app/services.js';
import { useT } from '../i18n/i18n.js';
import { readAttachment } from './attachments.js';

type TextAttachment = z.infer<typeof Attachment>;

/**
 * The message box. While a turn runs, what is typed here steers it (`chat.steer`) instead of queueing a new
 * turn, and the interrupt button stops it. Files dropped anywhere on the chat become text attachments.
 */
export function Composer() {
  const t = useT();
  const phase = useChat((s) => s.phase);
  const send = useChat((s) => s.send);
  const interrupt = useChat((s) => s.interrupt);
  const [text, setText] = useState('');
  const [attachments, setAttachments] = useState<TextAttachment[]>([]);
  const [refusals, setRefusals] = useState<string[]>([]);
  const [dragging, setDragging] = useState(false);
  const busy = phase !== 'idle';

  const submit = () => {
    const message = text.trim();
    if (!message) return;
    // Steering carries text only; attachments wait for the next message.
    const withFiles = busy ? [] : attachments;
    setText('');
    if (!busy) setAttachments([]);
    void send(message, withFiles);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  };

  const onDrop = async (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    const results = await Promise.all([...event.dataTransfer.files].map(readAttachment));
    const accepted = results.flatMap((r) => (r.ok ? [r.attachment] : []));
    setRefusals(results.flatMap((r) => (r.ok ? [] : [t(r.reason === 'binary' ? 'attach.binary' : 'attach.tooLarge', { name: r.name })])));
    setAttachments((current) => [...current, ...accepted].slice(0, 20));
  };

  return (
    <div
      className={`composer${dragging ? ' dragging' : ''}`}
      data-testid="composer"
      onDragOver={(event) => {
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={(event) => void onDrop(event)}
    >
      {refusals.length > 0 && (
        <div className="attach-errors" data-testid="attachment-error" role="alert">
          {refusals.map((message) => (
            <div key={message}>{message}</div>
          ))}
        </div>
      )}
      {attachments.length > 0 && (
        <div className="attachment-list">
          {attachments.map((a, index) => (
            <span key={`${a.name}-${index}`} className="chip" data-testid="attachment">
              📎 {a.name}
              <button type="button" className="chip-remove" aria-label={t('attach.remove', { name: a.name })} onClick={() => setAttachments((list) => list.filter((_, i) => i !== index))}>
                ×
              </button>
            </span>
          ))}
        </div>
      )}
      <div className="composer-row">
        <textarea
          data-testid="composer-input"
          value={text}
          placeholder={busy ? t('chat.steerPlaceholder') : t('chat.placeholder')}
          rows={3}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
        />
        <div className="composer-buttons">
          <button type="button" className="primary" data-testid="send" onClick={submit} disabled={!text.trim()}>
            {busy ? t('chat.steer') : t('chat.send')}
          </button>
          {busy && (
            <button type="button" className="danger" data-testid="interrupt" onClick={() => void interrupt()}>
              {t('chat.interrupt')}
            </button>
          )}
        </div>
      </div>
      <div className="composer-hint">{t('chat.dropHint')}</div>
    </div>
  );
}
