/**
 * The IPC contract: declared once, implemented by the preload (`electron/preload/index.ts`),
 * served by main (`electron/main/shell/handlers.ts`, one handler per entry) and typed on `window.api`
 * in the renderer. See STYLE.md "One contract, three users".
 */
import type { LinkParseResult } from './deep-link';
import type { Interaction, Phone, PhoneUpdate, SipTrunk, SipTrunkCreate, Webhook } from './domain';
import type { ApiErrorData } from './errors';
import type { DownloadProgress, SaveResult } from './file-saving';
import type { RecentCall } from './recent-calls';
import type { QueuedCall } from './review-queue';
import type { TranscriptFormat } from './transcript-export';
import type { z } from 'zod';
import type { evidencePackRequestSchema } from './evidence-pack-request';
import type { RedactionSettings } from './redaction';
import type {
  ReviewDatabaseState,
  ReviewNote,
  ReviewPage,
  ReviewQueryInput,
  ReviewRecord,
  ReviewSummary,
  Rubric,
  reviewInputSchemas,
} from './reviews';

export type { DownloadProgress, QueuedCall, RecentCall, SaveResult };

/** The workspace the app is connected to. The API key is never part of it. */
export interface WorkspaceInfo {
  id: string;
  name: string;
  /** Base URL ending in `/v1` (spec 9). */
  baseUrl: string;
  isDemo: boolean;
}

/** What the renderer knows about the current session. */
export interface SessionInfo {
  /** The active workspace, or null when none is active (Connect screen). */
  workspace: WorkspaceInfo | null;
  /** Every saved workspace (the demo workspace included once opened), in the order added. */
  workspaces: WorkspaceInfo[];
  /**
   * Set when the saved active workspace could not be restored: typically its key is missing from
   * the keychain, or the keychain is locked/unreachable. The renderer offers to re-enter the key
   * (`changeWorkspaceKey`) for `workspaceId`.
   */
  restoreProblem: { workspaceId: string; error: ApiErrorData } | null;
  /** Seeded interaction SIDs offered by the demo workspace (the spec has no list endpoint). */
  demoInteractions: DemoInteractionSummary[];
  /** Where API keys are stored, and what is wrong with the keychain if anything. */
  secretStorage: SecretStorageStatus;
  /** User preferences (settings.json). */
  preferences: Preferences;
}

/** User preferences kept in settings.json. */
export interface Preferences {
  /** Timeout of each API request, in seconds (default 15, allowed 3 to 120). */
  requestTimeoutSeconds: number;
}

/**
 * Where API keys are stored.
 * - `keychain`: the OS keychain through keytar (the default).
 * - `safe_storage`: Electron `safeStorage` encryption, in a file in the user-data folder; used only
 *   after the user agreed because the keychain could not be used.
 */
export type SecretBackend = 'keychain' | 'safe_storage';

/** Why the OS keychain cannot be used right now. */
export type KeychainProblem =
  /** No Secret Service / D-Bus not reachable / no keychain daemon. */
  | 'unavailable'
  /** The keyring is locked (or its unlock prompt was dismissed). */
  | 'locked'
  /** keytar itself failed to load (native module built for another runtime, libsecret missing). */
  | 'not_loaded';

/** Status of key storage, shown in settings. */
export interface SecretStorageStatus {
  /** The backend keys are written to now. */
  backend: SecretBackend;
  /** A sentence naming the storage, e.g. "System keychain (Secret Service)". */
  description: string;
  /** What is wrong with the OS keychain, with a message a person can act on; null when it works. */
  keychainProblem: { problem: KeychainProblem; message: string } | null;
  /**
   * Electron safeStorage as a fallback: whether it can encrypt here, and whether it would use an
   * unprotected backend (`basic_text` on Linux: a hard-coded key, i.e. obfuscation, not
   * protection). Null where safeStorage is not available at all (e.g. the end-to-end harness).
   */
  safeStorage: { available: boolean; weak: boolean; backendName: string } | null;
}

