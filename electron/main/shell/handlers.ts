/**
 * The handler table: one function per entry of the IPC contract (electron/shared/contract.ts).
 * Electron registers each on `ipcMain.handle`; the end-to-end harness calls the same table from
 * its `window.api` stand-in. Each handler validates its arguments with a schema and returns an
 * {@link IpcResult}: errors travel as data, never as exceptions.
 */
import { z } from 'zod';
import {
  PUSH_CHANNELS,
  type ApiMethod,
  type DeleteResult,
  type IpcResult,
  type RecordingSessionInfo,
  type UpdateStatePush,
} from '$shared/contract';
import type { Interaction } from '$shared/domain';
import { ApiError } from '$shared/errors';
import { REVIEW_QUEUE_MAX } from '$shared/review-queue';
import { isSid } from '$shared/sid';
import { TRANSCRIPT_FORMATS, type TranscriptFormat } from '$shared/transcript-export';
import {
  agentSidProblem,
  E164_HINT,
  isE164,
  REQUEST_TIMEOUT_SECONDS,
  terminationUriProblem,
  workspaceNameProblem,
} from '$shared/validation';
import { recordingUrlProblem } from '../recordings/recording-location';
import type { ApiClient } from '../api/client';
import type { EvidencePackService } from '../exports/evidence-pack-service';
import type { ExportsService } from '../exports/service';
import { reviewArgSchemas, reviewImplementations } from '../reviews/review-handlers';
import type { ReviewService } from '../reviews/review-service';
import { pagePeaksSchema } from '../peaks/page-peaks';
import type { PeaksService } from '../peaks/service';
import type { RecordingSessions } from '../recordings/recording-sessions';
import type { RecentCallsStore } from '../workspaces/recent-calls';
import type { ReviewQueueStore } from '../workspaces/review-queue';
import type { ActiveWorkspaceReads } from '../workspaces/active-workspace';
import type { Session } from '../workspaces/session';
import type { SecretClipboard } from './secret-clipboard';
import type { NetworkService, SignInBroker } from '../network/network-service';
import type { Diagnostics } from '../network/diagnostics-service';

/**
 * The frame an IPC call came from, as far as a handler needs it: a key naming it (Electron: its
 * process and routing ids) and a way to push to it alone (`WebFrameMain.send`; throws when the
 * frame is gone).
 */
export interface IpcCaller {
  frameKey: string;
  push(channel: string, payload: unknown): void;
}

/**
 * A handler: positional arguments as received over IPC (untrusted), and the calling frame when
 * known -> result as data.
 */
export type Handler = (args: unknown[], caller?: IpcCaller) => Promise<IpcResult<unknown>>;
/** The table: exactly one handler per contract method. */
export type HandlerTable = Record<ApiMethod, Handler>;

/** Options of {@link createHandlers}. */
export interface HandlerOptions {
  /** The workspace operations (connect, switch, rename, ...) and the session info. */
  session: Session;
  /** The active workspace's client, interactions and recordings. */
  activeWorkspace: ActiveWorkspaceReads;
  /** Peaks of recordings (decoded in main or, for formats main does not read, the page; cached on disk). */
  peaks: PeaksService;
  /** The recording sessions of the calls the page shows (everything about a recording, pushed). */
  recordingSessions: RecordingSessions;
  /** URL the renderer uses for an interaction's recording (protocol URL in Electron, loopback in the harness). */
  recordingSrc: (sid: string) => string;
  /** Transcript exports and recording downloads through main's save dialog. */
  exports: ExportsService;
  /** The recent calls list (a call is filed once its lookup succeeded). */
  recentCalls: RecentCallsStore;
  /** The review queue of each workspace. */
  reviewQueue: ReviewQueueStore;
  /** Review records, rubrics, PII rules and the Reviews export. */
  reviews: ReviewService;
  /** Evidence packs through main's save dialog. */
  evidencePacks: EvidencePackService;
  /** Called with unexpected (non-ApiError) failures, for the log. Must not include secrets. */
  onUnexpected?: (method: ApiMethod, err: unknown) => void;
  /** The clipboard secrets are copied to (and cleared from); without it `copySecret` is refused. */
  secretClipboard?: SecretClipboard | undefined;
  /** Settings → Network and the proxy sign-in sheet's answers. */
  network: NetworkService & Pick<SignInBroker, 'answer'>;
  /** Diagnostics for IT. */
  diagnostics: Diagnostics;
  /** The app's updates; null where they are not run (development, the harness). */
  updates: () => UpdatesBridge | null;
}

