/**
 * Window size and position (electron/main/shell/window-state.ts): saved to its own file, restored only
 * where the user can see it, with display layouts as a laptop meets them (docked, undocked,
 * resolution changed).
 */
import { EventEmitter } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  chooseWindowPlacement,
  createWindowStateStore,
  DEFAULT_WINDOW_SIZE,
  isVisibleOnSomeDisplay,
  rememberWindowState,
  type DisplayLike,
  type Rect,
  type WindowState,
} from '../../../electron/main/shell/window-state';

const LAPTOP: DisplayLike = { workArea: { x: 0, y: 0, width: 1920, height: 1050 } };
const MONITOR_RIGHT: DisplayLike = { workArea: { x: 1920, y: 0, width: 2560, height: 1400 } };
const MONITOR_LEFT_ABOVE: DisplayLike = { workArea: { x: -2560, y: -400, width: 2560, height: 1400 } };
const centred = { ...DEFAULT_WINDOW_SIZE, center: true, maximized: false };

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'vr-window-state-'));
  dirs.push(dir);
  return dir;
}

describe('where the window opens', () => {
  it('opens centred at 1280x800 the first time', () => {
    expect(chooseWindowPlacement(null, [LAPTOP])).toEqual(centred);
  });

  it('reopens where it was, maximized or not, when that place is on a display', () => {
    const onLaptop: WindowState = { bounds: { x: 100, y: 80, width: 1400, height: 900 }, maximized: false };
    expect(chooseWindowPlacement(onLaptop, [LAPTOP])).toEqual({
      x: 100,
      y: 80,
      width: 1400,
      height: 900,
      center: false,
      maximized: false,
    });
    const onMonitor: WindowState = { bounds: { x: 2200, y: 100, width: 1600, height: 1000 }, maximized: true };
    expect(chooseWindowPlacement(onMonitor, [LAPTOP, MONITOR_RIGHT])).toEqual({
      x: 2200,
      y: 100,
      width: 1600,
      height: 1000,
      center: false,
      maximized: true,
    });
    const negative: WindowState = { bounds: { x: -2000, y: -300, width: 1200, height: 800 }, maximized: false };
    expect(chooseWindowPlacement(negative, [LAPTOP, MONITOR_LEFT_ABOVE])).toMatchObject({
      x: -2000,
      y: -300,
      center: false,
    });
  });

  it('falls back to centred when the monitor it was on is gone (laptop undocked)', () => {
    const onMonitor: WindowState = { bounds: { x: 2200, y: 100, width: 1600, height: 1000 }, maximized: true };
    expect(chooseWindowPlacement(onMonitor, [LAPTOP])).toEqual(centred);
    expect(chooseWindowPlacement(onMonitor, [])).toEqual(centred);
  });

  it('falls back when the title bar would be off screen, even if most of the window shows', () => {
    const titleAbove: WindowState = { bounds: { x: 100, y: -100, width: 1200, height: 900 }, maximized: false };
    expect(chooseWindowPlacement(titleAbove, [LAPTOP])).toEqual(centred);
  });

  it('keeps a window that sticks out a little, refuses one that is mostly off screen', () => {
    const slightlyOut: Rect = { x: 1000, y: 100, width: 1200, height: 800 };
    expect(isVisibleOnSomeDisplay(slightlyOut, [LAPTOP])).toBe(true);
    const mostlyOut: Rect = { x: 1700, y: 100, width: 1200, height: 800 };
    expect(isVisibleOnSomeDisplay(mostlyOut, [LAPTOP])).toBe(false);
    // Across two displays: restored when at least half is on one of them, not otherwise.
    const mostlyOnMonitor: Rect = { x: 1400, y: 100, width: 1200, height: 800 };
    expect(isVisibleOnSomeDisplay(mostlyOnMonitor, [LAPTOP, MONITOR_RIGHT])).toBe(true);
    const tinyOnEach: Rect = { x: 1600, y: 900, width: 1200, height: 800 };
    expect(isVisibleOnSomeDisplay(tinyOnEach, [LAPTOP, MONITOR_RIGHT])).toBe(false);
  });

  it('never opens smaller than the layout needs', () => {
    const tiny: WindowState = { bounds: { x: 10, y: 10, width: 200, height: 100 }, maximized: false };
    expect(chooseWindowPlacement(tiny, [LAPTOP])).toMatchObject({ width: 900, height: 600, x: 10, y: 10 });
  });
});

