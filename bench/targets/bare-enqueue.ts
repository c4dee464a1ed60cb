/** The enqueue ceiling: a bare Fastify route that does one BullMQ add, no auth, quota or validation. */
import Fastify from 'fastify';
import { Queue } from 'bullmq';
import { connectRedis } from '@mediagen/core';

const redis = await connectRedis(process.env.REDIS_URL!, 'producer');
const queue = new Queue('bare-enqueue', { connection: redis, prefix: process.env.QUEUE_PREFIX! });
const app = Fastify({ logger: false });
let counter = 0;
app.post('/enqueue', async (request, reply) => {
  const id = `bare_${process.pid}_${counter++}`;
  await queue.add('bare', { body: request.body, createdAt: Date.now() }, { jobId: id, removeOnComplete: true });
  return reply.status(202).send({ id, status: 'queued' });
});
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
console.log(`listening ${process.env.PORT}`);