/** What the handlers ask of the running update controller. */
export interface UpdatesBridge {
  state(): UpdateStatePush;
  requestRestart(): void;
  setPlaying(playing: boolean): void;
}

const e164 = z.string().refine(isE164, E164_HINT);
const interactionSid = z
  .string()
  .refine((s) => isSid('interaction', s), 'That is not an interaction SID (interaction_ followed by a UUID).');
const agentSid = z.string().superRefine((s, ctx) => {
  const problem = agentSidProblem(s);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});
/** A workspace name as the forms check it; `allowEmpty` for Connect (the host name is used then). */
const workspaceName = (allowEmpty: boolean) =>
  z.string().superRefine((name, ctx) => {
    const problem = workspaceNameProblem(name, { allowEmpty });
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });
const nonEmpty = (what: string) => z.string().trim().min(1, `Enter ${what}.`).max(500, `${what} is too long.`);

/** Argument schemas, one tuple per method. */
const argSchemas = {
  getSession: z.tuple([]),
  connect: z.tuple([
    z.object({ name: workspaceName(true), baseUrl: z.string().max(2000), apiKey: z.string().max(4096) }),
  ]),
  openDemo: z.tuple([]),
  disconnect: z.tuple([]),
  switchWorkspace: z.tuple([z.string().min(1).max(200)]),
  renameWorkspace: z.tuple([z.string().min(1).max(200), workspaceName(false)]),
  changeWorkspaceKey: z.tuple([z.string().min(1).max(200), z.string().max(4096)]),
  testWorkspace: z.tuple([z.string().min(1).max(200)]),
  removeWorkspace: z.tuple([z.string().min(1).max(200)]),
  useSafeStorage: z.tuple([z.boolean()]),
  setPreferences: z.tuple([
    z
      .object({
        requestTimeoutSeconds: z
          .number()
          .int('Enter a whole number of seconds.')
          .min(REQUEST_TIMEOUT_SECONDS.min, `The timeout must be at least ${REQUEST_TIMEOUT_SECONDS.min} seconds.`)
          .max(REQUEST_TIMEOUT_SECONDS.max, `The timeout must be at most ${REQUEST_TIMEOUT_SECONDS.max} seconds.`),
      })
      .strict(),
  ]),
  getInteraction: z.tuple([interactionSid]),
  listPhones: z.tuple([]),
  getPhone: z.tuple([e164]),
  updatePhone: z.tuple([
    e164,
    z
      .object({
        name: nonEmpty('a name').optional(),
        inboundAgentId: agentSid.optional(),
        outboundAgentId: agentSid.optional(),
      })
      .strict()
      .refine((u) => Object.keys(u).length > 0, 'Nothing to save: change a field first.'),
  ]),
  listSipTrunks: z.tuple([]),
  getSipTrunk: z.tuple([z.string().min(1).max(200)]),
  createSipTrunk: z.tuple([
    z
      .object({
        name: nonEmpty('a name'),
        terminationUri: z
          .string()
          .max(500)
          .superRefine((s, ctx) => {
            const problem = terminationUriProblem(s);
            if (problem) ctx.addIssue({ code: 'custom', message: problem });
          }),
        sipUsername: z.string().min(1).max(500).optional(),
        sipPassword: z.string().min(1).max(500).optional(),
      })
      .strict()
      .refine(
        (t) => (t.sipUsername === undefined) === (t.sipPassword === undefined),
        'Give both a SIP username and a password, or neither.',
      ),
  ]),
  listWebhooks: z.tuple([]),
  getWebhook: z.tuple([z.string().min(1).max(200)]),
  deleteWebhook: z.tuple([z.string().min(1).max(200)]),
  getPeaks: z.tuple([interactionSid]),
  openRecordingSession: z.tuple([interactionSid]),
  closeRecordingSession: z.tuple([z.string().min(1).max(100)]),
  storePeaks: z.tuple([interactionSid, pagePeaksSchema]),
  exportTranscript: z.tuple([
    interactionSid,
    z.string().refine((f): f is TranscriptFormat => (TRANSCRIPT_FORMATS as readonly string[]).includes(f), {
      message: 'Choose TXT, JSON, SRT or VTT.',
    }),
  ]),
  downloadRecording: z.tuple([interactionSid]),
  cancelDownload: z.tuple([interactionSid]),
  listRecentCalls: z.tuple([]),
  clearRecentCalls: z.tuple([]),
  copySecret: z.tuple([z.string().min(1, 'There is nothing to copy.').max(500)]),
  answerProxySignIn: z.tuple([
    z.string().min(1).max(100),
    z
      .object({ username: z.string().min(1, 'Enter the user name.').max(500), password: z.string().max(1000) })
      .strict()
      .nullable(),
  ]),
  getNetworkSettings: z.tuple([]),
  importCaCertificate: z.tuple([]),
  removeCaCertificate: z.tuple([z.string().regex(/^[0-9A-F]{2}(:[0-9A-F]{2}){31}$/, 'Not a SHA-256 fingerprint.')]),
  getDiagnostics: z.tuple([]),
  openLogsFolder: z.tuple([]),
  getUpdateState: z.tuple([]),
  restartToUpdate: z.tuple([]),
  setPlaybackState: z.tuple([z.boolean()]),
  getQueue: z.tuple([]),
  addToQueue: z.tuple([z.array(interactionSid).min(1, 'Paste at least one interaction SID.').max(REVIEW_QUEUE_MAX)]),
  setQueueReviewed: z.tuple([interactionSid, z.boolean()]),
  removeFromQueue: z.tuple([interactionSid]),
  clearQueue: z.tuple([]),
  ...reviewArgSchemas,
} satisfies Record<ApiMethod, z.ZodType>;

