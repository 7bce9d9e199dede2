import type { Db } from './database.js';

/**
 * Small durable values of the learning loop (`learning_state`): the user model's reflection cursor,
 * the curator's last run. One key, one text value; callers own the format of their own keys.
 */
export class LearningState {
  private readonly statements;

  constructor(db: Db) {
    this.statements = {
      get: db.prepare<[string], { value: string }>('SELECT value FROM learning_state WHERE key = ?'),
      set: db.prepare<[string, string]>('INSERT INTO learning_state (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value'),
    };
  }

  get(key: string): string | undefined {
    return this.statements.get.get(key)?.value;
  }

  set(key: string, value: string): void {
    this.statements.set.run(key, value);
  }
}
