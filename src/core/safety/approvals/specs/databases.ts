import { REASONS } from '../reasons.js';
import { flag, UNKNOWN, type Scan } from '../scan.js';
import { valuesOf, type Command, type CommandSpec } from './spec.js';

/**
 * Database clients given statements on the command line (`psql -c`, `mysql -e`, `mongosh --eval`,
 * `redis-cli FLUSHALL`, `cqlsh -e`) or on stdin (a heredoc, a pipe): statements that destroy data ask.
 */
const STATEMENT_DESTROYS: readonly RegExp[] = [
  /\bDROP\s+(?:(?:TEMP|TEMPORARY|EXTERNAL|FOREIGN|GLOBAL\s+TEMPORARY|UNLOGGED)\s+)?(TABLE|DATABASE|SCHEMA|KEYSPACE|COLUMNFAMILY|COLLECTION|USER|ROLE|LOGIN|OWNED|MATERIALIZED\s+VIEW|VIEW|INDEX|SEQUENCE|TABLESPACE|DICTIONARY|MEASUREMENT|SERIES|SHARD|RETENTION\s+POLICY|CONTINUOUS\s+QUERY|EXTENSION|PARTITION|ALL\s+OBJECTS|FUNCTION|PROCEDURE|TRIGGER|TYPE|DOMAIN|EVENT|SERVER|PUBLICATION|SUBSCRIPTION|POLICY|RULE|AGGREGATE|SYNONYM|PACKAGE|STAGE|WAREHOUSE|STREAM|TASK|PIPE|NAMESPACE|CATALOG|BUCKET)\b/i,
  /\bTRUNCATE(\s+TABLE)?\s+["`\w]/i,
  /\bALTER\s+TABLE\s+[\w."`]+\s+DROP\b/i,
  // SurrealQL spells DROP as REMOVE (`REMOVE TABLE users`); upper case only, so prose ("remove table rows") is not it.
  /\bREMOVE\s+(TABLE|DATABASE|NAMESPACE|DB|NS|FIELD|INDEX|ANALYZER|EVENT)\s+[\w`]/,
  /\bFLUSH(ALL|DB)\b|\bflush_all\b/i,
  // Cypher: every node (of a label), or every relationship, deleted with no WHERE.
  /\bMATCH\s*\(\s*\w*(\s*:\s*\w+)?\s*\)\s*(DETACH\s+)?DELETE\b/i,
  /\bMATCH\s*\(\s*\w*\s*\)\s*<?-\s*\[\s*\w*(\s*:\s*\w+)?\s*\]\s*->?\s*\(\s*\w*\s*\)\s*DELETE\b/i,
  /"match_all"\s*:\s*\{\s*\}/,
  /\.(dropDatabase|drop|dropCollection|dropAllUsers|dropIndexes)\s*\(/,
  // ArangoDB's shell: `db._drop("users")`, `db._truncate(…)`, `db._dropDatabase(…)`, `db.users.truncate()`.
  /\bdb\.(?:_drop|_dropDatabase|_truncate|\w+\.truncate)\s*\(/,
  // `deleteMany({})`, `remove({}, { writeConcern… })`, `updateMany({}, …)`: an empty filter matches every document.
  /\.(deleteMany|remove)\s*\(\s*(\{\s*\}\s*)?[,)]/,
  /\.updateMany\s*\(\s*\{\s*\}\s*,/,
  /\bdeleteMany\s*:\s*\{\s*filter\s*:\s*\{\s*\}/,
  // `db.runCommand({ dropDatabase: 1 })`
  /\{\s*['"]?(dropDatabase|drop)['"]?\s*:\s*(1|true|['"])/,
];

/** The statement that deletes or updates rows: DELETE FROM, UPDATE … SET, ClickHouse's ALTER TABLE … DELETE|UPDATE. */
const ROW_STATEMENT = /(?:^|\n)\s*(DELETE\s+FROM\s+(ONLY\s+)?[\w."`[\]]+|UPDATE\s+(ONLY\s+)?[\w."`[\]]+(\s+(AS\s+)?\w+)?\s+SET\s|ALTER\s+TABLE\s+[\w."`]+(\s+ON\s+CLUSTER\s+\S+)?\s+(DELETE|UPDATE)\s)/i;
/** `WHERE 1=1`, `WHERE true`, `WHERE 1`, `WHERE id = id`: a condition every row meets. */
const ALWAYS_TRUE = /\bWHERE\s+(1\s*=\s*1|'1'\s*=\s*'1'|true|1|0\s*=\s*0|([\w.'"]+)\s*=\s*\2)\s*$/i;

/**
 * DELETE or UPDATE with no WHERE before the statement ends: every row. The statement runs to its `;` (a WHERE on
 * the next line still belongs to it), from where DELETE/UPDATE starts (after `BEGIN`, a comment, a psql `\c`).
 */
function touchesEveryRow(statement: string): boolean {
  const start = ROW_STATEMENT.exec(statement);
  if (start === null) return false;
  const rest = statement.slice(start.index).trim();
  // ClickHouse mutations need a WHERE; `WHERE 1=1`, `WHERE true` select every row all the same.
  return !/\bWHERE\b/i.test(rest) || ALWAYS_TRUE.test(rest);
}

/** The SQL statements among STATEMENT_DESTROYS (DROP, TRUNCATE, ALTER … DROP): a string literal holding one is data. */
const SQL_STATEMENTS = 4;

/**
 * `WHERE body LIKE '%DROP TABLE%'`, `INSERT … VALUES ('DELETE FROM x')`: a single-quoted SQL literal is data, so it is
 * taken out before statements are looked for. A literal that is run stays: `EXECUTE 'DROP TABLE t'`,
 * `EXEC sp_executesql N'…'`, or one handed to a call (`redis.call('…')`, `conn.execute('…')`).
 */
function withoutLiterals(text: string): string {
  if (!text.includes("'")) return text;
  return text.replace(/'(?:[^']|'')*'/g, (literal, at: number) => (RUNS_LITERAL.test(text.slice(Math.max(0, at - 40), at)) ? literal : "''"));
}

const RUNS_LITERAL = /(\b(EXECUTE|EXEC|IMMEDIATE|sp_executesql)\s*(\(\s*)?N?|[.\s](call|eval|execute|exec|query|run|raw|sql|executescript|prepare)\s*\(\s*)$/i;

/** SQL (or Mongo/Redis/CQL) text that destroys data. */
export function destroysData(text: string): boolean {
  const sql = withoutLiterals(text);
  if (STATEMENT_DESTROYS.some((re, i) => re.test(i < SQL_STATEMENTS ? sql : text))) return true;
  if (!/\b(DELETE|UPDATE)\b/i.test(sql)) return false;
  return sql.replace(/--[^\n]*|\/\*[\s\S]*?\*\//g, ' ').split(';').some(touchesEveryRow);
}

function statements(options: string[], operandsAreStatements: (c: Command) => string[] = () => [], fileOptions: string[] = []) {
  return (command: Command, scan: Scan): void => {
    const texts = [...valuesOf(command, ...options), ...operandsAreStatements(command)];
    // `psql -f q.sql` after the line wrote q.sql, `psql -f <(echo …)`: the file's text is statements too.
    for (const file of valuesOf(command, ...fileOptions)) {
      const text = scan.files.get(file.slice(file.lastIndexOf('/') + 1));
      if (text !== undefined) texts.push(text);
    }
    const stdin = command.invocation.stdin;
    if (stdin?.kind === 'text' || (stdin?.kind === 'pipe' && stdin.text !== null)) texts.push(stdin.text ?? '');
    if (texts.some(destroysData)) flag(scan, REASONS.sqlDrop);
  };
}

/** Redis takes its command as words: FLUSHALL, SHUTDOWN, or DEL of keys only known at run time (`KEYS … | xargs`). */
function redis(command: Command, scan: Scan): void {
  const [verb = '', ...keys] = command.operands;
  if (destroysData(command.operands.join(' '))) flag(scan, REASONS.sqlDrop);
  if (/^(DEL|UNLINK)$/i.test(verb) && keys.some((k) => k.includes(UNKNOWN) || /[*?]/.test(k))) flag(scan, REASONS.sqlDrop);
  if (/^SHUTDOWN$/i.test(verb)) flag(scan, REASONS.stopService);
  const stdin = command.invocation.stdin;
  if (stdin?.text !== null && stdin?.text !== undefined && destroysData(stdin.text)) flag(scan, REASONS.sqlDrop);
}

/**
 * A database, collection or index addressed over HTTP on its server's usual port: CouchDB (5984), Qdrant (6333),
 * Meilisearch (7700), Typesense (8108), ArangoDB (8529), Solr (8983), OpenSearch dashboards aside.
 */
const DATABASE_OVER_HTTP = /:(5984|6333|7700|8108|8529|8983)\/(?:(?:collections|indexes|_db|solr)\/)?[^/?]+\/?(\?|$)/;

/** Elasticsearch/OpenSearch over HTTP: deleting every index, or deleting by a match-everything query. */
export function destroysOverHttp(args: readonly string[]): boolean {
  const method = args.map((a, i) => (/^(-X|--request)$/.test(a) ? args[i + 1] : /^-X./.test(a) ? a.slice(2) : /^--request=/.test(a) ? a.slice(10) : undefined)).find((m) => m !== undefined);
  const urls = args.filter((a) => /^(https?:\/\/)?[\w.-]+(:\d+)?\//.test(a));
  if (/^DELETE$/i.test(method ?? '') && urls.some((u) => /\/(_all|\*)(\/|\?|$)|:9200\/[^/?]+\/?$/.test(u) || DATABASE_OVER_HTTP.test(u))) return true;
  if (urls.some((u) => /\/_delete_by_query\b/.test(u)) && args.some((a) => /match_all/.test(a))) return true;
  // Solr `<delete><query>*:*</query></delete>`, a vector store's points/delete with an empty filter.
  return urls.some((u) => /\/update\b/.test(u)) && args.some((a) => /<delete>\s*<query>\s*\*:\*\s*<\/query>|"delete"\s*:\s*\{\s*"query"\s*:\s*"\*:\*"/.test(a))
    || (urls.some((u) => /\/points\/delete\b/.test(u)) && args.some((a) => /"filter"\s*:\s*\{\s*\}/.test(a)));
}

/** A short flag given alone or in a cluster before any letter that takes a value (`-c`, `-cv`, but not `-Fc`). */
function shortFlag(command: Command, letter: string, values: readonly string[]): boolean {
  return command.options.some((o) => {
    if (o.startsWith('--')) return false;
    for (const ch of o.slice(1)) {
      if (ch === letter) return true;
      if (values.includes(`-${ch}`)) return false;
    }
    return false;
  });
}

const PG_RESTORE_VALUES = ['-d', '--dbname', '-f', '--file', '-F', '--format', '-h', '--host', '-p', '--port', '-U', '--username', '-j', '--jobs', '-n', '--schema', '-N', '--exclude-schema', '-t', '--table', '-T', '--trigger', '-I', '--index', '-P', '--function', '-L', '--use-list', '-S', '--superuser', '--role'];

export const DATABASE_SPECS: readonly CommandSpec[] = [
  // Restores that first drop what is there: `pg_restore --clean`, `mongorestore --drop`.
  { names: ['pg_restore'], values: PG_RESTORE_VALUES, check: (c, s) => (c.options.includes('--clean') || shortFlag(c, 'c', PG_RESTORE_VALUES) ? flag(s, REASONS.sqlDrop) : undefined) },
  { names: ['mongorestore'], rules: [{ option: /^--drop$/, reason: REASONS.sqlDrop }] },
  { names: ['psql'], clusters: true, values: ['-c', '--command', '-d', '--dbname', '-h', '--host', '-p', '--port', '-U', '--username', '-f', '--file', '-v', '--set', '-o'], check: statements(['-c', '--command'], undefined, ['-f', '--file']) },
  { names: ['mysql', 'mariadb'], clusters: true, values: ['-e', '--execute', '-u', '--user', '-h', '--host', '-P', '--port', '-D', '--database'], check: statements(['-e', '--execute']) },
  { names: ['sqlite3', 'duckdb', 'sqlite'], values: ['-c', '-cmd', '-s', '-separator'], check: statements(['-c', '-cmd'], (c) => c.operands.slice(1)) },
  { names: ['sqlcmd'], clusters: true, values: ['-Q', '-q', '-S', '-U', '-P', '-d', '-i'], check: statements(['-Q', '-q']) },
  { names: ['clickhouse-client', 'clickhouse'], clusters: true, values: ['-q', '--query', '-h', '--host', '-u', '--user', '-d', '--database'], check: statements(['-q', '--query']) },
  { names: ['mongo', 'mongosh'], values: ['--eval', '-u', '--username', '-p', '--password', '--host', '--port', '--authenticationDatabase'], check: statements(['--eval']) },
  { names: ['redis-cli', 'valkey-cli', 'keydb-cli'], clusters: true, values: ['-h', '-p', '-a', '-n', '-u', '--user', '--pass'], check: redis },
  { names: ['cqlsh'], clusters: true, values: ['-e', '--execute', '-u', '-p', '-k', '--keyspace', '-f', '--file'], check: statements(['-e', '--execute'], undefined, ['-f', '--file']) },
  { names: ['cockroach'], clusters: true, values: ['-e', '--execute', '--url', '--host', '--database', '-d'], check: statements(['-e', '--execute']) },
  { names: ['snowsql', 'bq', 'influx', 'trino', 'presto'], values: ['-q', '--query', '-e', '--execute', '-execute'], check: statements(['-q', '--query', '-e', '--execute', '-execute'], (c) => (c.name === 'bq' || (c.name === 'influx' && c.operands[0] === 'query') ? c.operands.slice(1) : [])), rules: [{ sub: '* delete', reason: REASONS.sqlDrop }, { sub: 'delete|rm', reason: REASONS.sqlDrop }] },
  { names: ['cypher-shell'], values: ['-u', '-p', '-a', '-d', '--database', '-f', '--file'], check: statements([], (c) => c.operands) },
  { names: ['dropdb', 'memcflush', 'pg_dropcluster'], check: (_c, s) => flag(s, REASONS.sqlDrop) },
  // Stopping the database server itself.
  { names: ['pg_ctl'], values: ['-D', '--pgdata', '-m', '--mode', '-l', '--log', '-o', '-t', '--timeout', '-w', '-W'], rules: [{ sub: 'stop|kill', reason: REASONS.stopService }] },
  { names: ['pg_ctlcluster'], rules: [{ sub: '* * stop', reason: REASONS.stopService }] },
  // ODBC and FreeTDS shells, Oracle's SQL*Plus and SurrealDB's `surreal sql` read statements on stdin.
  { names: ['isql', 'iusql', 'tsql', 'sqlplus', 'surreal'], values: ['--endpoint', '-e', '--conn', '--ns', '--namespace', '--db', '--database', '-u', '--user', '--username', '-p', '--pass', '--password'], check: statements([]) },
  { names: ['arangosh'], values: ['--javascript.execute-string', '--server.endpoint', '--server.database', '--server.username', '--server.password'], check: statements(['--javascript.execute-string']) },
  // ZooKeeper: a recursive delete of a znode tree.
  { names: ['zkCli.sh', 'zkCli', 'zookeeper-shell', 'zookeeper-shell.sh'], values: ['-server', '-timeout'], rules: [{ sub: 'deleteall|rmr', reason: REASONS.sqlDrop }, { sub: 'delete', reason: REASONS.destructiveVerb }] },
  // Migration tools: rolling every migration back, or cleaning the schema, drops every table they made.
  { names: ['knex'], values: ['--knexfile', '--env', '--cwd'], rules: [{ sub: 'migrate:rollback', option: /^--all$/, reason: REASONS.sqlDrop }] },
  { names: ['alembic'], values: ['-c', '--config', '-n', '--name', '-x'], rules: [{ sub: 'downgrade', operand: /^base$/, reason: REASONS.sqlDrop }] },
  { names: ['flyway'], rules: [{ sub: 'clean', reason: REASONS.sqlDrop }] },
  { names: ['sequelize', 'sequelize-cli'], rules: [{ sub: 'db:drop|db:migrate:undo:all|db:seed:undo:all', reason: REASONS.sqlDrop }] },
  { names: ['dropuser'], check: (_c, s) => flag(s, REASONS.accounts) },
  { names: ['mysqladmin'], values: ['-u', '--user', '-p', '-h', '--host', '-P', '--port', '-S', '--socket'], clusters: true, rules: [{ operand: /^drop$/, reason: REASONS.sqlDrop }, { operand: /^shutdown$/, reason: REASONS.stopService }] },
];