/** Result of a connection test (Settings and the workspace menu: "Test connection"). */
export interface ConnectionTestResult {
  ok: boolean;
  /**
   * What went wrong, when `ok` is false: `key_rejected` (401/403), `not_v1` (the URL answered but
   * is not a v1 API: 404, HTML, or a body that is not the list of phones), `unreachable` (DNS,
   * refused, reset), `tls` (certificate or TLS handshake failure), `timeout`, `server` (5xx),
   * `keychain` (the workspace's key could not be read), `bad_url` (the saved base URL breaks the
   * base URL rule, so nothing is sent there).
   */
  problem?: 'key_rejected' | 'not_v1' | 'unreachable' | 'tls' | 'timeout' | 'server' | 'keychain' | 'bad_url';
  /** A sentence saying what was found and what to do. */
  message: string;
  /** Round-trip time of the test request, in milliseconds (when a response came back). */
  elapsedMs?: number;
}

/**
 * Peaks of a recording, computed in main (or, for a format main does not decode, by the page's
 * peaks worker: see {@link VoiceReviewApi.storePeaks}). Values are sample amplitudes in [-1, 1];
 * `min[i]`/`max[i]` cover the i-th of `length` equal slices of the recording. One entry in
 * `channels` per audio channel (1 = mono, 2 = stereo: caller and agent).
 */
export interface RecordingPeaks {
  /** Exact duration of the decoded audio, in seconds. */
  durationSeconds: number;
  /** Sample rate of the source, in Hz. */
  sampleRate: number;
  /** Number of peaks per channel (the same for every channel). */
  length: number;
  channels: Array<{ min: number[]; max: number[] }>;
  /** True when served from the disk cache. */
  fromCache: boolean;
}

/**
 * The peaks of a recording while they are computed: `peaks` covers the first `coveredSeconds` of
 * the recording (its `durationSeconds` is that, and its `length` slices share it), growing while
 * the download runs; `complete` is true once they are the final peaks (pushed on the call's
 * recording session, {@link RecordingSessionEvent}).
 */
export interface PeaksProgress {
  peaks: RecordingPeaks;
  /** Seconds of audio from the start that `peaks` covers. */
  coveredSeconds: number;
  complete: boolean;
}

/**
 * What went wrong with a recording: the one set of kinds main maps every failure to, once
 * (HTTP statuses and transport errors of the download, the API's errors, the decoder's refusals:
 * main/api/recording-errors.ts), and the page words (shared/recording-problem.ts): `gone`
 * (404/410: the link no longer exists or has expired), `refused` (401/403), `redirect_refused`
 * (a loop, too many hops, no usable Location), `unsafe_destination` (an address the destination
 * rules refuse), `timed_out` (no answer, or a stall), `unreachable`, `not_audio` (text or data
 * instead of audio), `too_large` (over 1 GiB), `undecodable` (no waveform for its format),
 * `no_recording`, `server_error` (5xx, another status, or any other failure).
 */
export type RecordingProblemKind =
  | 'no_recording'
  | 'gone'
  | 'refused'
  | 'redirect_refused'
  | 'unsafe_destination'
  | 'timed_out'
  | 'unreachable'
  | 'not_audio'
  | 'too_large'
  | 'undecodable'
  | 'unplayable_format'
  | 'server_error';

/** A problem main met with an interaction's recording, in words a person can act on. */
export interface RecordingProblem {
  kind: RecordingProblemKind;
  /** A sentence saying what happened and what to do; never contains the API key. */
  message: string;
}

/**
 * A recording session as {@link VoiceReviewApi.openRecordingSession} opens it: what the page
 * pushes are keyed by `sessionId`, and `src` is the URL the page's media element plays (main's
 * recording protocol; the page never builds it).
 */
export interface RecordingSessionInfo {
  /** Names the session's pushes ({@link RecordingSessionPush}) and closes it. */
  sessionId: string;
  /** The recording's URL for the media element. */
  src: string;
}

/**
 * One thing main pushes about a session's recording:
 * - `peaks-progress`: the peaks decoded so far (the waveform fills in left to right);
 * - `peaks`: the final peaks (the last peaks event of the session);
 * - `decode-in-page`: main does not decode this format (WebM/Opus, MP4/AAC): the page decodes
 *   `src` with Chromium's decoders and hands the peaks back with {@link VoiceReviewApi.storePeaks};
 * - `peaks-failed`: no waveform from main, and why ({@link RecordingProblem});
 * - `problem`: the latest problem of the recording (the player's download included), or null
 *   when a later attempt worked;
 * - `download`: the progress of "Download recording" of this call, null once it ended;
 * - `seekable`: the URL of the recording's seekable variant (an MP3 rewrapped in MP4 once
 *   downloaded, whose index Chromium seeks by exactly, to the frame): same sound, same timeline;
 *   the page moves its media element there keeping its time.
 */
