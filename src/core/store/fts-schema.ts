import type { Db } from './database.js';

/**
 * Full-text search over messages: two FTS5 external-content tables keyed on `messages.id`.
 *
 * - `messages_fts`: `porter unicode61`, stemmed English ("deploying" finds "deployed"), ranked by bm25.
 * - `messages_trigram`: `trigram`, for CJK (which has no spaces, so unicode61 sees a whole sentence as
 *   one token) and for substrings ("gres" inside "postgres").
 *
 * External content: the text lives once, in `messages`; the FTS tables hold only the index. Triggers
 * keep them in sync, using FTS5's documented 'delete' command with the old values (an external-content
 * table cannot read the old row itself once it has changed). Indexed columns: the message text plus the
 * tool name and tool-call JSON, so tool activity ("write_file", a path in the arguments) is searchable.
 */
export const FTS_TABLES = ['messages_fts', 'messages_trigram'] as const;
export type FtsTable = (typeof FTS_TABLES)[number];

const TOKENIZERS: Record<FtsTable, string> = {
  messages_fts: 'porter unicode61 remove_diacritics 2',
  messages_trigram: 'trigram',
};

const COLUMNS = 'content, tool_name, tool_calls';
const NEW_VALUES = 'new.id, new.content, new.tool_name, new.tool_calls';
const OLD_VALUES = 'old.id, old.content, old.tool_name, old.tool_calls';

export function createMessageFts(db: Db): void {
  for (const table of FTS_TABLES) {
    db.exec(`
      CREATE VIRTUAL TABLE ${table} USING fts5(
        ${COLUMNS}, content='messages', content_rowid='id', tokenize='${TOKENIZERS[table]}'
      );
      CREATE TRIGGER ${table}_after_insert AFTER INSERT ON messages BEGIN
        INSERT INTO ${table}(rowid, ${COLUMNS}) VALUES (${NEW_VALUES});
      END;
      CREATE TRIGGER ${table}_after_delete AFTER DELETE ON messages BEGIN
        INSERT INTO ${table}(${table}, rowid, ${COLUMNS}) VALUES ('delete', ${OLD_VALUES});
      END;
      CREATE TRIGGER ${table}_after_update AFTER UPDATE OF id, content, tool_name, tool_calls ON messages BEGIN
        INSERT INTO ${table}(${table}, rowid, ${COLUMNS}) VALUES ('delete', ${OLD_VALUES});
        INSERT INTO ${table}(rowid, ${COLUMNS}) VALUES (${NEW_VALUES});
      END;
    `);
  }
}

/** bm25 column weights for (content, tool_name, tool_calls): a hit in the text outweighs one in tool metadata. */
export const STEMMED_WEIGHTS = [1.0, 0.5, 0.25] as const;

/** FTS5's own consistency check of index against content; throws (SQLITE_CORRUPT_VTAB) when out of sync. */
export function checkFtsIntegrity(db: Db): void {
  for (const table of FTS_TABLES) db.exec(`INSERT INTO ${table}(${table}, rank) VALUES ('integrity-check', 1)`);
}
