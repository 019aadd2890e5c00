/**
 * One note of the review panel while it is on screen: where it is pinned, its text saved as typed
 * (saved-text.svelte.ts), and its id once main has it. A note dropped with M is a draft until its
 * first words are saved; then it is added, and later changes update it.
 */
import type { ReviewNote } from '$shared/reviews';
import { SavedText } from './saved-text.svelte';

/** Writes of one note, given by the panel (in its queue of writes). */
export interface NoteWrites {
  /** Adds the note; resolves with its id. */
  add(place: { startSeconds: number; endSeconds: number | null }, text: string): Promise<string>;
  update(noteId: string, text: string): Promise<void>;
}

let drafts = 0;

/** A note on screen; see the module comment. */
export class NoteEditor {
  /** The note's id, or null for a draft not yet saved. */
  id = $state<string | null>(null);
  /** Stable key for the list (the draft's key survives its first save). */
  readonly key: string;
  readonly startSeconds: number;
  readonly endSeconds: number | null;
  readonly text: SavedText;

  constructor(
    place: { startSeconds: number; endSeconds: number | null; id?: string; text?: string },
    writes: NoteWrites,
  ) {
    this.id = place.id ?? null;
    drafts += 1;
    this.key = place.id ?? `draft-${String(drafts)}`;
    this.startSeconds = place.startSeconds;
    this.endSeconds = place.endSeconds;
    this.text = new SavedText(place.text ?? '', {
      check: (text) => (text.trim() === '' ? 'A note needs some text: type it, or delete the note.' : null),
      save: async (text) => {
        if (this.id === null)
          this.id = await writes.add({ startSeconds: this.startSeconds, endSeconds: this.endSeconds }, text);
        else await writes.update(this.id, text);
      },
    });
  }

  /** An editor for a note main already has. */
  static of(note: ReviewNote, writes: NoteWrites): NoteEditor {
    return new NoteEditor(
      { id: note.id, startSeconds: note.startSeconds, endSeconds: note.endSeconds, text: note.text },
      writes,
    );
  }
}
