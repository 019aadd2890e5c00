/**
 * Window size and position remembered between runs, in `<userData>/window-state.json` (its own file: settings.json holds workspaces).
 *
 * The saved bounds are used only when the window would be visible on one of the displays present
 * now (a laptop undocked from its second monitor must not open its window off-screen); otherwise
 * the window opens centred at the default size. Plain Node: the displays and the window are
 * passed in, so tests need no Electron.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { writePrivateFile } from './private-file';

/** A rectangle in screen coordinates (DIP, as Electron's `Rectangle`). */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** What is saved: the window's normal (not maximized) bounds and whether it was maximized. */
export interface WindowState {
  bounds: Rect;
  maximized: boolean;
}

/** A display as the visibility check needs it (Electron's `Display.workArea`: without task bars). */
export interface DisplayLike {
  workArea: Rect;
}

/** Where and how big the window opens. `x`/`y` absent (with `center: true`) means "centre it". */
export interface WindowPlacement {
  width: number;
  height: number;
  x?: number;
  y?: number;
  center: boolean;
  maximized: boolean;
}

/** Default size of a new window, in DIP. */
export const DEFAULT_WINDOW_SIZE = { width: 1280, height: 800 } as const;
/** Smallest window the layout works in (the BrowserWindow's minWidth/minHeight), in DIP. */
export const MIN_WINDOW_SIZE = { width: 900, height: 600 } as const;
/** File name inside the user-data folder. */
const WINDOW_STATE_FILE_NAME = 'window-state.json';

/** Height of the strip at the window's top that must be on screen so it can be dragged, in DIP. */
const TITLE_BAR_DIP = 32;
/** Part of the title bar's width that must be on one display, in DIP. */
const MIN_VISIBLE_TITLE_DIP = 120;

// z.number() refuses Infinity and NaN (zod 4), so every number here is finite.
const stateSchema = z.object({
  bounds: z.object({ x: z.number(), y: z.number(), width: z.number().positive(), height: z.number().positive() }),
  maximized: z.boolean(),
});

function overlap(a: Rect, b: Rect): Rect | null {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  const right = Math.min(a.x + a.width, b.x + b.width);
  const bottom = Math.min(a.y + a.height, b.y + b.height);
  return right > x && bottom > y ? { x, y, width: right - x, height: bottom - y } : null;
}

/**
 * True when `bounds` is usable on one of `displays`: at least half of the window's area and at
 * least 120 DIP of its title bar (top 32 DIP) lie on the same display's work area. (Where the
 * issue is silent: "visible" means the user can see and drag the window, not that every pixel is
 * on screen.)
 */
export function isVisibleOnSomeDisplay(bounds: Rect, displays: readonly DisplayLike[]): boolean {
  const titleBar: Rect = {
    x: bounds.x,
    y: bounds.y,
    width: bounds.width,
    height: Math.min(TITLE_BAR_DIP, bounds.height),
  };
  return displays.some(({ workArea }) => {
    const body = overlap(bounds, workArea);
    const title = overlap(titleBar, workArea);
    return (
      body !== null &&
      title !== null &&
      body.width * body.height >= (bounds.width * bounds.height) / 2 &&
      title.width >= Math.min(MIN_VISIBLE_TITLE_DIP, bounds.width)
    );
  });
}

/**
 * Where the window opens: the saved bounds (at least {@link MIN_WINDOW_SIZE}, whole DIP) and
 * maximized flag when they are visible on one of `displays`, else the default size centred and
 * not maximized.
 * @param saved what {@link WindowStateStore.load} returned (null: nothing saved or unreadable)
 * @param displays the displays now (Electron's `screen.getAllDisplays()`)
 */
export function chooseWindowPlacement(saved: WindowState | null, displays: readonly DisplayLike[]): WindowPlacement {
  if (saved) {
    const bounds: Rect = {
      x: Math.round(saved.bounds.x),
      y: Math.round(saved.bounds.y),
      width: Math.max(MIN_WINDOW_SIZE.width, Math.round(saved.bounds.width)),
      height: Math.max(MIN_WINDOW_SIZE.height, Math.round(saved.bounds.height)),
    };
    if (isVisibleOnSomeDisplay(bounds, displays)) return { ...bounds, center: false, maximized: saved.maximized };
  }
  return { ...DEFAULT_WINDOW_SIZE, center: true, maximized: false };
}

/** Reads and writes window-state.json; see {@link createWindowStateStore}. */
export interface WindowStateStore {
  /** The saved state, or null when the file is missing, unreadable or of the wrong shape. Never throws. */
  load(): Promise<WindowState | null>;
  /**
   * Writes the state atomically (temp file in the same folder, then rename; mode 0600).
   * @throws Error when the state has the wrong shape or the write fails
   */
  save(state: WindowState): Promise<void>;
  /** Absolute path of the file. */
  path: string;
}

/**
 * The window state stored as `<dir>/window-state.json`.
 * @param dir the app's user-data folder (a temp dir in tests)
 */
export function createWindowStateStore(dir: string): WindowStateStore {
  const path = join(dir, WINDOW_STATE_FILE_NAME);
  return {
    path,
    async load() {
      try {
        const parsed = stateSchema.safeParse(JSON.parse(await readFile(path, 'utf8')));
        return parsed.success ? parsed.data : null;
      } catch {
        return null;
      }
    },
    async save(state) {
      const parsed = stateSchema.parse(state);
      await writePrivateFile(path, `${JSON.stringify(parsed)}\n`);
    },
  };
}

/** The part of a BrowserWindow that {@link rememberWindowState} uses. */
export interface TrackedWindow {
  getNormalBounds(): Rect;
  isMaximized(): boolean;
  on(event: 'close', listener: () => void): unknown;
}

/**
 * Saves the window's state when it closes (normal bounds, so a maximized window reopens
 * maximized over the place it came from). A failed save is passed to `onError` (for the log) and
 * never stops the window from closing. `flush()` resolves once the last save has finished (or
 * failed): await it before the app quits.
 */
export function rememberWindowState(
  win: TrackedWindow,
  store: WindowStateStore,
  onError: (err: unknown) => void = () => undefined,
): { flush(): Promise<void> } {
  let pending: Promise<void> = Promise.resolve();
  win.on('close', () => {
    try {
      const state: WindowState = { bounds: win.getNormalBounds(), maximized: win.isMaximized() };
      pending = store.save(state).catch(onError);
    } catch (err) {
      onError(err);
    }
  });
  return { flush: () => pending };
}
