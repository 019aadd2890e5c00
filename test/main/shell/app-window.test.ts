/**
 * The app window's place (electron/main/shell/app-window.ts): a window that Electron restored
 * where the user can no longer reach it is brought back, with display layouts as a laptop meets
 * them (docked, undocked, resolution changed); one the user can reach stays where it is.
 */
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_WINDOW_SIZE,
  isVisibleOnSomeDisplay,
  keepOnScreen,
  type DisplayLike,
  type PlacedWindow,
  type Rect,
} from '../../../electron/main/shell/app-window';

const LAPTOP: DisplayLike = { workArea: { x: 0, y: 0, width: 1920, height: 1050 } };
const MONITOR_RIGHT: DisplayLike = { workArea: { x: 1920, y: 0, width: 2560, height: 1400 } };
const MONITOR_LEFT_ABOVE: DisplayLike = { workArea: { x: -2560, y: -400, width: 2560, height: 1400 } };
/** The default size centred on the laptop's work area. */
const CENTRED_ON_LAPTOP: Rect = { x: 320, y: 125, ...DEFAULT_WINDOW_SIZE };

/** A window stand-in restored at `bounds`. */
function restoredAt(
  bounds: Rect,
  mode: { maximized?: boolean; fullScreen?: boolean } = {},
): PlacedWindow & { bounds: Rect } {
  const win: PlacedWindow & { bounds: Rect } = {
    bounds,
    getBounds: () => win.bounds,
    setBounds: (next) => (win.bounds = next),
    isMaximized: () => mode.maximized ?? false,
    isFullScreen: () => mode.fullScreen ?? false,
  };
  return win;
}

describe('a window restored by Electron', () => {
  it('stays where it was when that place is on a display, also on a monitor left of and above the laptop', () => {
    const onLaptop = restoredAt({ x: 100, y: 80, width: 1400, height: 900 });
    expect(keepOnScreen(onLaptop, [LAPTOP], LAPTOP)).toBe(false);
    expect(onLaptop.bounds).toEqual({ x: 100, y: 80, width: 1400, height: 900 });
    const onMonitor = restoredAt({ x: -2000, y: -300, width: 1200, height: 800 });
    expect(keepOnScreen(onMonitor, [LAPTOP, MONITOR_LEFT_ABOVE], LAPTOP)).toBe(false);
    expect(onMonitor.bounds).toEqual({ x: -2000, y: -300, width: 1200, height: 800 });
  });

  it('comes back centred on the primary display when the monitor it was on is gone (laptop undocked)', () => {
    const onGoneMonitor = restoredAt({ x: 2200, y: 100, width: 1600, height: 1000 });
    expect(keepOnScreen(onGoneMonitor, [LAPTOP], LAPTOP)).toBe(true);
    expect(onGoneMonitor.bounds).toEqual(CENTRED_ON_LAPTOP);
  });

  it('comes back when its title bar is off screen, even if most of the window shows', () => {
    const titleAbove = restoredAt({ x: 100, y: -100, width: 1200, height: 900 });
    expect(keepOnScreen(titleAbove, [LAPTOP], LAPTOP)).toBe(true);
    expect(titleAbove.bounds).toEqual(CENTRED_ON_LAPTOP);
  });

  it('fits the default size into a primary display smaller than it', () => {
    const small: DisplayLike = { workArea: { x: 0, y: 0, width: 1024, height: 700 } };
    const offScreen = restoredAt({ x: 5000, y: 5000, width: 1400, height: 900 });
    keepOnScreen(offScreen, [small], small);
    expect(offScreen.bounds).toEqual({ x: 0, y: 0, width: 1024, height: 700 });
  });

  it('leaves a maximized or full-screen window to the window system', () => {
    const maximized = restoredAt({ x: 2200, y: 0, width: 2560, height: 1400 }, { maximized: true });
    expect(keepOnScreen(maximized, [LAPTOP], LAPTOP)).toBe(false);
    const fullScreen = restoredAt({ x: 2200, y: 0, width: 2560, height: 1400 }, { fullScreen: true });
    expect(keepOnScreen(fullScreen, [LAPTOP], LAPTOP)).toBe(false);
  });
});

describe('reachable on a display', () => {
  it('keeps a window that sticks out a little, refuses one that is mostly off screen', () => {
    const slightlyOut: Rect = { x: 1000, y: 100, width: 1200, height: 800 };
    expect(isVisibleOnSomeDisplay(slightlyOut, [LAPTOP])).toBe(true);
    const mostlyOut: Rect = { x: 1700, y: 100, width: 1200, height: 800 };
    expect(isVisibleOnSomeDisplay(mostlyOut, [LAPTOP])).toBe(false);
    // Across two displays: usable when at least half is on one of them, not otherwise.
    const mostlyOnMonitor: Rect = { x: 1400, y: 100, width: 1200, height: 800 };
    expect(isVisibleOnSomeDisplay(mostlyOnMonitor, [LAPTOP, MONITOR_RIGHT])).toBe(true);
    const tinyOnEach: Rect = { x: 1600, y: 900, width: 1200, height: 800 };
    expect(isVisibleOnSomeDisplay(tinyOnEach, [LAPTOP, MONITOR_RIGHT])).toBe(false);
  });

  it('is nowhere when there is no display', () => {
    expect(isVisibleOnSomeDisplay({ x: 0, y: 0, width: 1280, height: 800 }, [])).toBe(false);
  });
});