/**
 * What each method does once its arguments passed their schema; `this` is the calling frame
 * (undefined when not known), for the methods that push to it.
 */
type Implementations = {
  [K in ApiMethod]: (this: IpcCaller | undefined, ...args: z.output<(typeof argSchemas)[K]>) => Promise<unknown>;
};

/** The message of an unexpected (non-ApiError) failure: nothing internal reaches the renderer. */
const UNEXPECTED_MESSAGE =
  'Something went wrong inside Voice Review. Try again; if it keeps happening, restart the app.';

/**
 * Creates the handler table over a session: each handler checks its arguments against the
 * method's schema (`bad_input` with the first problem's message otherwise), runs the method, and
 * returns its value or its ApiError as data; any other failure is reported to `onUnexpected` and
 * returned as a `server` error with a generic message.
 */
export function createHandlers(options: HandlerOptions): HandlerTable {
  const impl = implementations(options);
  const table = {} as HandlerTable;
  for (const method of Object.keys(argSchemas) as ApiMethod[]) {
    table[method] = async (args, caller) => {
      const parsed = argSchemas[method].safeParse(Array.isArray(args) ? args : []);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        return { ok: false, error: { kind: 'bad_input', message: issue?.message ?? 'Invalid input.' } };
      }
      try {
        const fn = impl[method] as (this: IpcCaller | undefined, ...a: unknown[]) => Promise<unknown>;
        return { ok: true, value: await fn.call(caller, ...(parsed.data as unknown[])) };
      } catch (err) {
        if (err instanceof ApiError) return { ok: false, error: err.toData() };
        options.onUnexpected?.(method, err);
        return { ok: false, error: { kind: 'server', message: UNEXPECTED_MESSAGE } };
      }
    };
  }
  return table;
}

