// Session stores side by side (the stores compared): appends per second and the time to load a 10,000-message
// session, for the SQLite store and the PostgreSQL store in one run, each next to its raw driver
// doing the same work (one transaction per row, then one SELECT) as the reference.
// Run after a build: `pnpm run build && pnpm bench:stores`. PostgreSQL needs TEST_DATABASE_URL (or
// OPENWORK_DATABASE_URL) pointing at a throwaway database; the bench uses its own schema and drops it.
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { completeToolTurn } from '../../packages/session-store/dist/contract/complete-tool-turn.js';
import { SqliteSessionStore } from '../../packages/store-sqlite/dist/index.js';
import { PostgresSessionStore } from '../../packages/store-postgres/dist/index.js';

const MESSAGES = 10_000;
const RAW_ROWS = 2_000;
const LOAD_ROUNDS = 5;
const databaseUrl = process.env.TEST_DATABASE_URL || process.env.OPENWORK_DATABASE_URL || '';
const requireFromSqlite = createRequire(new URL('../../packages/store-sqlite/package.json', import.meta.url));
const requireFromPostgres = createRequire(new URL('../../packages/store-postgres/package.json', import.meta.url));

/** 10,000 messages made of complete tool turns (user, assistant with 2 calls, 2 results, one with a file change, closing answer). */
function messages() {
  const list = [];
  for (let turn = 0; list.length < MESSAGES; turn += 1) list.push(...completeToolTurn(`turn-${turn}`));
  return list.slice(0, MESSAGES - (MESSAGES % 5));
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function timeLoads(load) {
  const seconds = [];
  for (let round = 0; round < LOAD_ROUNDS; round += 1) {
    const started = performance.now();
    const count = await load();
    seconds.push((performance.now() - started) / 1000);
    if (count < MESSAGES - 5) throw new Error(`loaded ${count} messages`);
  }
  return median(seconds);
}

async function measureStore(store, turn) {
  await store.createSession({ id: 'bench', workspaceRoots: ['/bench'] });
  const started = performance.now();
  for (const message of turn) await store.appendMessage('bench', message);
  const appendSeconds = (performance.now() - started) / 1000;
  const loadSeconds = await timeLoads(async () => (await store.loadMessages('bench')).length);
  return { appendsPerSecond: turn.length / appendSeconds, loadSeconds };
}

async function rawSqlite(path, bodies) {
  const Database = requireFromSqlite('better-sqlite3');
  const database = new Database(path);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = FULL');
  database.exec('CREATE TABLE rows (sequence INTEGER PRIMARY KEY, body TEXT NOT NULL)');
  const insert = database.prepare('INSERT INTO rows (sequence, body) VALUES (?, ?)');
  const write = database.transaction((sequence, body) => insert.run(sequence, body));
  const started = performance.now();
  for (let index = 0; index < RAW_ROWS; index += 1) write.immediate(index + 1, bodies[index % bodies.length]);
  const appendsPerSecond = RAW_ROWS / ((performance.now() - started) / 1000);
  const many = database.transaction(() => {
    for (let index = RAW_ROWS; index < MESSAGES; index += 1) insert.run(index + 1, bodies[index % bodies.length]);
  });
  many.immediate();
  const select = database.prepare('SELECT sequence, body FROM rows ORDER BY sequence');
  const loadSeconds = await timeLoads(async () => select.all().map((row) => JSON.parse(row.body)).length);
  database.close();
  return { appendsPerSecond, loadSeconds };
}

async function rawPostgres(schema, bodies) {
  const { default: pg } = await import(requireFromPostgres.resolve('pg').replace(/lib\/index\.js$/, 'esm/index.mjs'));
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  await pool.query(`CREATE TABLE "${schema}".raw_rows (sequence integer PRIMARY KEY, body text NOT NULL)`);
  const client = await pool.connect();
  const started = performance.now();
  for (let index = 0; index < RAW_ROWS; index += 1) {
    await client.query('BEGIN');
    await client.query(`INSERT INTO "${schema}".raw_rows (sequence, body) VALUES ($1, $2)`, [index + 1, bodies[index % bodies.length]]);
    await client.query('COMMIT');
  }
  const appendsPerSecond = RAW_ROWS / ((performance.now() - started) / 1000);
  await client.query(
    `INSERT INTO "${schema}".raw_rows (sequence, body) SELECT n, $1 FROM generate_series($2::integer, $3::integer) AS n`,
    [bodies[0], RAW_ROWS + 1, MESSAGES],
  );
  const loadSeconds = await timeLoads(
    async () => (await client.query(`SELECT sequence, body FROM "${schema}".raw_rows ORDER BY sequence`)).rows.map((row) => JSON.parse(row.body)).length,
  );
  client.release();
  await pool.end();
  return { appendsPerSecond, loadSeconds };
}

function line(name, store, raw) {
  const appends = `${store.appendsPerSecond.toFixed(0).padStart(7)} appends/s (raw driver ${raw.appendsPerSecond.toFixed(0)}/s, store/raw ${(store.appendsPerSecond / raw.appendsPerSecond).toFixed(2)})`;
  const load = `load 10,000 messages ${(store.loadSeconds * 1000).toFixed(0).padStart(5)} ms (raw ${(raw.loadSeconds * 1000).toFixed(0)} ms, store/raw ${(store.loadSeconds / raw.loadSeconds).toFixed(2)})`;
  console.log(`${name.padEnd(11)} ${appends}   ${load}`);
}

const turn = messages();
const bodies = turn.map((message) => JSON.stringify(message));
const directory = await mkdtemp(join(tmpdir(), 'ow-bench-stores-'));
const results = {};
try {
  const sqlite = await SqliteSessionStore.open({ openworkHome: directory });
  results.sqlite = { store: await measureStore(sqlite, turn), raw: await rawSqlite(join(directory, 'raw.sqlite'), bodies) };
  await sqlite.close();

  if (databaseUrl) {
    const schema = `ow_bench_${process.pid}`;
    const postgres = await PostgresSessionStore.connect({ connectionString: databaseUrl, schema });
    try {
      results.postgres = { store: await measureStore(postgres, turn), raw: await rawPostgres(schema, bodies) };
    } finally {
      await postgres.close();
      const { default: pg } = await import(requireFromPostgres.resolve('pg').replace(/lib\/index\.js$/, 'esm/index.mjs'));
      const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
      await pool.query(`DROP SCHEMA "${schema}" CASCADE`);
      await pool.end();
    }
  }
} finally {
  await rm(directory, { recursive: true, force: true });
}

console.log(`session stores: ${turn.length} messages appended one by one (complete tool turns), then loaded (median of ${LOAD_ROUNDS})`);
line('SQLite', results.sqlite.store, results.sqlite.raw);
if (results.postgres) {
  line('PostgreSQL', results.postgres.store, results.postgres.raw);
  console.log(
    `PostgreSQL/SQLite: appends ${(results.postgres.store.appendsPerSecond / results.sqlite.store.appendsPerSecond).toFixed(2)}x, ` +
      `load time ${(results.postgres.store.loadSeconds / results.sqlite.store.loadSeconds).toFixed(2)}x`,
  );
} else {
  console.log('PostgreSQL  skipped: set TEST_DATABASE_URL (or OPENWORK_DATABASE_URL) to a throwaway database');
}
