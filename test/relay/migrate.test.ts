// `svc-relay migrate --from <sqlite file> --to <postgres url>`: an existing SQLite relay's data
// moves to PostgreSQL whole (event ids kept, library order kept, callback tokens still valid),
// and the command refuses what would lose or mix data.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { SqliteStore } from '../../src/relay/store/sqlite.js';
import { PostgresStore } from '../../src/relay/store/postgres.js';
import { hashToken } from '../../src/relay/upload-tokens.js';
import { RELAY_BIN, runCli } from '../support/cli.js';
import { freshDatabase, postgresAvailable, SKIP_LINE } from '../support/postgres.js';

const migrate = (args: string[]) => runCli(RELAY_BIN, ['migrate', ...args], {}, tmpdir());

describe('svc-relay migrate', { skip: !postgresAvailable() && SKIP_LINE }, () => {
  let file: string;
  let seqs: number[];
  const opened: PostgresStore[] = [];
  after(() => Promise.all(opened.map((store) => store.close())));

  before(async () => {
    file = join(mkdtempSync(join(tmpdir(), 'svc-migrate-')), 'relay.db');
    const source = new SqliteStore(file);
    seqs = [];
    seqs.push((await source.createUpload({ id: 'up_done', owner: 'alice', source: 'a.mp4', tokenHash: hashToken('t-done') })).event.seq);
    seqs.push((await source.markUploaded('up_done')).event!.seq);
    const done = await source.completeUpload(hashToken('t-done'), { id: 'v1', title: 'First' });
    seqs.push(done.status === 'stored' ? done.event.seq : -1);
    seqs.push((await source.createUpload({ id: 'up_open', owner: 'bob', source: 'b.mp4', tokenHash: hashToken('t-open') })).event.seq);
    await source.addContent({ type: 'playlist', id: 'p1', owner: 'alice', title: 'List' });
    await source.addContent({ type: 'channel', id: 'c1', owner: 'alice', title: 'Live' });
    await source.savePlaylistTypes('p1', [{ id: 'v1', type: 'vod' }, { id: 'x9', type: 'channel' }]);
    await source.close();
  });

  it('copies every table into an empty database, keeping event ids and the library order', async () => {
    const url = await freshDatabase();
    const { code, stdout, stderr } = await migrate(['--from', file, '--to', url]);
    assert.equal(code, 0, stderr);
    const line = JSON.parse(stdout.trim());
    assert.deepEqual(line, { event: 'migrated', from: file, uploads: 2, content: 3, events: 4, playlist_item_types: 2 });
    const store = new PostgresStore(url);
    opened.push(store);
    await store.ready;
    assert.deepEqual((await store.eventsAfter('alice', 0)).map((e) => [e.seq, e.data.state]), [[seqs[0], 'signed'], [seqs[1], 'processing'], [seqs[2], 'ready']]);
    assert.deepEqual((await store.eventsAfter('bob', 0)).map((e) => e.seq), [seqs[3]]);
    assert.deepEqual((await store.library('alice', { limit: 10 })).items.map((r) => `${r.type}:${r.id}`), ['channel:c1', 'playlist:p1', 'vod:v1']);
    const done = (await store.getUpload('up_done'))!;
    assert.deepEqual([done.owner, done.source, done.state, done.vodId, done.vodTitle], ['alice', 'a.mp4', 'ready', 'v1', 'First']);
    assert.deepEqual([...(await store.playlistTypes('p1'))].sort(), [['v1', 'vod'], ['x9', 'channel']]);
    // Callback tokens still work: a repeat is a duplicate, the open upload completes, with a new id after the old ones.
    assert.equal((await store.completeUpload(hashToken('t-done'), { id: 'v1', title: 'First' })).status, 'duplicate');
    const completed = await store.completeUpload(hashToken('t-open'), { id: 'v2', title: 'Second' });
    assert.equal(completed.status, 'stored');
    assert.ok(completed.status === 'stored' && completed.event.seq > Math.max(...seqs), 'the id sequence continues after the copied ids');
  });

  it('refuses a database that already holds relay data, and changes nothing', async () => {
    const url = await freshDatabase();
    assert.equal((await migrate(['--from', file, '--to', url])).code, 0);
    const again = await migrate(['--from', file, '--to', url]);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /already holds relay data/);
    const store = new PostgresStore(url);
    opened.push(store);
    assert.equal((await store.eventsAfter('alice', 0)).length, 3);
  });

  it('checks every row: a row the relay could not read stops the move with its table and row, and nothing is copied', async () => {
    const corruptions: [string, string, RegExp][] = [
      ['an event whose data is not JSON', `UPDATE events SET data = '{"upload_id":' WHERE seq = ${seqs[1]}`, /table events, row 2 .*data is not JSON/],
      ['an event whose data is not an upload state', `UPDATE events SET data = '{"upload_id":"up_done","state":"hacked"}' WHERE seq = ${seqs[2]}`, /table events, row 3 .*data\.(source|state)/],
      ['an event with a negative id', `UPDATE events SET seq = -5 WHERE seq = ${seqs[3]}`, /table events, row 1 .*seq/],
      ['an unknown upload state', `UPDATE uploads SET state = 'deleted' WHERE id = 'up_open'`, /table uploads, row 2 .*state/],
      ['a token hash that is not a SHA-256', `UPDATE uploads SET token_hash = x'00' WHERE id = 'up_open'`, /table uploads, row 2 .*token_hash must be a SHA-256/],
      ['an unknown content type', `UPDATE content SET type = 'script' WHERE id = 'c1'`, /table content, row 3 .*type/],
      ['a content date that is not a date', `UPDATE content SET created_at = 'yesterday' WHERE id = 'p1'`, /table content, row 2 .*created_at must be an ISO date/],
      ['an item type that is neither vod nor channel', `UPDATE playlist_item_types SET type = 'playlist' WHERE item_id = 'x9'`, /table playlist_item_types, row \d .*type/],
    ];
    for (const [what, sql, message] of corruptions) {
      const copy = join(mkdtempSync(join(tmpdir(), 'svc-migrate-bad-')), 'relay.db');
      copyFileSync(file, copy);
      const db = new Database(copy);
      db.exec(sql);
      db.close();
      const url = await freshDatabase();
      const run = await migrate(['--from', copy, '--to', url]);
      assert.equal(run.code, 1, `${what}: ${run.stdout}`);
      assert.match(run.stderr, message, what);
      assert.match(run.stderr, /nothing was copied/, what);
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      try {
        for (const table of ['uploads', 'content', 'events', 'playlist_item_types']) {
          assert.equal((await admin.query(`SELECT count(*)::int AS n FROM ${table}`)).rows[0].n, 0, `${what}: ${table} is empty`);
        }
      } finally {
        await admin.end();
      }
    }
  });

  it('explains a missing file, a wrong URL and missing arguments (exit 1), never printing the URL', async () => {
    const url = (await freshDatabase()).replace('postgres@', 'postgres:s3cret-pw@');
    const missing = await migrate(['--from', '/nonexistent/relay.db', '--to', url]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /no SQLite file at \/nonexistent\/relay\.db/);
    const wrong = await migrate(['--from', file, '--to', 'mysql://x']);
    assert.equal(wrong.code, 1);
    assert.match(wrong.stderr, /--to must be a postgres:\/\/ or postgresql:\/\/ URL/);
    const usage = await migrate(['--from', file]);
    assert.equal(usage.code, 1);
    assert.match(usage.stderr, /usage: svc-relay migrate --from <sqlite file> --to <postgres:/);
    for (const run of [missing, wrong, usage]) assert.ok(!run.stderr.includes('s3cret-pw') && !run.stdout.includes('s3cret-pw'));
  });
});
