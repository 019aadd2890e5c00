/**
 * The update's state, as Settings and the "Restart to update" button show it: a pure state
 * machine fed with electron-updater's events (see update-controller.ts for the wiring) and the
 * player's state. A downloaded update never interrupts playback: "Restart to update" pressed
 * while a call plays waits until it stops.
 */

/** What an update is, as the feed describes it (from electron-updater's `UpdateInfo`). */
export interface UpdateRelease {
  version: string;
  /** The release's name, when the feed gives one. */
  name: string | null;
  /**
   * The release notes as plain text (several releases' notes joined), or null. They come from the
   * feed: the view shows them as text, never as HTML.
   */
  notes: string | null;
}

/** Download progress (from electron-updater's `ProgressInfo`). */
export interface UpdateProgress {
  /** 0-100. */
  percent: number;
  bytesPerSecond: number;
  transferredBytes: number;
  totalBytes: number;
}

/** Where the update is. */
export type UpdateState =
  /** The build has no feed (no `publish` configuration): updates are not offered. */
  | { status: 'no-feed' }
  /** IT turned updates off; `detail` says where (update-policy.ts). */
  | { status: 'disabled-by-policy'; detail: string }
  /** Waiting for the next check; `lastCheckedAtMs` is null before the first. */
  | { status: 'idle'; lastCheckedAtMs: number | null }
  | { status: 'checking' }
  | { status: 'available'; release: UpdateRelease }
  | { status: 'downloading'; release: UpdateRelease; progress: UpdateProgress }
  /** Ready to install; `restartRequested` when the user pressed "Restart to update" while a call played. */
  | { status: 'downloaded'; release: UpdateRelease; restartRequested: boolean }
  | { status: 'error'; message: string; lastCheckedAtMs: number | null };

/** The state and whether a recording is playing. */
export interface UpdateModel {
  state: UpdateState;
  playing: boolean;
}

/** What happens to the model. */
export type UpdateEvent =
  | { type: 'checking-for-update' }
  | { type: 'update-available'; release: UpdateRelease }
  | { type: 'update-not-available'; atMs: number }
  | { type: 'download-progress'; progress: UpdateProgress }
  | { type: 'update-downloaded'; release: UpdateRelease }
  | { type: 'error'; message: string; atMs: number }
  /** The player started or stopped (any window). */
  | { type: 'playback'; playing: boolean }
  /** The user pressed "Restart to update". */
  | { type: 'restart-requested' };

/** What the controller must do after a transition. */
export type UpdateEffect = 'quit-and-install';

/** The first model: no feed, off by policy, or idle. */
export function initialUpdateModel(options: {
  feedConfigured: boolean;
  policy: { updatesAllowed: boolean; detail: string };
}): UpdateModel {
  if (!options.feedConfigured) return { state: { status: 'no-feed' }, playing: false };
  if (!options.policy.updatesAllowed) {
    return { state: { status: 'disabled-by-policy', detail: options.policy.detail }, playing: false };
  }
  return { state: { status: 'idle', lastCheckedAtMs: null }, playing: false };
}

/** True when "Restart to update" would restart now (downloaded and nothing playing). */
export function canRestartNow(model: UpdateModel): boolean {
  return model.state.status === 'downloaded' && !model.playing;
}

/**
 * The next model after `event`, and the effects to run. Without a feed or with updates off by
 * policy, updater events change nothing. A downloaded update stays downloaded through later
 * checks and their errors (it is on disk), until a newer version is announced.
 */
export function updateTransition(
  model: UpdateModel,
  event: UpdateEvent,
): { model: UpdateModel; effects: UpdateEffect[] } {
  const { state } = model;
  const same = { model, effects: [] as UpdateEffect[] };
  if (event.type === 'playback') {
    const next = { ...model, playing: event.playing };
    const release = state.status === 'downloaded' && state.restartRequested && !event.playing;
    return { model: next, effects: release ? ['quit-and-install'] : [] };
  }
  if (event.type === 'restart-requested') {
    if (state.status !== 'downloaded') return same;
    if (!model.playing) return { model, effects: ['quit-and-install'] };
    return { model: { ...model, state: { ...state, restartRequested: true } }, effects: [] };
  }
  if (state.status === 'no-feed' || state.status === 'disabled-by-policy') return same;
  const to = (next: UpdateState) => ({ model: { ...model, state: next }, effects: [] as UpdateEffect[] });
  if (state.status === 'downloaded') {
    const newer = event.type === 'update-available' && event.release.version !== state.release.version;
    return newer ? to({ status: 'available', release: event.release }) : same;
  }
  switch (event.type) {
    case 'checking-for-update':
      return to({ status: 'checking' });
    case 'update-available':
      return to({ status: 'available', release: event.release });
    case 'update-not-available':
      return to({ status: 'idle', lastCheckedAtMs: event.atMs });
    case 'download-progress': {
      const release = state.status === 'available' || state.status === 'downloading' ? state.release : null;
      return release ? to({ status: 'downloading', release, progress: event.progress }) : same;
    }
    case 'update-downloaded':
      return to({ status: 'downloaded', release: event.release, restartRequested: false });
    case 'error':
      return to({ status: 'error', message: event.message, lastCheckedAtMs: event.atMs });
  }
}