/** Every method: the session's operations, the active workspace's reads, peaks, exports, recent calls. */
function implementations(options: HandlerOptions): Implementations {
  const { session, activeWorkspace: active, peaks } = options;
  return {
    ...recentCallsImplementations(options),
    ...exportImplementations(options),
    ...networkImplementations(options),
    ...reviewQueueImplementations(options),
    ...reviewImplementations(options.reviews, options.evidencePacks),
    getSession: () => session.info(),
    connect: (input) => session.connect(input),
    openDemo: () => session.openDemo(),
    disconnect: () => session.disconnect(),
    switchWorkspace: (id) => session.switchWorkspace(id),
    renameWorkspace: (id, name) => session.renameWorkspace(id, name),
    changeWorkspaceKey: (id, apiKey) => session.changeWorkspaceKey(id, apiKey),
    testWorkspace: (id) => session.testWorkspace(id),

    useSafeStorage: (confirmWeak) => session.useSafeStorage(confirmWeak),
    setPreferences: (preferences) => session.setPreferences(preferences),

    listPhones: async () => (await active.client()).listPhones(),
    getPhone: (number) => lookUp(active, `Phone number ${number}`, 'the number', (client) => client.getPhone(number)),
    updatePhone: (number, update) =>
      lookUp(active, `Phone number ${number}`, 'the number', (client) => client.updatePhone(number, update)),
    listSipTrunks: async () => (await active.client()).listSipTrunks(),
    getSipTrunk: (sid) => lookUp(active, `SIP trunk ${sid}`, 'the SID', (client) => client.getSipTrunk(sid)),
    createSipTrunk: async (input) => (await active.client()).createSipTrunk(input),
    listWebhooks: async () => (await active.client()).listWebhooks(),
    getWebhook: (sid) => lookUp(active, `Webhook ${sid}`, 'the SID', (client) => client.getWebhook(sid)),
    deleteWebhook: (sid) => deleteWebhook(active, sid),
    getPeaks: (sid) => peaks.get(sid),
    openRecordingSession(sid) {
      return Promise.resolve(openRecordingSession(options.recordingSessions, this, sid));
    },
    closeRecordingSession(sessionId) {
      if (this) options.recordingSessions.close(sessionId, this.frameKey);
      return Promise.resolve();
    },
    storePeaks: (sid, computed) => peaks.store(sid, computed),
    copySecret: async (text) => {
      if (!options.secretClipboard) {
        throw new ApiError({ kind: 'bad_input', message: 'This build of Voice Review cannot copy to the clipboard.' });
      }
      return options.secretClipboard.copy(text).catch(() => {
        throw new ApiError({ kind: 'server', message: 'The system clipboard refused the copy. Try again.' });
      });
    },
  };
}

/**
 * The methods that keep the recent calls list: an interaction looked up is filed under its
 * workspace, a removed workspace's calls are forgotten, and the list itself.
 */
function recentCallsImplementations({
  session,
  activeWorkspace: active,
  recordingSrc,
  recentCalls,
  reviewQueue,
}: HandlerOptions): Pick<
  Implementations,
  'getInteraction' | 'removeWorkspace' | 'listRecentCalls' | 'clearRecentCalls'
> {
  const activeId = () => active.workspace()?.id ?? null;
  return {
    getInteraction: async (sid) => {
      // Filed under the workspace it was looked up in, taken before the request.
      const workspaceId = activeId();
      const interaction = await getInteraction(active, recordingSrc, sid);
      // Not awaited: the file is written with fsync, which waits behind the recording's own
      // download to disk, and the call must not wait for its own entry in the list. The store
      // runs its changes in order and `list` waits for them, so the list still shows this call.
      if (workspaceId !== null) void recentCalls.record(workspaceId, { ...interaction, sid }).catch(() => undefined);
      return interaction;
    },
    removeWorkspace: async (id) => {
      const info = await session.removeWorkspace(id);
      await recentCalls.clear(id).catch(() => undefined);
      await reviewQueue.clear(id).catch(() => undefined);
      return info;
    },
    listRecentCalls: async () => {
      const id = activeId();
      return id === null ? [] : recentCalls.list(id);
    },
    clearRecentCalls: async () => {
      const id = activeId();
      if (id !== null) await recentCalls.clear(id);
    },
  };
}

/**
 * The review queue's methods, each on the active workspace's queue; without an active workspace
 * the queue reads empty and a change is refused in words.
 */
function reviewQueueImplementations({
  activeWorkspace: active,
  reviewQueue,
}: HandlerOptions): Pick<
  Implementations,
  'getQueue' | 'addToQueue' | 'setQueueReviewed' | 'removeFromQueue' | 'clearQueue'
> {
  const activeId = (): string => {
    const id = active.workspace()?.id;
    if (id === undefined)
      throw new ApiError({
        kind: 'bad_input',
        message: 'Open a workspace first: the review queue belongs to a workspace.',
      });
    return id;
  };
  return {
    getQueue: async () => {
      const id = active.workspace()?.id;
      return id === undefined ? [] : reviewQueue.list(id);
    },
    addToQueue: (sids) => reviewQueue.add(activeId(), sids),
    setQueueReviewed: (sid, reviewed) => reviewQueue.setReviewed(activeId(), sid, reviewed),
    removeFromQueue: (sid) => reviewQueue.remove(activeId(), sid),
    clearQueue: () => reviewQueue.clear(activeId()),
  };
}

