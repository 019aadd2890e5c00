/**
 * The native application menu's template (electron/main/shell/app-menu.ts) on each platform, packaged
 * and not: the File items and the commands they send, the Edit roles, no reload or DevTools in a
 * packaged app, Help, and the macOS app menu.
 */
import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import { applicationMenuTemplate } from '../../../electron/main/shell/app-menu';

type Item = MenuItemConstructorOptions;

function menu(label: string, template: Item[]): Item[] {
  const found = template.find((m) => m.label === label || (label === 'Help' && m.role === 'help'));
  if (!found) throw new Error(`No ${label} menu`);
  return found.submenu as Item[];
}

/** Every item of the template, submenus flattened. */
function allItems(template: Item[]): Item[] {
  return template.flatMap((item) => [item, ...(Array.isArray(item.submenu) ? allItems(item.submenu) : [])]);
}

const click = (item: Item | undefined) => (item?.click as (() => void) | undefined)?.();

describe('applicationMenuTemplate', () => {
  it.each(['linux', 'win32', 'darwin'])('has File, Edit, View and Help on %s', (platform) => {
    const template = applicationMenuTemplate({ platform, isPackaged: true }, vi.fn());
    for (const label of ['File', 'Edit', 'View', 'Help']) expect(menu(label, template).length).toBeGreaterThan(0);
  });

  it.each(['linux', 'win32', 'darwin'])(
    'gives Edit the standard roles on %s, so copy and paste work everywhere',
    (platform) => {
      const edit = menu('Edit', applicationMenuTemplate({ platform, isPackaged: true }, vi.fn()));
      expect(edit.filter((i) => i.role).map((i) => i.role)).toEqual([
        'undo',
        'redo',
        'cut',
        'copy',
        'paste',
        'pasteAndMatchStyle',
        'delete',
        'selectAll',
      ]);
    },
  );

  it.each(['linux', 'win32', 'darwin'])('has no reload and no DevTools when packaged on %s', (platform) => {
    const roles = allItems(applicationMenuTemplate({ platform, isPackaged: true }, vi.fn())).map((i) => i.role);
    expect(roles).not.toContain('reload');
    expect(roles).not.toContain('forceReload');
    expect(roles).not.toContain('toggleDevTools');
    expect(roles).toEqual(expect.arrayContaining(['zoomIn', 'zoomOut', 'resetZoom', 'togglefullscreen']));
  });

  it('offers reload and DevTools in development', () => {
    const roles = menu('View', applicationMenuTemplate({ platform: 'linux', isPackaged: false }, vi.fn())).map(
      (i) => i.role,
    );
    expect(roles).toEqual(expect.arrayContaining(['reload', 'toggleDevTools', 'zoomIn', 'togglefullscreen']));
  });

  it('sends the page its commands: Open link… and Keyboard shortcuts', () => {
    const send = vi.fn();
    const template = applicationMenuTemplate({ platform: 'win32', isPackaged: true }, send);
    const file = menu('File', template);
    const openLink = file.find((i) => i.id === 'open-link');
    expect(openLink?.label).toBe('Open Link…');
    expect(openLink?.accelerator).toBe('CmdOrCtrl+Shift+O');
    click(openLink);
    click(menu('Help', template).find((i) => i.id === 'shortcuts'));
    expect(send.mock.calls).toEqual([['open-link'], ['shortcuts']]);
  });

  it('sends Export… and Download recording… to the page, which carries them out on the call shown', () => {
    const send = vi.fn();
    const file = menu('File', applicationMenuTemplate({ platform: 'linux', isPackaged: true }, send));
    const exportItem = file.find((i) => i.id === 'export');
    const downloadItem = file.find((i) => i.id === 'download');
    expect(exportItem?.label).toBe('Export…');
    expect(downloadItem?.label).toBe('Download Recording…');
    expect(exportItem?.enabled).not.toBe(false);
    expect(downloadItem?.enabled).not.toBe(false);
    click(exportItem);
    click(downloadItem);
    expect(send.mock.calls).toEqual([['export'], ['download']]);
  });

  it('quits from File on Windows and Linux, with About in Help', () => {
    const template = applicationMenuTemplate({ platform: 'linux', isPackaged: true }, vi.fn());
    expect(menu('File', template).at(-1)?.role).toBe('quit');
    expect(menu('Help', template).map((i) => i.role)).toContain('about');
    expect(template.map((m) => m.role)).not.toContain('appMenu');
  });

  it('has the macOS app menu (About, Quit) and Window menu on macOS', () => {
    const template = applicationMenuTemplate({ platform: 'darwin', isPackaged: true }, vi.fn());
    expect(template[0]?.role).toBe('appMenu');
    expect(template.map((m) => m.role)).toContain('windowMenu');
    expect(menu('File', template).at(-1)?.role).toBe('close');
    expect(menu('Help', template).map((i) => i.role)).not.toContain('about');
  });

  it('gives no menu item the "?" key, which the page uses while text fields must keep it', () => {
    const accelerators = allItems(applicationMenuTemplate({ platform: 'linux', isPackaged: false }, vi.fn()))
      .map((i) => i.accelerator)
      .filter(Boolean);
    expect(accelerators).toEqual(['CmdOrCtrl+Shift+O']);
  });
});
