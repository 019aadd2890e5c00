/**
 * Text saved as it is typed (review notes, tags, ticket): one write after the pause with the
 * latest text, never two at once, nothing typed lost while a write runs, and a failed write
 * keeps the text and says why.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../electron/shared/errors';
import { SAVE_DELAY_MS, SavedText, saveStatusText } from '../../../renderer/src/lib/reviews/saved-text.svelte';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** A save whose calls the test answers one by one. */
function heldSave() {
  const calls: Array<{ text: string; resolve: () => void; reject: (e: Error) => void }> = [];
  let running = 0;
  let most = 0;
  const save = (text: string) =>
    new Promise<void>((resolve, reject) => {
      running += 1;
      most = Math.max(most, running);
      calls.push({
        text,
        resolve: () => {
          running -= 1;
          resolve();
        },
        reject: (e) => {
          running -= 1;
          reject(e);
        },
      });
    });
  return { save, calls, most: () => most };
}

describe('SavedText', () => {
  it('writes once after the pause, with the last text typed', async () => {
    const held = heldSave();
    const field = new SavedText('', { save: held.save });
    for (const text of ['A', 'Ag', 'Agent']) field.input(text);
    expect(field.status).toBe('pending');
    await vi.advanceTimersByTimeAsync(SAVE_DELAY_MS - 1);
    expect(held.calls).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(held.calls.map((c) => c.text)).toEqual(['Agent']);
    held.calls[0]!.resolve();
    await vi.runAllTimersAsync();
    expect(field.status).toBe('saved');
    expect(saveStatusText(field)).toBe('Saved');
  });

  it('never runs two writes at once, and saves what was typed during a write', async () => {
    const held = heldSave();
    const field = new SavedText('', { save: held.save });
    field.input('first');
    void field.flush();
    await vi.advanceTimersByTimeAsync(0);
    field.input('first and more');
    void field.flush();
    await vi.advanceTimersByTimeAsync(SAVE_DELAY_MS);
    expect(held.calls).toHaveLength(1);
    held.calls[0]!.resolve();
    await vi.advanceTimersByTimeAsync(0);
    expect(held.calls.map((c) => c.text)).toEqual(['first', 'first and more']);
    held.calls[1]!.resolve();
    await vi.runAllTimersAsync();
    expect(held.most()).toBe(1);
    expect(field.status).toBe('saved');
    expect(field.unsaved).toBe(false);
  });

  it('keeps the text after a failed write, says why, and saves it on retry', async () => {
    const held = heldSave();
    const field = new SavedText('', { save: held.save });
    field.input('Customer gave a card number');
    const flushed = field.flush();
    await vi.advanceTimersByTimeAsync(0);
    held.calls[0]!.reject(new ApiError({ kind: 'storage', message: 'The disk is full: the review was not saved.' }));
    await flushed;
    expect(field.value).toBe('Customer gave a card number');
    expect(field.status).toBe('failed');
    expect(saveStatusText(field)).toBe('Not saved: The disk is full: the review was not saved. Your text is kept.');
    const retried = field.retry();
    await vi.advanceTimersByTimeAsync(0);
    held.calls[1]!.resolve();
    await retried;
    expect(held.calls.map((c) => c.text)).toEqual(['Customer gave a card number', 'Customer gave a card number']);
    expect(field.status).toBe('saved');
  });

  it('does not send text its check refuses, and says why', async () => {
    const held = heldSave();
    const field = new SavedText('note', {
      save: held.save,
      check: (t) => (t.trim() === '' ? 'A note needs some text.' : null),
    });
    field.input('   ');
    await vi.runAllTimersAsync();
    expect(held.calls).toHaveLength(0);
    expect(field.status).toBe('invalid');
    expect(saveStatusText(field)).toBe('A note needs some text.');
  });
});
