/**
 * Runs the update state machine (update-state.ts) over an updater: electron-updater's
 * `autoUpdater` in the app (generic provider, feed from the build's `publish` configuration),
 * a stand-in in tests. Checks at start and every few hours, downloads in the background,
 * installs on "Restart to update" only when no call is playing.
 *
 * Nothing here is started when there is no feed or the policy turns updates off.
 */
import {
  initialUpdateModel,
  updateTransition,
  type UpdateEvent,
  type UpdateModel,
  type UpdateProgress,
  type UpdateRelease,
} from './update-state';

/** electron-updater's `UpdateInfo`, as far as it is read. */
export interface UpdateInfoLike {
  version: string;
  releaseName?: string | null;
  releaseNotes?: string | readonly { version: string; note: string | null }[] | null;
}

/** electron-updater's `ProgressInfo`. */
export interface ProgressInfoLike {
  percent: number;
  bytesPerSecond: number;
  transferred: number;
  total: number;
}

/**
 * The part of electron-updater's `AppUpdater` used (its `autoUpdater` satisfies it). Events:
 * `checking-for-update`, `update-available`, `update-not-available`, `download-progress`,
 * `update-downloaded`, `error`.
 */
export interface UpdaterAdapter {
  on(event: 'checking-for-update', listener: () => void): unknown;
  on(
    event: 'update-available' | 'update-not-available' | 'update-downloaded',
    listener: (info: UpdateInfoLike) => void,
  ): unknown;
  on(event: 'download-progress', listener: (info: ProgressInfoLike) => void): unknown;
  on(event: 'error', listener: (error: Error, message?: string) => void): unknown;
  /** Rejects on failure (also reported as `error`). */
  checkForUpdates(): Promise<unknown>;
  /** Installs the downloaded update: quits the app and runs the installer. */
  quitAndInstall(isSilent?: boolean, isForceRunAfter?: boolean): void;
  /** Download as soon as an update is found (set true: background download). */
  autoDownload: boolean;
  /** Install a downloaded update when the app quits anyway. */
  autoInstallOnAppQuit: boolean;
}

/** What {@link createUpdateController} needs. */
export interface UpdateControllerOptions {
  /** Null when the build has no feed. */
  updater: UpdaterAdapter | null;
  policy: { updatesAllowed: boolean; detail: string };
  /** Told every new model (to push to the renderer). */
  onChange?: (model: UpdateModel) => void;
  /** Time between checks in milliseconds; default 4 hours. */
  checkEveryMs?: number;
  /** Milliseconds since the epoch (injected for tests). */
  now?: () => number;
}

/** The running updater. */
export interface UpdateController {
  model(): UpdateModel;
  /** Checks now and then every `checkEveryMs`; does nothing without a feed or when off by policy. */
  start(): void;
  /** The player started or stopped. */
  setPlaying(playing: boolean): void;
  /** "Restart to update": now when nothing plays, else when playback stops. */
  requestRestart(): void;
  /** Stops the periodic checks. */
  stop(): void;
}

export const DEFAULT_CHECK_EVERY_MS = 4 * 3600_000;

/** Builds the controller and subscribes to the updater's events (no check until `start`). */
export function createUpdateController(options: UpdateControllerOptions): UpdateController {
  const now = options.now ?? Date.now;
  const updater = options.policy.updatesAllowed ? options.updater : null;
  let model = initialUpdateModel({ feedConfigured: options.updater !== null, policy: options.policy });
  let timer: ReturnType<typeof setInterval> | null = null;

  const dispatch = (event: UpdateEvent): void => {
    const result = updateTransition(model, event);
    const changed = result.model !== model;
    model = result.model;
    if (changed) options.onChange?.(model);
    // Silent (the Windows installer shows no wizard) and run again afterwards: a restart, as the button says.
    if (result.effects.includes('quit-and-install')) updater?.quitAndInstall(true, true);
  };

  if (updater) {
    updater.autoDownload = true;
    updater.autoInstallOnAppQuit = true;
    updater.on('checking-for-update', () => dispatch({ type: 'checking-for-update' }));
    updater.on('update-available', (info) => dispatch({ type: 'update-available', release: releaseOf(info) }));
    updater.on('update-not-available', () => dispatch({ type: 'update-not-available', atMs: now() }));
    updater.on('download-progress', (info) => dispatch({ type: 'download-progress', progress: progressOf(info) }));
    updater.on('update-downloaded', (info) => dispatch({ type: 'update-downloaded', release: releaseOf(info) }));
    updater.on('error', (error) => dispatch({ type: 'error', message: updateErrorMessage(error), atMs: now() }));
  }

  const check = (): void => {
    // A failure is also emitted as `error`, which is where it is shown.
    void updater?.checkForUpdates().catch(() => undefined);
  };

  return {
    model: () => model,
    start() {
      if (!updater || timer) return;
      check();
      timer = setInterval(check, options.checkEveryMs ?? DEFAULT_CHECK_EVERY_MS);
      timer.unref();
    },
    setPlaying: (playing) => dispatch({ type: 'playback', playing }),
    requestRestart: () => dispatch({ type: 'restart-requested' }),
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}

/** The release from electron-updater's info; notes of several releases are joined, newest first. */
export function releaseOf(info: UpdateInfoLike): UpdateRelease {
  const notes = info.releaseNotes;
  const text =
    typeof notes === 'string'
      ? notes
      : notes
        ? notes
            .filter((n) => n.note)
            .map((n) => `${n.version}\n${n.note ?? ''}`)
            .join('\n\n')
        : '';
  return { version: info.version, name: info.releaseName ?? null, notes: text.trim() === '' ? null : text.trim() };
}

function progressOf(info: ProgressInfoLike): UpdateProgress {
  return {
    percent: Math.max(0, Math.min(100, info.percent)),
    bytesPerSecond: info.bytesPerSecond,
    transferredBytes: info.transferred,
    totalBytes: info.total,
  };
}

/** The first line of an updater error, capped, with any URL's query string removed. */
export function updateErrorMessage(error: Error): string {
  const line = (error.message.split('\n')[0] ?? '').replace(/(https?:\/\/[^\s?#]+)[?#]\S*/g, '$1').slice(0, 200);
  return `The update could not be checked or downloaded: ${line || 'unknown error'}. Voice Review will try again later.`;
}
