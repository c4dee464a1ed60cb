import { randomInt } from 'node:crypto';
import type { VideoTaskRecord } from '../types';

/** How many tasks' requests are kept for videoTasks(): a long-running simulator keeps no more. */
const KEPT_REQUESTS = 200;

export interface VideoTask {
  taskId: string;
  fileId: string;
  createdAtMs: number;
}

export type VideoTaskStatus = 'Queueing' | 'Processing' | 'Success';

interface VideoTimings {
  queueingMs: number;
  processingMs: number;
}

/** Video tasks whose status is a function of their age, so no timers run and nothing needs cleaning up. */
export class VideoTaskStore {
  private readonly tasks = new Map<string, VideoTask>();
  private readonly tasksByFile = new Map<string, VideoTask>();
  private requests: VideoTaskRecord[] = [];

  constructor(
    private readonly timings: VideoTimings,
    private readonly now: () => number = Date.now,
  ) {}

  /** A task for a request the route has validated; what it asked for is kept for videoTasks(). */
  create(body: Record<string, unknown> = {}): VideoTask {
    const task: VideoTask = { taskId: numericId(), fileId: numericId(), createdAtMs: this.now() };
    this.tasks.set(task.taskId, task);
    this.tasksByFile.set(task.fileId, task);
    this.requests.push({
      taskId: task.taskId,
      model: String(body.model),
      prompt: body.prompt as string | undefined,
      duration: body.duration as number | undefined,
      resolution: body.resolution as string | undefined,
      promptOptimizer: body.prompt_optimizer as boolean | undefined,
      fastPretreatment: body.fast_pretreatment as boolean | undefined,
    });
    if (this.requests.length > KEPT_REQUESTS) this.requests = this.requests.slice(-KEPT_REQUESTS);
    return task;
  }

  /** The requests of the last tasks created, oldest first. */
  requested(): VideoTaskRecord[] {
    return this.requests.map((request) => ({ ...request }));
  }

  /** Forgets what the tasks asked for (the tasks themselves keep running). */
  clearRequests(): void {
    this.requests = [];
  }

  find(taskId: string): VideoTask | undefined {
    return this.tasks.get(taskId);
  }

  /** The task behind a file, only once the file exists (the task has succeeded). */
  findFinishedByFile(fileId: string): VideoTask | undefined {
    const task = this.tasksByFile.get(fileId);
    return task && this.statusOf(task) === 'Success' ? task : undefined;
  }

  statusOf(task: VideoTask): VideoTaskStatus {
    const ageMs = this.now() - task.createdAtMs;
    if (ageMs < this.timings.queueingMs) return 'Queueing';
    if (ageMs < this.timings.queueingMs + this.timings.processingMs) return 'Processing';
    return 'Success';
  }
}

/** MiniMax ids are long decimal strings. */
function numericId(): string {
  return `${Date.now()}${String(randomInt(0, 100_000)).padStart(5, '0')}`;
}
