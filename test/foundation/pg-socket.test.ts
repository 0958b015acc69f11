import assert from 'node:assert/strict';
import { once } from 'node:events';
import net from 'node:net';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { createDb, createPool, type Db } from '../../src/db/client.js';
import { pgSocket, wholeMessages } from '../../src/db/pg-socket.js';
import { createTestDatabase } from '../helpers/app.js';

/** A protocol message: type byte, 32-bit length (itself and the body), body. */
function message(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head.write(type, 0, 'latin1');
  head.writeUInt32BE(4 + body.length, 1);
  return Buffer.concat([head, body]);
}

test('the socket hands on whole messages only, however the reads cut them, and every byte once', async () => {
  const big = Buffer.alloc(200_000);
  for (let i = 0; i < big.length; i++) big[i] = (i * 7) % 251;
  const messages = [
    message('R', Buffer.from([0, 0, 0, 0])), // AuthenticationOk
    message('Z', Buffer.from('I')), // ReadyForQuery
    message('T', Buffer.from('row description')),
    message('D', big), // bigger than a read and than the held buffer at first
    ...Array.from({ length: 300 }, (_, i) => message('D', Buffer.from(`row ${i} ${'x'.repeat(i % 40)}`))),
    message('C', Buffer.from('SELECT 301\0')),
    message('Z', Buffer.from('I')),
  ];
  const stream = Buffer.concat(messages);
  // cuts inside a type byte's message, inside a length, one byte at a time, across the big one
  const cuts = [1, 3, 6, 9, 10, 11, 17, 40, 5000, 70_000, 150_000, 210_000, stream.length - 2, stream.length];
  const server = net.createServer(async (conn) => {
    let from = 0;
    for (const to of cuts) {
      conn.write(stream.subarray(from, to));
      from = to;
      await sleep(5); // each piece its own read
    }
    conn.end();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const socket = pgSocket({});
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => {
      assert.equal(wholeMessages(chunk).end, chunk.length, 'a chunk of whole messages');
      chunks.push(Buffer.from(chunk)); // the socket reads into its buffer again after the event
    });
    socket.connect((server.address() as net.AddressInfo).port, '127.0.0.1');
    await once(socket, 'end');
    assert.ok(chunks.length >= 2, `${chunks.length} chunks`); // the big message alone takes several reads
    assert.ok(Buffer.concat(chunks).equals(stream), 'the bytes as sent');
  } finally {
    server.close();
  }
});

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Db;

before(async () => {
  database = await createTestDatabase();
  db = createDb(createPool(database.url, { max: 2 }));
});

after(async () => {
  await db.destroy();
  await database.drop();
});

test('rows, big values cut across reads and errors arrive through it intact', async () => {
  // 300 KB values of two-byte characters: messages and characters cut by reads
  const { rows: big } = await sql<{ g: number; t: string }>`SELECT g, repeat('é' || g, 100000) AS t FROM generate_series(1, 3) g`.execute(db);
  assert.deepEqual(big.map((r) => r.t.length), [200_000, 200_000, 200_000]);
  for (const r of big) assert.equal(r.t, `é${r.g}`.repeat(100_000));
  const { rows: many } = await sql<{ g: number; h: string }>`SELECT g, md5(g::text) AS h FROM generate_series(1, 20000) g`.execute(db);
  assert.equal(many.length, 20_000);
  const { rows: [check] } = await sql<{ h: string }>`SELECT md5(12345::text) AS h`.execute(db);
  assert.equal(many[12_344].h, check.h);
  await assert.rejects(sql`SELECT 1 / 0`.execute(db), (err: { code?: string }) => err.code === '22012');
  const { rows: [after] } = await sql<{ one: number }>`SELECT 1 AS one`.execute(db);
  assert.equal(after.one, 1);
});