export type RecordingSessionEvent =
  | { type: 'peaks-progress'; progress: PeaksProgress }
  | { type: 'peaks'; peaks: RecordingPeaks }
  | { type: 'decode-in-page' }
  | { type: 'peaks-failed'; problem: RecordingProblem }
  | { type: 'problem'; problem: RecordingProblem | null }
  | { type: 'download'; progress: DownloadProgress | null }
  | { type: 'seekable'; src: string };

/** What main pushes on `PUSH_CHANNELS.recordingSession`: one event of session `sessionId`. */
export interface RecordingSessionPush {
  sessionId: string;
  event: RecordingSessionEvent;
}

/** A seeded demo interaction the user can pick (demo workspace only). */
export interface DemoInteractionSummary {
  sid: string;
  label: string;
}

/** Input of the Connect screen. The key travels renderer -> main once and is never sent back. */
export interface ConnectInput {
  name: string;
  baseUrl: string;
  apiKey: string;
}

/** Result of a deletion (spec 4 endpoint 10). */
export interface DeleteResult {
  /** True when the server said 404: the webhook was already gone. */
  alreadyGone: boolean;
}

/** The input of review method `M` (shared/reviews.ts `reviewInputSchemas`), as the renderer sends it. */
export type ReviewInput<M extends keyof typeof reviewInputSchemas> = z.input<(typeof reviewInputSchemas)[M]>;

/** What the renderer sends to make an evidence pack (shared/evidence-pack-request.ts). */
export type EvidencePackInput = z.input<typeof evidencePackRequestSchema>;

/**
 * Where an evidence pack being made is: `reading` the call and its review, decoding the range's
 * `audio`, `choosing` the folder in the save dialog, `writing` the files.
 */
export interface EvidencePackProgress {
  stage: 'reading' | 'audio' | 'choosing' | 'writing';
}

/** The formats the Reviews screen exports. */
export type ReviewExportFormat = 'csv' | 'json';

/**
 * A proxy's ask for a sign-in, as the sheet shows it (pushed on `PUSH_CHANNELS.proxySignIn`); the
 * page answers with {@link VoiceReviewApi.answerProxySignIn} and the same `id`.
 */
export interface ProxySignInPush {
  /** Which ask this is (answer with it). */
  id: string;
  /** `proxy.corp:3128`: the proxy that asks. */
  proxyHost: string;
  /** The proxy's Basic realm, when it gave one. */
  realm: string | null;
  /** True when the proxy just refused the user name and password it was given. */
  rejected: boolean;
  /** The user name last tried, to fill in; null when none. */
  username: string | null;
}

/** A user name and password for a proxy (typed on the sign-in sheet; kept in the keychain by main). */
export interface ProxyCredentialsInput {
  username: string;
  password: string;
}

/** An imported certificate authority, as Settings → Network lists it. */
export interface CaCertificateInfo {
  /** The subject's common name: "Desk Inspection CA". */
  subject: string;
  issuer: string;
  /** SHA-256 fingerprint, upper-case hex pairs joined by `:`. */
  fingerprint256: string;
  /** Validity, ISO 8601 (UTC). */
  validFrom: string;
  validTo: string;
}

/** Settings → Network: what main trusts and how it reaches the active workspace. */
export interface NetworkSettings {
  /** The CAs the user imported, oldest first. */
  certificates: CaCertificateInfo[];
  /** Roots trusted: Node's bundled ones, the system's (null when this runtime cannot read them), imported. */
  trust: { bundled: number; system: number | null; imported: number };
  /** The route to the active workspace's base URL in words ("Through http://proxy:3128. …"); null with none. */
  proxy: string | null;
}

/** The outcome of "Import CA certificate…". */
export interface CaImportResult {
  /** The CAs added (none when they were all there already); null when the user cancelled. */
  imported: CaCertificateInfo[] | null;
  settings: NetworkSettings;
}

/**
 * Where the app's update is (pushed on `PUSH_CHANNELS.updateState`): no feed, off by policy,
 * checking, available, downloading with progress, downloaded (with release notes as plain text).
 */
