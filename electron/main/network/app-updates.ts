/**
 * Starts updates in the app: reads the policy, and only when the build has a feed (electron-builder
 * writes `app-update.yml` beside the app's resources when `publish` is configured) and no policy
 * turns updates off, loads electron-updater and starts the controller (update-controller.ts).
 * Otherwise the controller only reports why there are no updates. electron-updater is loaded
 * lazily, so a build without a feed or a desk with updates off never loads it.
 */
import { existsSync } from 'node:fs';
import { createUpdateController, type UpdateController, type UpdaterAdapter } from './update-controller';
import type { UpdatePolicy } from './update-policy';
import type { UpdateModel } from './update-state';

/** What {@link startAppUpdates} reads. */
export interface AppUpdatesOptions {
  /** `<resources>/app-update.yml`, or null where there is no packaged app (development, tests). */
  feedFile: string | null;
  policy: () => Promise<UpdatePolicy>;
  /** electron-updater's `autoUpdater` (dynamically imported by index.ts). */
  loadUpdater: () => Promise<UpdaterAdapter>;
  onChange: (model: UpdateModel) => void;
}

/** An updater that is never asked anything: the feed exists but the policy turned updates off. */
const OFF: UpdaterAdapter = {
  on: () => OFF,
  checkForUpdates: () => Promise.resolve(null),
  quitAndInstall: () => undefined,
  autoDownload: false,
  autoInstallOnAppQuit: false,
};

/**
 * The controller, started when allowed.
 * @returns the controller and whether it was started (checks running)
 */
export async function startAppUpdates(
  options: AppUpdatesOptions,
): Promise<{ controller: UpdateController; started: boolean }> {
  const policy = await options.policy();
  const feed = options.feedFile !== null && existsSync(options.feedFile);
  const allowed = feed && policy.updatesAllowed;
  const updater = allowed ? await options.loadUpdater() : feed ? OFF : null;
  const controller = createUpdateController({ updater, policy, onChange: options.onChange });
  if (allowed) controller.start();
  return { controller, started: allowed };
}

/** The update's state in words for Diagnostics. */
export function describeUpdate(model: UpdateModel | null): string | null {
  if (!model) return null;
  const { state } = model;
  switch (state.status) {
    case 'no-feed':
      return 'This build has no update feed.';
    case 'disabled-by-policy':
      return null;
    case 'idle':
      return state.lastCheckedAtMs === null ? 'Not checked yet.' : 'Up to date at the last check.';
    case 'checking':
      return 'Checking now.';
    case 'available':
      return `Version ${state.release.version} is available.`;
    case 'downloading':
      return `Downloading ${state.release.version} (${Math.round(state.progress.percent)}%).`;
    case 'downloaded':
      return `Version ${state.release.version} is downloaded, waiting for a restart.`;
    case 'error':
      return state.message;
  }
}
