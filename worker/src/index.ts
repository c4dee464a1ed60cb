export { loadWorkerConfig, type WorkerConfig } from './config';
export { startGenerationWorkers, type GenerationWorkers } from './generation-workers';
export { WorkerMetrics } from './observability/worker-metrics';
export { startMetricsServer, type MetricsServer } from './observability/metrics-server';
export { markOutput, type MarkedOutput } from './marking';
export { runFfmpeg } from './marking/ffmpeg';
export { StabilityClient } from './providers/stability-client';
