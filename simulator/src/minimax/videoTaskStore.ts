import { randomInt } from 'node:crypto';

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

  constructor(
    private readonly timings: VideoTimings,
    private readonly now: () => number = Date.now,
  ) {}

  create(): VideoTask {
    const task: VideoTask = { taskId: numericId(), fileId: numericId(), createdAtMs: this.now() };
    this.tasks.set(task.taskId, task);
    this.tasksByFile.set(task.fileId, task);
    return task;
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
