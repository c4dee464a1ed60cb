import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';

/**
 * The ffmpeg the worker runs: FFMPEG_PATH when set, else the static build shipped inside the
 * `@ffmpeg-installer` npm package (so a fresh clone needs nothing installed), else `ffmpeg` on PATH.
 */
function resolveFfmpeg(): string {
  if (process.env.FFMPEG_PATH) return process.env.FFMPEG_PATH;
  try {
    const installer = createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string };
    return installer.path;
  } catch {
    return 'ffmpeg';
  }
}

const FFMPEG = resolveFfmpeg();
/** Stderr lines kept for the error of a failed run: the reason is at the end. */
const STDERR_TAIL_LINES = 6;

export class FfmpegError extends Error {
  override readonly name = 'FfmpegError';
}

/** Runs ffmpeg (no shell) and resolves when it exits 0; rejects with the end of its stderr otherwise. */
export function runFfmpeg(args: readonly string[], timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(
      FFMPEG,
      ['-hide_banner', '-loglevel', 'error', '-y', ...args],
      { timeout: timeoutMs, maxBuffer: 4 * 1024 * 1024 },
      (error, _stdout, stderr) => {
        if (error === null) return resolve();
        const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
        const tail = stderr.trim().split('\n').slice(-STDERR_TAIL_LINES).join('\n');
        reject(
          new FfmpegError(
            missing
              ? `ffmpeg not found at ${FFMPEG}: set FFMPEG_PATH or install ffmpeg`
              : `ffmpeg failed (${error.killed ? `timed out after ${timeoutMs} ms` : `exit ${String(error.code)}`}): ${tail}`,
          ),
        );
      },
    );
  });
}
