/**
 * The settings file: settings.json in the app's user-data folder (the folder is passed in, so this
 * file needs no Electron import and tests use a temp dir).
 *
 * It holds the list of workspaces, which one is active, and the user's preferences. It
 * never holds an API key: keys live in the OS keychain (see keychain.ts) or the key storage
 * fallback (secret-storage.ts), and {@link createSettingsStore}'s save() writes only the fields
 * declared here, so a key that rides along on an object is dropped, not written.
 */
import { readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { Preferences } from '$shared/contract';
import { REQUEST_TIMEOUT_SECONDS } from '$shared/validation';
import { writePrivateFile } from '../shell/private-file';

/** One workspace the user added. Its API key is in the keychain under account `id`. */
export interface StoredWorkspace {
  /** Stable id; with the origin of `baseUrl` it names the keychain account (workspace-keys.ts). */
  id: string;
  /** Name shown in the workspace switcher. */
  name: string;
  /** API base URL, e.g. "https://api.example.com/v1". */
  baseUrl: string;
  /**
   * Set by the workspace registry when settings are loaded: why `baseUrl` breaks the base URL
   * rule (shared/base-url.ts), e.g. after the file was edited by hand. Never written to the file;
   * such a workspace is never used for a request (workspace-keys.ts refuses to hand out its key).
   */
  baseUrlProblem?: string;
}

/** Everything in settings.json. */
export interface Settings {
  /** File format version; a file with another version is treated as unreadable. */
  version: 1;
  workspaces: StoredWorkspace[];
  /** Id of the workspace shown at start, or null for none. Always one of `workspaces` after load. */
  activeWorkspaceId: string | null;
  /** User preferences; files written before preferences existed load with the defaults. */
  preferences: Preferences;
}

/** The preferences of a new install. */
function defaultPreferences(): Preferences {
  return { requestTimeoutSeconds: REQUEST_TIMEOUT_SECONDS.default };
}

/** Reads and writes settings.json; returned by {@link createSettingsStore}. */
export interface SettingsStore {
  /**
   * The saved settings, or the defaults (no workspaces, none active) when the file is missing,
   * is not JSON, or has the wrong shape. An unreadable file is first renamed to
   * `settings.json.corrupt-<timestamp>` so nothing is lost. Unknown fields are ignored (dropped).
   * Missing or out-of-range preferences take their defaults without discarding the file (a file
   * from before preferences existed has none).
   *
   * @throws Error when the file exists but cannot be read (e.g. permissions).
   */
  load(): Promise<Settings>;
  /**
   * Writes `settings` atomically (temp file in the same folder, then rename), file mode 0600,
   * creating the folder if needed. Only the fields of {@link Settings} are written.
   *
   * @throws Error when `settings` does not have the {@link Settings} shape or the write fails.
   */
  save(settings: Settings): Promise<void>;
  /** Absolute path of settings.json. */
  path: string;
}

const workspaceSchema = z.object({
  id: z.string().min(1),
  name: z.string(),
  baseUrl: z.string(),
});

const requestTimeoutSchema = z.number().int().min(REQUEST_TIMEOUT_SECONDS.min).max(REQUEST_TIMEOUT_SECONDS.max);

// z.object drops unknown keys, which is how save() guarantees no stray field (such as a key) is written.
/** What save() accepts: preferences must be present and in range. */
const settingsSchema = z.object({
  version: z.literal(1),
  workspaces: z.array(workspaceSchema),
  activeWorkspaceId: z.string().nullable(),
  preferences: z.object({ requestTimeoutSeconds: requestTimeoutSchema }),
});

/**
 * What load() accepts: as {@link settingsSchema}, but a missing or unreadable preference falls back
 * to its default (one bad preference must not cost the user their workspace list).
 */
const loadSchema = settingsSchema.extend({
  preferences: z
    .object({ requestTimeoutSeconds: requestTimeoutSchema.catch(REQUEST_TIMEOUT_SECONDS.default) })
    .catch(defaultPreferences),
});

/** File name of the settings file inside the user-data folder. */
const SETTINGS_FILE_NAME = 'settings.json';

function defaultSettings(): Settings {
  return { version: 1, workspaces: [], activeWorkspaceId: null, preferences: defaultPreferences() };
}

/** An active id that names no workspace is treated as "none active". */
function normalize(settings: Settings): Settings {
  const activeExists = settings.workspaces.some((w) => w.id === settings.activeWorkspaceId);
  return { ...settings, activeWorkspaceId: activeExists ? settings.activeWorkspaceId : null };
}

function isErrnoCode(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;
}

/**
 * Settings stored as `<dir>/settings.json`.
 *
 * @param dir the app's user-data folder (Electron's `app.getPath('userData')`), or a temp dir in tests.
 */
export function createSettingsStore(dir: string): SettingsStore {
  const path = join(dir, SETTINGS_FILE_NAME);

  async function keepCorruptCopy(): Promise<void> {
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    await rename(path, `${path}.corrupt-${stamp}`);
  }

  return {
    path,

    async load() {
      let text: string;
      try {
        text = await readFile(path, 'utf8');
      } catch (error) {
        if (isErrnoCode(error, 'ENOENT')) return defaultSettings();
        throw new Error(`Could not read the settings file ${path}: ${(error as Error).message}`, { cause: error });
      }
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        await keepCorruptCopy();
        return defaultSettings();
      }
      const parsed = loadSchema.safeParse(json);
      if (!parsed.success) {
        await keepCorruptCopy();
        return defaultSettings();
      }
      return normalize(parsed.data);
    },

    async save(settings) {
      const parsed = settingsSchema.safeParse(settings);
      if (!parsed.success) {
        throw new Error(`Refusing to save settings of the wrong shape: ${z.prettifyError(parsed.error)}`);
      }
      const text = `${JSON.stringify(normalize(parsed.data), null, 2)}\n`;
      await writePrivateFile(path, text);
    },
  };
}
