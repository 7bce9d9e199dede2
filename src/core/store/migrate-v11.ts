import type { Db } from './database.js';

/**
 * Store version 11: the gateway's durable state (issue 13). The tables are written by `core/gateway/`; this file
 * is the one place their schema lives. They sit in the encrypted store with the sessions, because pairing codes,
 * paired users and the text of messages waiting for an answer are as private as the conversations.
 */
export function migrateToV11(db: Db): void {
  db.exec(`
    -- Each adapter's cursor (Telegram update offset, Discord session/sequence, Slack event id, ...).
    CREATE TABLE gateway_cursors (
      platform   TEXT NOT NULL,
      key        TEXT NOT NULL,
      value      TEXT NOT NULL,
      updated_at INTEGER NOT NULL,
      PRIMARY KEY (platform, key)
    );

    -- Every platform message the gateway has taken in, by the platform's id: a message delivered again (a
    -- reconnect, a restart before the adapter's cursor moved) is recognised and handled once. 'pending' and
    -- 'running' rows keep the event, so a restart answers what was waiting and reports what was cut off;
    -- the event is dropped when the row is done.
    CREATE TABLE gateway_inbox (
      platform    TEXT NOT NULL,
      message_id  TEXT NOT NULL,
      state       TEXT NOT NULL CHECK (state IN ('pending', 'running', 'done')),
      event       TEXT,
      received_at INTEGER NOT NULL,
      updated_at  INTEGER NOT NULL,
      PRIMARY KEY (platform, message_id)
    );
    CREATE INDEX gateway_inbox_open ON gateway_inbox(received_at) WHERE state <> 'done';

    -- Which Hearth session a chat (key platform:chat_type:chat:user|thread) continues, across restarts.
    CREATE TABLE gateway_sessions (
      session_key TEXT PRIMARY KEY,
      session_id  TEXT NOT NULL,
      created_at  INTEGER NOT NULL,
      updated_at  INTEGER NOT NULL
    );

    -- DM pairing (PARITY §10): codes waiting for the owner, when each user last asked, who was approved, and the
    -- failed approvals that lock a platform's pairing for an hour.
    CREATE TABLE gateway_pairing_requests (
      platform   TEXT NOT NULL,
      code       TEXT NOT NULL,
      user_id    TEXT NOT NULL,
      user_name  TEXT,
      created_at INTEGER NOT NULL,
      expires_at INTEGER NOT NULL,
      PRIMARY KEY (platform, code)
    );
    CREATE INDEX gateway_pairing_requests_by_user ON gateway_pairing_requests(platform, user_id);
    CREATE TABLE gateway_pairing_last_request (
      platform   TEXT NOT NULL,
      user_id    TEXT NOT NULL,
      requested_at INTEGER NOT NULL,
      PRIMARY KEY (platform, user_id)
    );
    CREATE TABLE gateway_paired_users (
      platform    TEXT NOT NULL,
      user_id     TEXT NOT NULL,
      user_name   TEXT,
      approved_at INTEGER NOT NULL,
      PRIMARY KEY (platform, user_id)
    );
    CREATE TABLE gateway_pairing_lockouts (
      platform     TEXT PRIMARY KEY,
      failures     INTEGER NOT NULL,
      locked_until INTEGER
    );
  `);
}
