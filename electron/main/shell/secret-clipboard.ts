/**
 * Secrets copied to the system clipboard (a SIP trunk's password) are cleared again after a short
 * time, so one does not sit there for the next paste into a chat or a ticket. Main writes the
 * clipboard itself (the page asks over IPC, `copySecret`) so it can tell later whether the
 * clipboard still holds that secret: anything the user copied since is left alone.
 */

/** How long a copied secret stays on the clipboard, in milliseconds. */
export const SECRET_CLIPBOARD_MS = 30_000;

/** The part of Electron's `clipboard` used here (a stand-in in tests and the harness). */
export interface ClipboardLike {
  writeText(text: string): Promise<void>;
  readText(): Promise<string>;
  clear(): void;
}

/** Timers (injected so tests use a fake clock). */
export interface ClipboardTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Options of {@link createSecretClipboard}. */
export interface SecretClipboardOptions {
  /** How long a secret stays, in milliseconds; default {@link SECRET_CLIPBOARD_MS}. */
  clearAfterMs?: number;
  /** Default: the global timers. */
  timers?: ClipboardTimers;
}

/** See {@link createSecretClipboard}. */
export interface SecretClipboard {
  /**
   * Writes `text` to the clipboard and clears it after {@link SECRET_CLIPBOARD_MS} if still there.
   * Rejects when the clipboard refuses the write.
   */
  copy(text: string): Promise<void>;
  /** Clears the clipboard now if it still holds the last secret (at quit). Never rejects. */
  close(): Promise<void>;
}

/**
 * A clipboard for secrets over `clipboard`: each copy replaces the previous pending clear; the
 * clear only happens when the clipboard still holds exactly the text that was copied.
 */
export function createSecretClipboard(clipboard: ClipboardLike, options: SecretClipboardOptions = {}): SecretClipboard {
  const clearAfterMs = options.clearAfterMs ?? SECRET_CLIPBOARD_MS;
  const timers: ClipboardTimers = options.timers ?? globalThis;
  let pending: { text: string; timer: unknown } | null = null;

  async function clearIfStillThere(): Promise<void> {
    const last = pending;
    pending = null;
    if (last === null) return;
    timers.clearTimeout(last.timer);
    try {
      if ((await clipboard.readText()) === last.text) clipboard.clear();
    } catch {
      // A clipboard that cannot be read is left alone: clearing it could drop what the user copied.
    }
  }

  return {
    async copy(text) {
      if (pending) timers.clearTimeout(pending.timer);
      pending = null;
      await clipboard.writeText(text);
      pending = { text, timer: timers.setTimeout(() => void clearIfStillThere(), clearAfterMs) };
    },
    close: clearIfStillThere,
  };
}
