/**
 * Peaks of recordings, computed in main (issue 5 "Peaks off the renderer").
 * STUB: the interface is fixed; the implementation is being written.
 */
import type { RecordingPeaks } from '../../shared/contract';
import { ApiError } from '../../shared/errors';
import type { RecordingLocation } from '../recording-protocol';

/** Computes (or reads from the disk cache) the peaks of an interaction's recording. */
export interface PeaksService {
  /**
   * Peaks and exact duration of the recording of interaction `sid`.
   * @throws ApiError kind 'not_found' when the interaction has no playable recording,
   *   'invalid_response' when the audio cannot be decoded, 'network'/'timeout'/'server' when it
   *   cannot be downloaded.
   */
  get(sid: string): Promise<RecordingPeaks>;
}

/** Options of {@link createPeaksService}. */
export interface PeaksServiceOptions {
  /** Where an interaction's recording is (the session's `locateRecording`). */
  locate(sid: string): Promise<RecordingLocation | null>;
  /** Folder of the disk cache, or null for no disk cache. */
  cacheDir: string | null;
  /** Size cap of the disk cache, in bytes. */
  cacheMaxBytes?: number;
  fetch?: typeof fetch;
  /** Time allowed for the recording server to start answering, in milliseconds. */
  timeoutMs?: number;
}

/** Creates the peaks service. */
export function createPeaksService(options: PeaksServiceOptions): PeaksService {
  void options;
  return {
    async get() {
      throw new ApiError({ kind: 'server', message: 'Waveform peaks are not available yet.' });
    },
  };
}