/** The methods that save through main's save dialog: transcript exports and recording downloads. */
function exportImplementations({
  exports,
}: HandlerOptions): Pick<Implementations, 'exportTranscript' | 'downloadRecording' | 'cancelDownload'> {
  return {
    exportTranscript: (sid, format) => exports.exportTranscript(sid, format),
    downloadRecording: (sid) => exports.downloadRecording(sid),
    cancelDownload: (sid) => {
      exports.cancelDownload(sid);
      return Promise.resolve();
    },
  };
}

/** Settings → Network and the proxy sign-in sheet. */
function networkImplementations({
  network,
  diagnostics,
  updates,
}: HandlerOptions): Pick<
  Implementations,
  | 'answerProxySignIn'
  | 'getNetworkSettings'
  | 'importCaCertificate'
  | 'removeCaCertificate'
  | 'getDiagnostics'
  | 'openLogsFolder'
  | 'getUpdateState'
  | 'restartToUpdate'
  | 'setPlaybackState'
> {
  return {
    answerProxySignIn: (id, credentials) => {
      network.answer(id, credentials);
      return Promise.resolve();
    },
    getNetworkSettings: () => network.settings(),
    importCaCertificate: () => network.importCa(),
    removeCaCertificate: (fingerprint) => network.removeCa(fingerprint),
    getDiagnostics: () => diagnostics.report(),
    openLogsFolder: () => diagnostics.openLogsFolder(),
    getUpdateState: () => Promise.resolve(updates()?.state() ?? null),
    restartToUpdate: () => {
      updates()?.requestRestart();
      return Promise.resolve();
    },
    setPlaybackState: (playing) => {
      updates()?.setPlaying(playing);
      return Promise.resolve();
    },
  };
}

/**
 * Runs a read or write of one SID or number on the active workspace's client; a 404 becomes
 * "WHAT was not found in workspace "NAME"", saying what was looked up and where. The name is taken
 * before the request, so a switch while it runs cannot put the wrong workspace in the message.
 */
async function lookUp<T>(
  active: ActiveWorkspaceReads,
  what: string,
  check: string,
  call: (client: ApiClient) => Promise<T>,
): Promise<T> {
  const client = await active.client();
  const workspace = active.workspace()?.name ?? null;
  try {
    return await call(client);
  } catch (err) {
    if (!(err instanceof ApiError) || err.kind !== 'not_found' || workspace === null) throw err;
    throw new ApiError({
      ...err.toData(),
      message: `${what} was not found in workspace "${workspace}". Check ${check} and that you are in the right workspace.`,
    });
  }
}

/**
 * The interaction for the renderer: its recording URL stays in main (remembered by the session
 * under the SID asked for, for the recording protocol); the renderer gets a playable `src`, or the
 * reason there is none.
 */
async function getInteraction(
  active: ActiveWorkspaceReads,
  recordingSrc: (sid: string) => string,
  sid: string,
): Promise<Interaction> {
  const parsed = await lookUp(active, `Call ${sid}`, 'the SID', () => active.lookUpInteraction(sid));
  const { recordingUrl, ...rest } = parsed;
  const problem = recordingUrlProblem(recordingUrl);
  return {
    ...rest,
    recording: problem ? { available: false, reason: problem } : { available: true, src: recordingSrc(parsed.sid) },
  };
}

/**
 * Opens interaction `sid`'s recording session for the calling frame, its events pushed to that
 * frame alone on `PUSH_CHANNELS.recordingSession`.
 * @throws ApiError kind 'bad_input' when the call came from no frame main can push to
 */
function openRecordingSession(
  sessions: RecordingSessions,
  caller: IpcCaller | undefined,
  sid: string,
): RecordingSessionInfo {
  if (!caller) throw new ApiError({ kind: 'bad_input', message: 'A recording session needs a page to push to.' });
  return sessions.open(sid, caller.frameKey, (push) => caller.push(PUSH_CHANNELS.recordingSession, push));
}

/** Deletes a webhook; a 404 means it is already gone, which meets the user's goal. */
async function deleteWebhook(active: ActiveWorkspaceReads, sid: string): Promise<DeleteResult> {
  try {
    await (await active.client()).deleteWebhook(sid);
    return { alreadyGone: false };
  } catch (err) {
    if (err instanceof ApiError && err.kind === 'not_found') return { alreadyGone: true };
    throw err;
  }
}
