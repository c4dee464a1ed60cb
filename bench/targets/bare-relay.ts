/**
 * The live-progress ceiling: QueueEvents 'progress' → Socket.IO room of the job's owner, nothing else
 * (no auth, no job re-read). Clients connect with `auth: { uid }`; the owner rides in the job id.
 */
import { createServer } from 'node:http';
import { Server } from 'socket.io';
import { QueueEvents } from 'bullmq';
import { connectRedis } from '@mediagen/core';

const http = createServer();
const io = new Server(http, { serveClient: false });
io.on('connection', (socket) => {
  void socket.join(String((socket.handshake.auth as { uid?: string }).uid));
});
const connection = await connectRedis(process.env.REDIS_URL!, 'blocking');
const events = new QueueEvents(process.env.QUEUE_NAME!, { connection, prefix: process.env.QUEUE_PREFIX! });
await events.waitUntilReady();
events.on('progress', ({ jobId, data }) => {
  const uid = jobId.split('.')[1]!;
  io.to(uid).emit('generation:update', { id: jobId, progress: data });
});
http.listen(Number(process.env.PORT), '127.0.0.1', () => console.log(`listening ${process.env.PORT}`));
