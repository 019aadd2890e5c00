/**
 * Where an interaction's recording is: its workspace, its `recording_url` (spec §2) as the server
 * sent it, the fetcher that may fetch it (from the workspace's API client, which holds the key) and
 * where its problems are reported. The recording protocol, the run's recording cache, the peaks
 * service and the exports all take a location; only a {@link PlayableLocation} (an absolute http(s)
 * URL) is ever fetched.
 */
import type { RecordingProblem } from '$shared/contract';
import type { ApiClient } from '../api/client';
import type { RecordingFetcher } from '../api/recording-fetcher';
import { problemOf, RecordingError } from '../api/recording-errors';

/** What the handler (and the peaks service) needs to know about an interaction's recording. */
export interface RecordingLocation {
  /** The workspace the interaction was looked up in. */
  workspaceId: string;
  /** `recording_url` as the server sent it, or null when the interaction has none. */
  recordingUrl: string | null;
  /** The fetcher of a recording URL, from the workspace's API client (which holds the key). */
  fetcher: (recordingUrl: string) => RecordingFetcher;
  /** Remembers the recording's last problem for (workspace, SID); null when an attempt worked. */
  report: (problem: RecordingProblem | null) => void;
}

/**
 * The location of `recordingUrl` in workspace `workspaceId`, fetched through `client` (its key,
 * timeout and rules); problems go to `report` (default: nowhere).
 */
export function recordingLocation(
  client: Pick<ApiClient, 'recording'>,
  recordingUrl: string | null,
  workspaceId: string,
  report: (problem: RecordingProblem | null) => void = () => undefined,
): RecordingLocation {
  return { workspaceId, recordingUrl, fetcher: (url) => client.recording(url), report };
}

/** A location whose recording URL passed {@link recordingUrlProblem} (an absolute http(s) URL). */
export type PlayableLocation = RecordingLocation & { recordingUrl: string };

/**
 * Why a recording URL cannot be played, or null when it can: only absolute `http:`/`https:`
 * URLs are fetched (no `file:`, `data:` or custom schemes from a server's data).
 */
export function recordingUrlProblem(recordingUrl: string | null): string | null {
  if (recordingUrl === null || recordingUrl.trim() === '') return 'This interaction has no recording.';
  let url: URL;
  try {
    url = new URL(recordingUrl);
  } catch {
    return 'The recording address sent by the service is not a valid URL.';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return `The recording address uses "${url.protocol}", which Voice Review does not open (only http and https).`;
  }
  return null;
}

/**
 * `location` when its recording can be fetched, else the `no_recording` error saying why (also
 * reported to the location, for the player and the waveform alike).
 */
export function playableLocation(location: RecordingLocation): PlayableLocation | RecordingError {
  const problem = recordingUrlProblem(location.recordingUrl);
  if (problem === null && location.recordingUrl !== null) return { ...location, recordingUrl: location.recordingUrl };
  const error = new RecordingError('no_recording', problem ?? 'This interaction has no recording.');
  location.report(problemOf(error));
  return error;
}
