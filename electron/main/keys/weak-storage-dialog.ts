/**
 * The confirmation main asks for itself before keys go to safeStorage's weak `basic_text` backend
 * (a file obfuscated with a password built into Electron): a native dialog, so a page (or script
 * in it) cannot give that consent alone by sending `useSafeStorage(true)`.
 */

/**
 * Asks the person at the desk whether keys may be kept unencrypted in a file; resolves true only
 * when they chose to. Electron's `dialog.showMessageBox` in the app ({@link electronWeakStorageConfirm}),
 * a stand-in answering for them in tests.
 */
export type WeakKeyStorageConfirm = () => Promise<boolean>;

/** The button that agrees, in the dialog's words. */
export const WEAK_STORAGE_AGREE = 'Store keys in a file on this computer (not encrypted)';
/** The button that refuses; also the answer to Escape and closing the dialog. */
export const WEAK_STORAGE_REFUSE = 'Keep using the keychain';

/** The part of Electron's `dialog` {@link electronWeakStorageConfirm} uses. */
export interface MessageBoxLike<Window> {
  showMessageBox(
    window: Window,
    options: {
      type: 'warning';
      title: string;
      message: string;
      detail: string;
      buttons: string[];
      defaultId: number;
      cancelId: number;
      noLink: boolean;
    },
  ): Promise<{ response: number }>;
}

/**
 * The app's confirmation: a warning message box attached to `parent()` (the app window), refusing
 * by default (Enter, Escape and closing the dialog all keep the keychain).
 */
export function electronWeakStorageConfirm<Window>(
  dialog: MessageBoxLike<Window>,
  parent: () => Window,
): WeakKeyStorageConfirm {
  return async () => {
    const { response } = await dialog.showMessageBox(parent(), {
      type: 'warning',
      title: 'Voice Review',
      message: 'Store API keys in a file on this computer, not encrypted?',
      detail:
        'No system keyring is available, so the keys would only be obfuscated with a password built into the app. ' +
        'Anyone who can read your user files could recover them. Unlocking or installing a keyring ' +
        '(gnome-keyring or KWallet) keeps them protected instead.',
      buttons: [WEAK_STORAGE_REFUSE, WEAK_STORAGE_AGREE],
      defaultId: 0,
      cancelId: 0,
      noLink: true,
    });
    return response === 1;
  };
}
