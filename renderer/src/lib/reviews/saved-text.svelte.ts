/**
 * Text saved as it is typed: each change is written after a short pause (or at once on
 * {@link SavedText.flush}, e.g. when the field loses focus), one write at a time, always the
 * latest text, so a fast typist never sends two writes at once and the last keystroke is never
 * lost. A failed write keeps the text on screen, says why, and is tried again by the next change
 * or by {@link SavedText.retry}.
 */
import { ApiError } from '$shared/errors';

/** Where the text is: `saved`, `pending` (typed, not yet sent), `saving`, `invalid` (not sent: see `message`), `failed`. */
export type SaveStatus = 'saved' | 'pending' | 'saving' | 'invalid' | 'failed';

/** Pause after the last keystroke before writing, in ms. */
export const SAVE_DELAY_MS = 600;

/** Options of {@link SavedText}. */
export interface SavedTextOptions {
  /** Writes the text; rejects (an ApiError) when it could not be saved. */
  save: (text: string) => Promise<void>;
  /** Says why `text` cannot be saved as it is, or null when it can (nothing is sent otherwise). */
  check?: (text: string) => string | null;
  /** Pause before writing, in ms (default {@link SAVE_DELAY_MS}). */
  delayMs?: number;
}

/** One field's text and its save state; see the module comment. */
export class SavedText {
  value = $state('');
  status = $state<SaveStatus>('saved');
  /** Why the text is not saved (`invalid` or `failed`), or null. */
  message = $state<string | null>(null);
  private saved: string;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private running: Promise<void> | null = null;

  constructor(
    initial: string,
    private readonly options: SavedTextOptions,
  ) {
    this.value = initial;
    this.saved = initial;
  }

  /** Shows `text` as saved (read from main), dropping any pending write. */
  reset(text: string): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.value = text;
    this.saved = text;
    this.status = 'saved';
    this.message = null;
  }

  /** The reviewer typed `text`: it is written after the pause. */
  input(text: string): void {
    this.value = text;
    if (this.timer !== null) clearTimeout(this.timer);
    if (text === this.saved && this.running === null) {
      this.status = 'saved';
      this.message = null;
      return;
    }
    this.status = 'pending';
    this.timer = setTimeout(() => void this.flush(), this.options.delayMs ?? SAVE_DELAY_MS);
  }

  /** Writes the text now (after the write in flight, if any). Never rejects. */
  flush(): Promise<void> {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.running ??= this.drain().finally(() => (this.running = null));
    return this.running;
  }

  /** Tries a failed write again. */
  retry(): Promise<void> {
    return this.flush();
  }

  /** True while typed text is not yet saved. */
  get unsaved(): boolean {
    return this.value !== this.saved;
  }

  /** Writes until what is saved is what is on screen, or a write fails. */
  private async drain(): Promise<void> {
    while (this.value !== this.saved) {
      const text = this.value;
      const problem = this.options.check?.(text) ?? null;
      if (problem !== null) {
        this.status = 'invalid';
        this.message = problem;
        return;
      }
      this.status = 'saving';
      try {
        await this.options.save(text);
        this.saved = text;
      } catch (error) {
        this.status = 'failed';
        this.message = error instanceof ApiError ? error.message : 'It could not be saved. Try again.';
        return;
      }
    }
    this.status = 'saved';
    this.message = null;
  }
}

/** Words for a field's save state, for a polite status line. */
export function saveStatusText(field: Pick<SavedText, 'status' | 'message'>): string {
  switch (field.status) {
    case 'saved':
      return 'Saved';
    case 'pending':
    case 'saving':
      return 'Saving…';
    case 'invalid':
      return field.message ?? 'Not saved.';
    case 'failed':
      return `Not saved: ${field.message ?? 'try again.'} Your text is kept.`;
  }
}
