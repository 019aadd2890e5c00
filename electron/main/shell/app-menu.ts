/**
 * The native application menu, as a template built by a pure function of the platform and of
 * whether the app is packaged (index.ts hands it to `Menu.buildFromTemplate`):
 * - File: Open link…, Export…, Download recording…, then Quit (Close window on macOS, where Quit
 *   is in the app menu). Export and Download are shown disabled until the page can carry them out;
 * - Edit: Electron's standard roles, so copy and paste work in every field and selection;
 * - View: zoom in, out and reset, full screen; reload and DevTools only when not packaged;
 * - Help: Keyboard shortcuts, Diagnostics (for IT), and About (in the app menu on macOS).
 * Items the page carries out send a {@link MenuCommand} to it (`PUSH_CHANNELS.menuCommand`).
 */
import type { MenuItemConstructorOptions } from 'electron';
import type { MenuCommand } from '$shared/contract';

/** What the menu depends on. */
export interface AppMenuContext {
  /** `process.platform`: `darwin` gets the macOS app menu and Window menu. */
  platform: string;
  /** `app.isPackaged`: a packaged app has no reload and no DevTools. */
  isPackaged: boolean;
}

/** The standard editing roles of the Edit menu, in order. */
export const EDIT_ROLES = [
  'undo',
  'redo',
  'cut',
  'copy',
  'paste',
  'pasteAndMatchStyle',
  'delete',
  'selectAll',
] as const satisfies ReadonlyArray<MenuItemConstructorOptions['role']>;

/**
 * The application menu's template.
 * @param context the platform and whether the app is packaged
 * @param send carries a menu command to the window's page
 */
export function applicationMenuTemplate(
  context: AppMenuContext,
  send: (command: MenuCommand) => void,
): MenuItemConstructorOptions[] {
  const mac = context.platform === 'darwin';
  const separator: MenuItemConstructorOptions = { type: 'separator' };
  const file: MenuItemConstructorOptions = {
    label: 'File',
    submenu: [
      { id: 'open-link', label: 'Open Link…', accelerator: 'CmdOrCtrl+Shift+O', click: () => send('open-link') },
      separator,
      // Carried out by the page on the call shown (it asks for one when none is).
      { id: 'export', label: 'Export…', click: () => send('export') },
      { id: 'download', label: 'Download Recording…', click: () => send('download') },
      separator,
      mac ? { role: 'close' } : { role: 'quit' },
    ],
  };
  const edit: MenuItemConstructorOptions = {
    label: 'Edit',
    submenu: [
      { role: 'undo' },
      { role: 'redo' },
      separator,
      ...EDIT_ROLES.slice(2).map((role): MenuItemConstructorOptions => ({ role })),
    ],
  };
  const developer: MenuItemConstructorOptions[] = context.isPackaged
    ? []
    : [{ role: 'reload' }, { role: 'forceReload' }, { role: 'toggleDevTools' }, separator];
  const view: MenuItemConstructorOptions = {
    label: 'View',
    submenu: [
      ...developer,
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      separator,
      { role: 'togglefullscreen' },
    ],
  };
  const help: MenuItemConstructorOptions = {
    role: 'help',
    submenu: [
      // No accelerator: "?" is the page's own shortcut, and a menu accelerator would take it from text fields.
      { id: 'shortcuts', label: 'Keyboard Shortcuts', click: () => send('shortcuts') },
      { id: 'diagnostics', label: 'Diagnostics', click: () => send('diagnostics') },
      ...(mac ? [] : [separator, { role: 'about' } as const]),
    ],
  };
  return mac ? [{ role: 'appMenu' }, file, edit, view, { role: 'windowMenu' }, help] : [file, edit, view, help];
}
