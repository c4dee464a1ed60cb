/**
 * The enqueue ceiling: a bare Fastify route that records one row in PostgreSQL and does one BullMQ add,
 * with no auth, quota, validation or idempotency: what any design backed by a record and a queue pays.
 */
import Fastify from 'fastify';
import { Queue } from 'bullmq';
import pg from 'pg';
import { connectRedis } from '@mediagen/core';

const redis = await connectRedis(process.env.REDIS_URL!, 'producer');
const queue = new Queue('bare-enqueue', { connection: redis, prefix: process.env.QUEUE_PREFIX! });
// As many connections as the server's pool, so both wait on PostgreSQL alike.
const database = new pg.Pool({ connectionString: process.env.DATABASE_URL!, max: 10 });
await database.query(
  'create table if not exists bare_enqueue (id text primary key, body jsonb not null, created_at timestamptz not null)',
);
const app = Fastify({ logger: false });
let counter = 0;
app.post('/enqueue', async (request, reply) => {
  const id = `bare_${process.pid}_${counter++}`;
  await database.query('insert into bare_enqueue (id, body, created_at) values ($1, $2, now())', [id, request.body]);
  await queue.add('bare', { body: request.body, createdAt: Date.now() }, { jobId: id, removeOnComplete: true });
  return reply.status(202).send({ id, status: 'queued' });
});
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
console.log(`listening ${process.env.PORT}`);
