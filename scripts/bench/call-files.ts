/**
 * The benchmark's recording files (scripts/bench/calls.ts says what each is), generated with
 * Debian's espeak-ng, sox and ffmpeg and cached under `os.tmpdir()`: a rerun finds them there and
 * generates nothing. Nothing here is committed (the 2-hour WAV alone is 115 MB).
 * - A plain call is test/fixtures/long-call.ts's `generateRecording` (MP3 or WAV).
 * - A transcoded call is that recording encoded once more by ffmpeg as
 *   test/fixtures/call-formats.ts encodes its fixtures (WebM/Opus, M4A/AAC), kept in that
 *   module's cache folder and made again when its source is newer.
 */
import { existsSync, statSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { describeEncoding, encodeWithFfmpeg } from '../../test/fixtures/call-formats';
import { generateRecording } from '../../test/fixtures/long-call';
import { CALLS, type CallName } from './calls';

/**
 * The file of `call`, generated if it is not in the cache yet (a 2-hour WAV takes some seconds, a
 * 3-minute transcode about one).
 * @returns its absolute path
 * @throws Error when espeak-ng, sox or ffmpeg is missing or fails
 */
export async function callFile(call: CallName): Promise<string> {
  const { recording, transcode } = CALLS[call];
  const source = await generateRecording(recording);
  if (!transcode) return source;
  const { file } = describeEncoding(transcode, `bench-${basename(source, extname(source))}`);
  if (!existsSync(file) || statSync(file).mtimeMs < statSync(source).mtimeMs)
    await encodeWithFfmpeg(source, transcode, file);
  return file;
}
