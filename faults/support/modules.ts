/**
 * bench/ and faults/ are not workspace packages, so bare imports of the server's dependencies do not
 * resolve from here. These are the very files the server and worker load (pnpm links them to one
 * store path), so classes and instanceof checks are shared.
 */
export { Queue, QueueEvents, type Job } from '../../server/node_modules/bullmq/dist/esm/index.js';
export { io as connectSocket, type Socket } from '../../server/node_modules/socket.io-client/build/esm/index.js';
