/**
 * The fonts' warm-up at start (renderer/src/lib/font-warm-up.ts): the app's faces are laid out
 * once the page is idle, in a box nobody sees or reads, and nothing is left in the page.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { warmUpFonts } from '../../renderer/src/lib/font-warm-up';

/** Stands in for the page's idle callbacks; `idle()` runs the ones waiting. */
function fakeIdle() {
  const waiting: Array<() => void> = [];
  vi.stubGlobal('requestIdleCallback', (work: () => void) => waiting.push(work));
  vi.stubGlobal('cancelIdleCallback', (handle: number) => waiting.splice(handle - 1, 1));
  return { idle: () => waiting.splice(0).forEach((work) => work()) };
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('warmUpFonts', () => {
  it('lays out text in the regular, semibold, italic and monospace faces once idle, hidden, then removes it', () => {
    const page = fakeIdle();
    const laidOut: HTMLElement[] = [];
    vi.spyOn(Element.prototype, 'getBoundingClientRect').mockImplementation(function (this: Element) {
      laidOut.push(this.cloneNode(true) as HTMLElement);
      return new DOMRect();
    });
    const before = document.body.innerHTML;

    warmUpFonts();
    expect(laidOut).toHaveLength(0);
    page.idle();

    expect(laidOut).toHaveLength(1);
    const box = laidOut[0]!;
    expect(box.style.visibility).toBe('hidden');
    expect(box.getAttribute('aria-hidden')).toBe('true');
    const styles = [...box.children].map((line) => (line as HTMLElement).style.cssText);
    expect(styles).toEqual(
      expect.arrayContaining([
        '',
        'font-weight: 600;',
        'font-style: italic;',
        expect.stringContaining('font-family: var(--mono)'),
      ]),
    );
    expect(document.body.innerHTML).toBe(before);
  });

  it('does nothing when cancelled before the page is idle', () => {
    const page = fakeIdle();
    const layout = vi.spyOn(Element.prototype, 'getBoundingClientRect');
    warmUpFonts()();
    page.idle();
    expect(layout).not.toHaveBeenCalled();
  });
});
