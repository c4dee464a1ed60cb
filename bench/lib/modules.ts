/** Not a workspace package: the server's own copies of its dependencies (see faults/support/modules.ts). */
export { Queue, QueueEvents, Worker, type Job } from '../../server/node_modules/bullmq/dist/esm/index.js';
export { io as connectSocket, type Socket } from '../../server/node_modules/socket.io-client/build/esm/index.js';
