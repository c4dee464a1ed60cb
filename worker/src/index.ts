export { loadWorkerConfig, type WorkerConfig } from './config';
export { startGenerationWorkers, type GenerationWorkers } from './generation-workers';
