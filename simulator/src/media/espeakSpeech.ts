import { spawn } from 'node:child_process';

const ESPEAK_TIMEOUT_MS = 20_000;
const ESPEAK_DEFAULT_WORDS_PER_MINUTE = 175;
// espeak-ng's own limits on -s.
const ESPEAK_MIN_WPM = 80;
const ESPEAK_MAX_WPM = 450;

class EspeakMissingError extends Error {
  override name = 'EspeakMissingError';
}

// Whether espeak-ng is installed is a property of the machine, so one failed spawn settles it for good.
let espeakMissing = false;

/**
 * The input spoken by espeak-ng as a WAV file, or undefined when espeak-ng is not installed.
 * `variant` is an espeak voice variant (f1…f5 female, m1…m7 male), `language` an espeak voice name.
 */
export async function speakIfEspeakInstalled(
  input: string,
  variant: string,
  speed: number,
  language = 'en',
): Promise<Buffer | undefined> {
  if (espeakMissing) return undefined;
  try {
    return await speakWithEspeak(input, variant, speed, language);
  } catch (error) {
    if (!(error instanceof EspeakMissingError)) throw error;
    espeakMissing = true;
    return undefined;
  }
}

/**
 * Speaks the input with espeak-ng as a WAV file. The text goes through stdin, never argv, so input that
 * starts with "-" is not read as an option. Rejects with EspeakMissingError when espeak-ng is not on PATH.
 */
function speakWithEspeak(input: string, variant: string, speed: number, language: string): Promise<Buffer> {
  const wordsPerMinute = Math.round(
    Math.min(ESPEAK_MAX_WPM, Math.max(ESPEAK_MIN_WPM, ESPEAK_DEFAULT_WORDS_PER_MINUTE * speed)),
  );
  return new Promise((resolve, reject) => {
    const child = spawn('espeak-ng', ['--stdout', '-v', `${language}+${variant}`, '-s', String(wordsPerMinute)], {
      stdio: ['pipe', 'pipe', 'ignore'],
      timeout: ESPEAK_TIMEOUT_MS,
      killSignal: 'SIGKILL',
    });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('error', (error: NodeJS.ErrnoException) => {
      reject(error.code === 'ENOENT' ? new EspeakMissingError('espeak-ng is not on PATH') : error);
    });
    child.on('close', (code, signal) => {
      if (code !== 0) {
        reject(new Error(`espeak-ng failed (${signal ? `killed by ${signal}` : `exit code ${code}`})`));
        return;
      }
      resolve(withRealWavSizes(Buffer.concat(chunks)));
    });
    // An early exit closes stdin; the close handler reports that, so the write error adds nothing.
    child.stdin.on('error', () => {});
    child.stdin.end(input);
  });
}

/**
 * espeak-ng writes to a pipe it cannot seek back in, so its RIFF and data sizes are placeholders
 * (0x7ffff000-ish); players cope, but a file with true sizes is one fewer surprise downstream.
 */
function withRealWavSizes(wav: Buffer): Buffer {
  const isCanonicalWav =
    wav.length >= 44 && wav.toString('ascii', 0, 4) === 'RIFF' && wav.toString('ascii', 36, 40) === 'data';
  if (!isCanonicalWav) return wav;
  wav.writeUInt32LE(wav.length - 8, 4);
  wav.writeUInt32LE(wav.length - 44, 40);
  return wav;
}