describe('window-state.json', () => {
  it('round-trips through its own file, never settings.json, readable only by the user', async () => {
    const dir = tempDir();
    const store = createWindowStateStore(dir);
    expect(await store.load()).toBeNull();
    const state: WindowState = { bounds: { x: 12, y: 34, width: 1500, height: 950 }, maximized: true };
    await store.save(state);
    expect(await createWindowStateStore(dir).load()).toEqual(state);
    expect(readdirSync(dir)).toEqual(['window-state.json']);
    expect(existsSync(join(dir, 'settings.json'))).toBe(false);
    expect(statSync(store.path).mode & 0o077).toBe(0);
  });

  it('treats a corrupt or foreign file as nothing saved', async () => {
    const dir = tempDir();
    const store = createWindowStateStore(dir);
    for (const text of [
      '{not json',
      '{"bounds":{"x":"a"},"maximized":false}',
      '{"bounds":{"x":0,"y":0,"width":-5,"height":10},"maximized":false}',
      'null',
    ]) {
      writeFileSync(store.path, text);
      expect(await store.load(), text).toBeNull();
    }
  });

  it('replaces the file whole: a save never leaves a half-written file or temp files', async () => {
    const dir = tempDir();
    const store = createWindowStateStore(dir);
    const saves = Array.from({ length: 20 }, (_, i) =>
      store.save({ bounds: { x: i, y: i, width: 1000 + i, height: 700 }, maximized: i % 2 === 0 }),
    );
    await Promise.all(saves);
    const parsed = JSON.parse(readFileSync(store.path, 'utf8')) as WindowState;
    expect(parsed.bounds.width - parsed.bounds.x).toBe(1000);
    expect(readdirSync(dir)).toEqual(['window-state.json']);
  });

  it('refuses to save a state of the wrong shape', async () => {
    const store = createWindowStateStore(tempDir());
    await expect(
      store.save({ bounds: { x: Number.NaN, y: 0, width: 100, height: 100 }, maximized: false }),
    ).rejects.toThrow();
  });
});

describe('remembering a window', () => {
  class FakeWindow extends EventEmitter {
    constructor(
      private bounds: Rect,
      private maximized: boolean,
    ) {
      super();
    }
    getNormalBounds() {
      return this.bounds;
    }
    isMaximized() {
      return this.maximized;
    }
  }

  it('saves normal bounds and the maximized flag when the window closes, and the next start uses them', async () => {
    const dir = tempDir();
    const store = createWindowStateStore(dir);
    const win = new FakeWindow({ x: 300, y: 200, width: 1100, height: 750 }, true);
    const tracker = rememberWindowState(win, store);
    expect(await store.load()).toBeNull();
    win.emit('close');
    await tracker.flush();
    expect(chooseWindowPlacement(await createWindowStateStore(dir).load(), [LAPTOP])).toEqual({
      x: 300,
      y: 200,
      width: 1100,
      height: 750,
      center: false,
      maximized: true,
    });
  });

  it('reports a failed save instead of throwing', async () => {
    const dir = tempDir();
    const blocker = join(dir, 'not-a-folder');
    writeFileSync(blocker, 'x');
    const errors: unknown[] = [];
    const win = new FakeWindow({ x: 0, y: 0, width: 1000, height: 700 }, false);
    // The user-data "folder" is a file, so the save fails.
    const tracker = rememberWindowState(win, createWindowStateStore(blocker), (e) => errors.push(e));
    expect(() => win.emit('close')).not.toThrow();
    await tracker.flush();
    expect(errors).toHaveLength(1);
  });
});
