/**
 * The save dialog as main's exports see it: a seam, so Electron shows `dialog.showSaveDialog`
 * while the end-to-end harness and the tests stand in a chooser that answers with a temporary
 * path. The renderer never sends a path: it asks for a save, main asks the user where.
 */
import { isAbsolute, join } from 'node:path';
import { ApiError } from '$shared/errors';

/** What the dialog is asked to show. */
export interface SaveDialogRequest {
  /** Window title, e.g. "Export transcript". */
  title: string;
  /** The suggested file name (no folder), e.g. `interaction_<sid>_2025-03-04_1012.srt`. */
  defaultName: string;
  /** One filter, e.g. `{ name: 'SubRip subtitles', extensions: ['srt'] }`. */
  filters: Array<{ name: string; extensions: string[] }>;
}

/**
 * Asks the user where to save: resolves with an absolute path, or null when the dialog was
 * cancelled. In Electron: `dialog.showSaveDialog(window, { title, defaultPath, filters })`.
 */
export type SavePathChooser = (request: SaveDialogRequest) => Promise<string | null>;

/**
 * The path the user chose for `request` through `choose` (or null when cancelled).
 * @throws ApiError `bad_input` when no chooser is wired (a stack without a window) or when it
 *   answered with a path that is not absolute
 */
export async function chooseSavePath(
  choose: SavePathChooser | undefined,
  request: SaveDialogRequest,
): Promise<string | null> {
  if (!choose) {
    throw new ApiError({ kind: 'bad_input', message: 'Saving files is not available here. Use the Voice Review app.' });
  }
  const path = await choose(request);
  if (path === null || path === '') return null;
  if (!isAbsolute(path)) {
    throw new ApiError({ kind: 'bad_input', message: 'The chosen place to save is not a full path. Choose it again.' });
  }
  return path;
}

/**
 * A file system failure while saving, in words: what happened to the file `name` and what to do.
 * Nothing was written (writes are atomic).
 */
export function saveFailed(name: string, err: unknown): ApiError {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  const why =
    code === 'EACCES' || code === 'EPERM' || code === 'EROFS'
      ? 'Voice Review may not write in that folder'
      : code === 'ENOSPC' || code === 'EDQUOT'
        ? 'the disk is full'
        : code === 'ENOENT' || code === 'ENOTDIR'
          ? 'that folder does not exist any more'
          : `the file system refused it${code ? ` (${code})` : ''}`;
  return new ApiError({
    kind: 'bad_input',
    message: `"${name}" could not be saved: ${why}. Nothing was written; choose another folder and try again.`,
  });
}

/** The part of Electron's `dialog` {@link electronSaveChooser} uses. */
export interface SaveDialogLike<Window> {
  showSaveDialog(
    window: Window,
    options: {
      title: string;
      defaultPath: string;
      filters: SaveDialogRequest['filters'];
      properties: Array<'createDirectory' | 'showOverwriteConfirmation'>;
    },
  ): Promise<{ canceled: boolean; filePath?: string }>;
}

/**
 * The app's chooser: Electron's save dialog, attached to `parent()` (the app window), opening in
 * `folder` (the user's Downloads folder) with the suggested name; it asks before overwriting.
 * In index.ts: `chooseSavePath: electronSaveChooser(dialog, () => mainWindow, app.getPath('downloads'))`.
 */
export function electronSaveChooser<Window>(
  dialog: SaveDialogLike<Window>,
  parent: () => Window,
  folder: string,
): SavePathChooser {
  return async ({ title, defaultName, filters }) => {
    const result = await dialog.showSaveDialog(parent(), {
      title,
      defaultPath: join(folder, defaultName),
      filters,
      properties: ['createDirectory', 'showOverwriteConfirmation'],
    });
    return result.canceled || !result.filePath ? null : result.filePath;
  };
}