export type UpdateStatePush =
  | { status: 'no-feed' | 'checking' }
  | { status: 'disabled-by-policy'; detail: string }
  | { status: 'idle'; lastCheckedAtMs: number | null }
  | { status: 'available'; release: UpdateReleaseInfo }
  | {
      status: 'downloading';
      release: UpdateReleaseInfo;
      progress: { percent: number; bytesPerSecond: number; transferredBytes: number; totalBytes: number };
    }
  | { status: 'downloaded'; release: UpdateReleaseInfo; restartRequested: boolean }
  | { status: 'error'; message: string; lastCheckedAtMs: number | null };

/** A release as the update feed describes it; `notes` are plain text from the feed (shown as text). */
export interface UpdateReleaseInfo {
  version: string;
  name: string | null;
  notes: string | null;
}

/** Diagnostics for IT: titled sections of rows, and the same as "Copy for IT" text (scrubbed). */
export interface DiagnosticsReport {
  sections: { title: string; rows: { label: string; value: string }[] }[];
  text: string;
}

/**
 * The bridge exposed as `window.api`. Every method rejects with an `ApiError`
 * (`electron/shared/errors.ts`) carrying a kind and a message a person can act on.
 */
export interface VoiceReviewApi {
  /** Current workspace (null before the first connection) and demo SIDs. */
  getSession(): Promise<SessionInfo>;
  /** Saves a workspace (key into the OS keychain) after checking the key with a cheap read. */
  connect(input: ConnectInput): Promise<SessionInfo>;
  /** Starts the embedded demo service on 127.0.0.1 and connects to it. */
  openDemo(): Promise<SessionInfo>;
  /** Forgets the current workspace choice (keeps the keychain entry). */
  disconnect(): Promise<SessionInfo>;
  /** Makes a saved workspace the active one (its key is read from storage). */
  switchWorkspace(id: string): Promise<SessionInfo>;
  /** Renames a saved workspace (1 to 200 characters after trimming). */
  renameWorkspace(id: string, name: string): Promise<SessionInfo>;
  /** Replaces a workspace's key after testing it with a cheap read; the old key is never shown. */
  changeWorkspaceKey(id: string, apiKey: string): Promise<SessionInfo>;
  /** Tests a saved workspace's URL and key with a cheap authenticated read. Never rejects for a failed test. */
  testWorkspace(id: string): Promise<ConnectionTestResult>;
  /** Removes a workspace and deletes its key from storage (the renderer confirms first). */
  removeWorkspace(id: string): Promise<SessionInfo>;
  /**
   * Switches key storage to Electron safeStorage (only after the user agreed). When safeStorage
   * would be weak (`basic_text`), `confirmWeak` must be true or the call is refused.
   */
  useSafeStorage(confirmWeak: boolean): Promise<SessionInfo>;
  /** Saves preferences (e.g. the request timeout). */
  setPreferences(preferences: Preferences): Promise<SessionInfo>;
  /** Spec 4 endpoint 1. `sid` must be an interaction SID. */
  getInteraction(sid: string): Promise<Interaction>;
  /** Spec 4 endpoint 2. */
  listPhones(): Promise<Phone[]>;
  /** Spec 4 endpoint 3. `number` is E.164. */
  getPhone(number: string): Promise<Phone>;
  /** Spec 4 endpoint 4. Only the fields present in `update` are sent. */
  updatePhone(number: string, update: PhoneUpdate): Promise<Phone>;
  /** Spec 4 endpoint 6. */
  listSipTrunks(): Promise<SipTrunk[]>;
  /** Spec 4 endpoint 7. */
  getSipTrunk(sid: string): Promise<SipTrunk>;
  /** Spec 4 endpoint 5. */
  createSipTrunk(input: SipTrunkCreate): Promise<SipTrunk>;
  /** Spec 4 endpoint 8. */
  listWebhooks(): Promise<Webhook[]>;
  /** Spec 4 endpoint 9. */
  getWebhook(sid: string): Promise<Webhook>;
  /** Spec 4 endpoint 10. A 404 resolves with `alreadyGone: true`. */
  deleteWebhook(sid: string): Promise<DeleteResult>;
  /**
   * Peaks and exact duration of an interaction's recording (decoded in main, cached on disk).
   * @throws ApiError kind 'invalid_response' when main cannot draw it; with `detail:
   *   'unsupported_format'` when its format is one main does not decode (the page may: it then
   *   hands its peaks back with {@link storePeaks})
   */
  getPeaks(sid: string): Promise<RecordingPeaks>;
  /**
   * Opens the recording session of interaction `sid` for the calling frame ("Show call"): main
   * starts its peaks at once and pushes everything about the recording to that frame on
   * `PUSH_CHANNELS.recordingSession` ({@link RecordingSessionPush}) until the session is closed.
   * A frame keeps one session: opening another closes the frame's previous one.
   * @throws ApiError kind 'bad_input' when the call did not come from a frame main can push to
   */
  openRecordingSession(sid: string): Promise<RecordingSessionInfo>;
  /** Closes a session opened by {@link openRecordingSession} (nothing more is pushed for it); unknown ids are ignored. */
  closeRecordingSession(sessionId: string): Promise<void>;
  /**
   * Hands main the peaks the page decoded for interaction `sid`'s recording after
   * {@link getPeaks} failed with `detail: 'unsupported_format'` (the page decodes WebM, MP4/AAC
   * with Chromium's decoders), to keep in main's peaks disk cache, so the call's next view draws
   * from there. At most 8 channels of at most as many peaks as main makes for `durationSeconds`
   * (8,000, or 4 per second past about 33 minutes; 6 hours at most), amplitudes in [-1, 1].
   * @throws ApiError kind 'bad_input' when the peaks are out of those bounds, or main did not
   *   leave this recording to the page
   */
  storePeaks(sid: string, peaks: Omit<RecordingPeaks, 'fromCache'>): Promise<void>;
  /**
   * Exports interaction `sid`'s transcript in `format` (electron/shared/transcript-export.ts) to a
   * file the user picks in main's save dialog; the file is written atomically.
   */
  exportTranscript(sid: string, format: TranscriptFormat): Promise<SaveResult>;
  /**
   * Saves interaction `sid`'s recording to a file the user picks in main's save dialog, from the
   * run's recording cache (fetched with the player's rules, not again when already there);
   * written atomically, so a failed or cancelled download leaves no file. Its progress is pushed
   * on the call's recording session (`download` events).
   */
  downloadRecording(sid: string): Promise<SaveResult>;
  /** Cancels the running download of `sid`'s recording (its call then resolves with `saved: null`). */
  cancelDownload(sid: string): Promise<void>;
  /** The last 50 calls opened in the active workspace, most recent first. */
  listRecentCalls(): Promise<RecentCall[]>;
  /** Forgets the active workspace's recent calls. */
  clearRecentCalls(): Promise<void>;
  /**
   * Copies a secret (a SIP trunk's password) to the system clipboard; main clears the clipboard
   * 30 seconds later if it still holds that text. At most 500 characters.
   */
  copySecret(text: string): Promise<void>;
  /**
   * Answers the proxy sign-in ask `id` ({@link ProxySignInPush}): the user name and password to
   * try (kept in the keychain per proxy once the proxy accepts them), or null when cancelled.
   */
  answerProxySignIn(id: string, credentials: ProxyCredentialsInput | null): Promise<void>;
  /** Settings → Network: imported CAs, the trust counts, the proxy in use. */
  getNetworkSettings(): Promise<NetworkSettings>;
  /**
   * Imports a CA certificate (PEM or DER) the user picks in main's open dialog, after main's own
   * confirmation dialog shows its subject, issuer, SHA-256 fingerprint and expiry.
   * @throws ApiError `bad_input` with the reason when the file is not a valid, current CA certificate
   */
  importCaCertificate(): Promise<CaImportResult>;
  /** Removes the imported CA with this SHA-256 fingerprint (the page confirms first). */
  removeCaCertificate(fingerprint256: string): Promise<NetworkSettings>;
  /**
   * Diagnostics for IT: versions, key storage, update policy, trust, and how the active workspace
   * is reached (proxy, TLS chain, a light request's time). No key, query string or SID in it.
   */
  getDiagnostics(): Promise<DiagnosticsReport>;
  /** Opens the folder of main's log in the file manager. */
  openLogsFolder(): Promise<void>;
  /** The update's state now, or null where updates are not run (development, the harness). */
  getUpdateState(): Promise<UpdateStatePush | null>;
  /** "Restart to update": restarts now when no call plays, else as soon as playback stops. */
  restartToUpdate(): Promise<void>;
  /** The page's player started or stopped (a downloaded update never interrupts playback). */
  setPlaybackState(playing: boolean): Promise<void>;
  /** The active workspace's review queue, in the order added (empty without a workspace). */
  getQueue(): Promise<QueuedCall[]>;
  /** Appends the interaction SIDs not queued yet to the active workspace's queue; returns the queue. */
  addToQueue(sids: string[]): Promise<QueuedCall[]>;
  /** Marks queued call `sid` reviewed or not; returns the queue. */
  setQueueReviewed(sid: string, reviewed: boolean): Promise<QueuedCall[]>;
  /** Takes call `sid` out of the queue; returns the queue. */
  removeFromQueue(sid: string): Promise<QueuedCall[]>;
  /** Empties the active workspace's queue (the renderer confirms first); returns the empty queue. */
  clearQueue(): Promise<QueuedCall[]>;
  /** How the review database opened (a notice when it was moved aside or is read-only). */
  getReviewStoreState(): Promise<ReviewDatabaseState>;
  /** The review record of a call in the active workspace, or null when it has none. */
  getReview(input: ReviewInput<'get'>): Promise<ReviewRecord | null>;
  /** Adds a note at a time or a range (seconds); the record is created when missing. */
  addReviewNote(input: ReviewInput<'addNote'>): Promise<{ note: ReviewNote; record: ReviewRecord }>;
  /** Changes a note's text or place. */
  updateReviewNote(input: ReviewInput<'updateNote'>): Promise<ReviewRecord>;
  /** Deletes a note (restorable with {@link restoreReviewNote}); resolves with the deleted note. */
  deleteReviewNote(input: ReviewInput<'deleteNote'>): Promise<ReviewNote>;
  /** Undoes a note's deletion. */
  restoreReviewNote(input: ReviewInput<'restoreNote'>): Promise<ReviewRecord>;
  setReviewVerdict(input: ReviewInput<'setVerdict'>): Promise<ReviewRecord>;
  /** Scores one criterion (0–4, null for not applicable) against the current rubric. */
  setReviewScore(input: ReviewInput<'setScore'>): Promise<ReviewRecord>;
  setReviewTags(input: ReviewInput<'setTags'>): Promise<ReviewRecord>;
  /** Sets the ticket (an ID, or an http(s) link without credentials) or clears it (null). */
  setReviewTicket(input: ReviewInput<'setTicket'>): Promise<ReviewRecord>;
  /** Records when the call started (epoch ms), for the Reviews screen's dates. */
  setReviewCallStarted(input: ReviewInput<'setCallStarted'>): Promise<ReviewRecord>;
  /** Deletes a call's review (restorable with {@link restoreReview}); false when there was none. */
  deleteReview(input: ReviewInput<'deleteRecord'>): Promise<boolean>;
  restoreReview(input: ReviewInput<'restoreRecord'>): Promise<ReviewRecord>;
  /** The Reviews screen: records matching the filters, sorted, one page. */
  listReviews(input: ReviewQueryInput): Promise<ReviewPage>;
  /** Verdict, tags and note count of each of `sids` that has a review (the queue and recent calls). */
  reviewSummaries(input: ReviewInput<'summaries'>): Promise<Record<string, ReviewSummary>>;
  /** The workspace's current rubric. */
  getRubric(input: ReviewInput<'rubric'>): Promise<Rubric>;
  /** Saves the rubric's criteria as a new version. */
  saveRubric(input: ReviewInput<'saveRubric'>): Promise<Rubric>;
  /** Saves the records the query lists as CSV or JSON through main's save dialog (notes masked when `redact`). */
  exportReviews(query: ReviewQueryInput, format: ReviewExportFormat, redact: boolean): Promise<SaveResult>;
  /** The PII masking rules of Settings (redaction.json). */
  getRedactionSettings(): Promise<RedactionSettings>;
  setRedactionSettings(settings: RedactionSettings): Promise<RedactionSettings>;
  /** Makes an evidence pack of a range of a call into a new folder chosen in main's save dialog. */
  makeEvidencePack(request: EvidencePackInput): Promise<SaveResult>;
  /** The stage of the evidence pack of `sid` being made, or null when none is. */
  getEvidencePackProgress(sid: string): Promise<EvidencePackProgress | null>;
}

