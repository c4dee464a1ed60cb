import type { FastifyPluginAsync, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { hasBearerToken } from '../bearerToken';
import type { ProviderGate } from '../faults/providerGate';
import { describeRequestError } from '../requestError';
import { authFailed, downloadFaultReplies, invalidParams, SUCCESS, videoFaultReplies } from './miniMaxErrors';
import { videoRequestProblem } from './validateVideoRequest';
import type { VideoTaskStore } from './videoTaskStore';

interface MiniMaxRoutesDeps {
  gate: ProviderGate;
  tasks: VideoTaskStore;
  video: Buffer;
  onTaskCreated(): void;
}

const DEFAULT_UNKNOWN_STATUS = 'Mystery';
/** A finished task reports its video's size; the fixture is 320×180 whatever the request asked for. */
const FIXTURE_SIZE = { video_width: 320, video_height: 180 };
const DOWNLOAD_PATH = '/sim-files/:fileId/output.mp4';
const downloadPath = (fileId: string) => DOWNLOAD_PATH.replace(':fileId', encodeURIComponent(fileId));

/** Like every MiniMax error, a missing key is an HTTP 200 with the code (1004) in `base_resp`. */
const requireKey: preHandlerAsyncHookHandler = async (request, reply) => {
  if (!hasBearerToken(request)) return reply.code(200).send(authFailed());
};

/**
 * MiniMax video: create a task, poll it, retrieve its file, download the file. Unknown task and file ids
 * answer the way MiniMax answers bad input: HTTP 200 with status_code 2013. File retrieval takes only
 * the file id (the GroupId older accounts sent is accepted and ignored).
 */
export function miniMaxRoutes({ gate, tasks, video, onTaskCreated }: MiniMaxRoutesDeps): FastifyPluginAsync {
  return async (app) => {
    app.setErrorHandler((error, _request, reply) => {
      const { statusCode: status, message } = describeRequestError(error);
      if (status >= 500) return reply.code(500).send(videoFaultReplies.serverError());
      return reply.code(200).send(invalidParams(message));
    });

    app.post(
      '/v1/video_generation',
      { onRequest: gate.guard('video.create', videoFaultReplies, 'minimax'), preHandler: requireKey },
      async (request) => {
        const problem = videoRequestProblem(request.body);
        if (problem) return invalidParams(problem);
        const task = tasks.create(request.body as Record<string, unknown>);
        onTaskCreated();
        return { task_id: task.taskId, ...SUCCESS };
      },
    );

    app.get(
      '/v1/query/video_generation',
      { onRequest: gate.guard('video.query', videoFaultReplies), preHandler: requireKey },
      async (request) => {
        const taskId = queryParam(request, 'task_id');
        const statusFault = gate.routeFaultOf(request);
        if (statusFault) {
          const status = statusFault.fault === 'fail-status' ? 'Fail' : (statusFault.status ?? DEFAULT_UNKNOWN_STATUS);
          return { task_id: taskId ?? '', status, ...SUCCESS };
        }
        if (!taskId) return invalidParams('task_id is required');
        const task = tasks.find(taskId);
        if (!task) return invalidParams(`task_id ${taskId} not found`);
        const status = tasks.statusOf(task);
        const done = status === 'Success' ? { file_id: task.fileId, ...FIXTURE_SIZE } : {};
        return { task_id: task.taskId, status, ...done, ...SUCCESS };
      },
    );

    app.get(
      '/v1/files/retrieve',
      { onRequest: gate.guard('video.file', videoFaultReplies), preHandler: requireKey },
      async (request) => {
        const fileId = queryParam(request, 'file_id');
        if (!fileId) return invalidParams('file_id is required');
        const task = tasks.findFinishedByFile(fileId);
        if (!task) return invalidParams(`file ${fileId} not found`);
        return {
          file: {
            file_id: task.fileId,
            bytes: video.length,
            created_at: Math.floor(task.createdAtMs / 1000),
            filename: 'output.mp4',
            purpose: 'video_generation',
            download_url: `${request.protocol}://${request.host}${downloadPath(task.fileId)}`,
          },
          ...SUCCESS,
        };
      },
    );

    // Stands for MiniMax's pre-signed CDN link, which needs no key.
    app.get<{ Params: { fileId: string } }>(
      DOWNLOAD_PATH,
      { onRequest: gate.guard('video.download', downloadFaultReplies) },
      async (request, reply) => {
        if (!tasks.findFinishedByFile(request.params.fileId)) {
          return reply.code(404).type('text/plain').send('Not Found');
        }
        // Object storage often labels a file by its bytes, not its kind: the `untyped-video` fault.
        const untyped = gate.routeFaultOf(request)?.fault === 'untyped-video';
        return reply.type(untyped ? 'application/octet-stream' : 'video/mp4').send(video);
      },
    );
  };
}

function queryParam(request: FastifyRequest, name: string): string | undefined {
  const value = (request.query as Record<string, unknown>)[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}
