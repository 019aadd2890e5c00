/**
 * Making an evidence pack (evidence-pack-files.ts) for the renderer: reads the call, its review
 * record and the PII rules, decodes the range of the recording from the run's recording cache
 * (clip-decode.ts: only the range is kept), asks main's save dialog where the pack's folder goes
 * (the suggested name is the folder's), and writes it. One pack at a time per call; its stage
 * is asked for by polling.
 */
import { basename } from 'node:path';
import type { EvidencePackProgress, SaveResult } from '$shared/contract';
import { ApiError } from '$shared/errors';
import type { EvidencePackRequest } from '$shared/evidence-pack-request';
import type { RedactionSettings } from '$shared/redaction';
import type { ReviewRecord } from '$shared/reviews';
import type { ParsedInteraction } from '../api/schemas';
import { RecordingError } from '../api/recording-errors';
import type { RecordingCache } from '../recordings/recording-cache';
import { playableLocation, type RecordingLocation } from '../recordings/recording-location';
import { decodeRange } from './clip-decode';
import type { DecodedAudio } from './clip-wav';
import { buildEvidencePack, writeEvidencePack } from './evidence-pack-files';
import { chooseSavePath, saveFailed, type SavePathChooser } from './save-dialog';

/** What the pack needs from the rest of main. */
export interface EvidencePackDeps {
  lookUpInteraction(sid: string): Promise<ParsedInteraction>;
  workspaceName(): string | null;
  locateRecording(sid: string): Promise<RecordingLocation | null>;
  /** The exact duration of `sid`'s decoded recording, in seconds, when the peaks are known. */
  decodedDurationSeconds(sid: string): number | null;
  recordings: RecordingCache;
  /** The call's review record (checked against the active workspace), or null. */
  record(workspaceId: string, sid: string): ReviewRecord | null;
  redaction(): Promise<RedactionSettings>;
  choosePath?: SavePathChooser;
}

/** See {@link createEvidencePackService}. */
export interface EvidencePackService {
  make(request: EvidencePackRequest): Promise<SaveResult>;
  /** The stage of the pack of `sid` being made, or null when none is. */
  progress(sid: string): EvidencePackProgress | null;
}

/** Creates the evidence pack maker. */
export function createEvidencePackService(deps: EvidencePackDeps): EvidencePackService {
  const running = new Map<string, EvidencePackProgress>();

  async function decodeAudio(
    request: EvidencePackRequest,
    interaction: ParsedInteraction,
  ): Promise<{ audio: DecodedAudio | null; problem: string | null }> {
    if (interaction.recordingUrl === null) return { audio: null, problem: 'this call has no recording.' };
    const location = await deps.locateRecording(request.sid);
    if (!location) return { audio: null, problem: 'the recording could not be located.' };
    const playable = playableLocation(location);
    if (playable instanceof RecordingError) return { audio: null, problem: playable.message };
    try {
      const cached = deps.recordings.open(playable);
      await cached.head;
      const decoded = await decodeRange(cached.stream(0), request.range);
      return { audio: decoded, problem: null };
    } catch (err) {
      if (err instanceof ApiError) return { audio: null, problem: err.message };
      return { audio: null, problem: 'the recording could not be read.' };
    }
  }

  async function make(request: EvidencePackRequest, stage: EvidencePackProgress): Promise<SaveResult> {
    const interaction = await deps.lookUpInteraction(request.sid);
    const record = deps.record(request.workspaceId, request.sid);
    const redaction = await deps.redaction();
    stage.stage = 'audio';
    const { audio, problem } = await decodeAudio(request, interaction);
    const recordingEndSeconds = deps.decodedDurationSeconds(request.sid) ?? interaction.durationSeconds;
    const pack = buildEvidencePack({
      request,
      workspaceName: deps.workspaceName() ?? '',
      log: interaction.log,
      recordingEndSeconds,
      audio,
      audioProblem: problem,
      record,
      redaction,
    });
    stage.stage = 'choosing';
    const target = await chooseSavePath(deps.choosePath, {
      title: 'Save evidence pack (a new folder)',
      defaultName: pack.folderName,
      filters: [],
    });
    if (target === null) return { saved: null };
    stage.stage = 'writing';
    try {
      await writeEvidencePack(target, pack);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException | null)?.code;
      if (code === 'EEXIST') {
        throw new ApiError({
          kind: 'bad_input',
          message: `A folder named "${basename(target)}" is already there. Choose another name: an earlier pack is never overwritten.`,
        });
      }
      throw saveFailed(basename(target), err);
    }
    return { saved: basename(target) };
  }

  return {
    async make(request) {
      if (running.has(request.sid)) {
        throw new ApiError({
          kind: 'bad_input',
          message: 'An evidence pack of this call is already being made. Wait for it to finish.',
        });
      }
      const stage: EvidencePackProgress = { stage: 'reading' };
      running.set(request.sid, stage);
      try {
        return await make(request, stage);
      } finally {
        running.delete(request.sid);
      }
    },
    progress: (sid) => {
      const stage = running.get(sid);
      return stage ? { ...stage } : null;
    },
  };
}
