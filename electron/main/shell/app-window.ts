/**
 * The app window's size and place. Electron remembers the window's bounds and display mode
 * (maximized, full screen) between runs itself (`windowStatePersistence`, keyed by the window's
 * `name`, stored in Chromium's Local State under the user-data folder) and brings back onto a
 * present display a window whose monitor is gone. That option is marked experimental, so the
 * window is also checked once before it is shown: when its title bar is on no display's work area,
 * it is centred on the primary display at the default size. Plain Node: the displays and the
 * window are passed in, so tests need no Electron.
 */
import type { BrowserWindowConstructorOptions } from 'electron';

/** A rectangle in screen coordinates (DIP, as Electron's `Rectangle`). */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A display as the visibility check needs it (Electron's `Display.workArea`: without task bars). */
export interface DisplayLike {
  workArea: Rect;
}

/** Default size of a new window, in DIP. */
export const DEFAULT_WINDOW_SIZE = { width: 1280, height: 800 } as const;
/** Smallest window the layout works in (the BrowserWindow's minWidth/minHeight), in DIP. */
export const MIN_WINDOW_SIZE = { width: 900, height: 600 } as const;

/**
 * The window's size and persistence options: the default size centred the first time, the size and
 * place (and maximized or full screen) it had when last closed after that.
 */
export const APP_WINDOW_PLACEMENT = {
  /** Electron keys the remembered state by this name; renaming it forgets every user's window place. */
  name: 'voice-review-main',
  windowStatePersistence: true,
  width: DEFAULT_WINDOW_SIZE.width,
  height: DEFAULT_WINDOW_SIZE.height,
  center: true,
  minWidth: MIN_WINDOW_SIZE.width,
  minHeight: MIN_WINDOW_SIZE.height,
} as const satisfies BrowserWindowConstructorOptions;

/** Height of the strip at the window's top that must be on screen so it can be dragged, in DIP. */
const TITLE_BAR_DIP = 32;
/** Part of the title bar's width that must be on one display, in DIP. */
const MIN_VISIBLE_TITLE_DIP = 120;

function overlap(a: Rect, b: Rect): Rect | null {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  const right = Math.min(a.x + a.width, b.x + b.width);
  const bottom = Math.min(a.y + a.height, b.y + b.height);
  return right > x && bottom > y ? { x, y, width: right - x, height: bottom - y } : null;
}

/**
 * True when `bounds` is usable on one of `displays`: at least half of the window's area and at
 * least 120 DIP of its title bar (top 32 DIP) lie on the same display's work area. "Usable" means
 * the user can see and drag the window, not that every pixel is on screen.
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

/** The part of a BrowserWindow that {@link keepOnScreen} uses. */
export interface PlacedWindow {
  getBounds(): Rect;
  setBounds(bounds: Rect): void;
  isMaximized(): boolean;
  isFullScreen(): boolean;
}

/**
 * Moves `win` to the centre of `primary`'s work area at the default size (smaller when the work
 * area is) when its bounds are not usable on any of `displays` (see {@link isVisibleOnSomeDisplay});
 * a maximized or full-screen window is left to the window system.
 * @param displays the displays now (Electron's `screen.getAllDisplays()`)
 * @param primary the primary display (Electron's `screen.getPrimaryDisplay()`)
 * @returns true when the window was moved
 */
export function keepOnScreen(win: PlacedWindow, displays: readonly DisplayLike[], primary: DisplayLike): boolean {
  if (win.isMaximized() || win.isFullScreen()) return false;
  if (isVisibleOnSomeDisplay(win.getBounds(), displays)) return false;
  const area = primary.workArea;
  const width = Math.min(DEFAULT_WINDOW_SIZE.width, area.width);
  const height = Math.min(DEFAULT_WINDOW_SIZE.height, area.height);
  win.setBounds({
    x: Math.round(area.x + (area.width - width) / 2),
    y: Math.round(area.y + (area.height - height) / 2),
    width,
    height,
  });
  return true;
}