/** Names of the bridge methods; each is also its IPC channel name (prefixed `vr:`). */
export type ApiMethod = keyof VoiceReviewApi;

/** A table with exactly one `null` entry per method of `Api` (see {@link API_METHODS}). */
export type MethodTable<Api> = { readonly [K in keyof Api]: null };

/**
 * One entry per method of {@link VoiceReviewApi}, no more, no less: `satisfies` fails type-checking
 * when a method is declared in the interface and missing here (or listed here and not declared).
 * The handler table (argument schemas and implementations, `Record<ApiMethod, ...>`), the preload
 * (exposes each) and main's IPC registration (guards each) all iterate {@link API_METHODS}, so a
 * new method cannot be declared without being registered, exposed and guarded.
 */
const METHODS = {
  getSession: null,
  connect: null,
  openDemo: null,
  disconnect: null,
  switchWorkspace: null,
  renameWorkspace: null,
  changeWorkspaceKey: null,
  testWorkspace: null,
  removeWorkspace: null,
  useSafeStorage: null,
  setPreferences: null,
  getInteraction: null,
  listPhones: null,
  getPhone: null,
  updatePhone: null,
  listSipTrunks: null,
  getSipTrunk: null,
  createSipTrunk: null,
  listWebhooks: null,
  getWebhook: null,
  deleteWebhook: null,
  getPeaks: null,
  openRecordingSession: null,
  closeRecordingSession: null,
  storePeaks: null,
  exportTranscript: null,
  downloadRecording: null,
  cancelDownload: null,
  listRecentCalls: null,
  clearRecentCalls: null,
  copySecret: null,
  answerProxySignIn: null,
  getNetworkSettings: null,
  importCaCertificate: null,
  removeCaCertificate: null,
  getDiagnostics: null,
  openLogsFolder: null,
  getUpdateState: null,
  restartToUpdate: null,
  setPlaybackState: null,
  getQueue: null,
  addToQueue: null,
  setQueueReviewed: null,
  removeFromQueue: null,
  clearQueue: null,
  getReviewStoreState: null,
  getReview: null,
  addReviewNote: null,
  updateReviewNote: null,
  deleteReviewNote: null,
  restoreReviewNote: null,
  setReviewVerdict: null,
  setReviewScore: null,
  setReviewTags: null,
  setReviewTicket: null,
  setReviewCallStarted: null,
  deleteReview: null,
  restoreReview: null,
  listReviews: null,
  reviewSummaries: null,
  getRubric: null,
  saveRubric: null,
  exportReviews: null,
  getRedactionSettings: null,
  setRedactionSettings: null,
  makeEvidencePack: null,
  getEvidencePackProgress: null,
} satisfies MethodTable<VoiceReviewApi>;

/** Every method of {@link VoiceReviewApi}, in declaration order (preload and main iterate it). */
export const API_METHODS: readonly ApiMethod[] = Object.keys(METHODS) as ApiMethod[];

/** IPC channel of a method. */
export function channelOf(method: ApiMethod): string {
  return `vr:${method}`;
}

/** What a handler returns over IPC: errors travel as data, never as thrown exceptions. */
export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: ApiErrorData };

/**
 * Channels main pushes on (main -> renderer, `webContents.send`); the page never sends on them.
 * - `openLink`: a `voice-review://` link the OS handed to the app, already read by main
 *   ({@link OpenLinkPush}): the parsed link, or main's refusal in words; never the link's text.
 * - `menuCommand`: a native menu item that the page carries out ({@link MenuCommand}).
 * - `proxySignIn`: a proxy asks for a user name and password ({@link ProxySignInPush}).
 * - `updateState`: the update's new state ({@link UpdateStatePush}).
 * - `recordingSession`: an event of a recording session the page opened ({@link RecordingSessionPush}),
 *   sent to the frame that opened it only.
 */
export const PUSH_CHANNELS = {
  openLink: 'vr:open-link',
  menuCommand: 'vr:menu-command',
  proxySignIn: 'vr:proxy-sign-in',
  updateState: 'vr:update-state',
  recordingSession: 'vr:recording-session',
} as const;

/** What main pushes on `PUSH_CHANNELS.openLink`: the link to open, or why it was refused. */
export type OpenLinkPush = LinkParseResult;

/**
 * What a native menu item asks the page to do: `open-link` shows the "Open link…" dialog,
 * `shortcuts` the keyboard shortcut sheet, `export` and `download` the transcript export and the
 * recording download of the call shown, `diagnostics` the Diagnostics sheet (Help → Diagnostics).
 */
export type MenuCommand = 'open-link' | 'shortcuts' | 'export' | 'download' | 'diagnostics';

/** Every {@link MenuCommand}, for checking a pushed value. */
export const MENU_COMMANDS: readonly MenuCommand[] = ['open-link', 'shortcuts', 'export', 'download', 'diagnostics'];
