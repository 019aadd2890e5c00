/**
 * Chromium finds each font face (family, weight, style) the first time a page lays out text in
 * it, asking the system's font configuration through the browser process, a cost paid face by
 * face in the layout of the first call shown, between the call's answer and its transcript on
 * screen. The faces the app uses are laid out once while the page is first idle, in a hidden box
 * that is then removed; later views find them known.
 */
import { whenIdle } from './idle';

/** Text in the app's faces: its body text (regular, semibold, bold, italic) and monospace (SIDs, times). */
const SAMPLES: ReadonlyArray<{ style: string; text: string }> = [
  { style: '', text: 'Agent 0:09 — Caller: “refund” → 1 entry… 2× · 12.5 s' },
  { style: 'font-weight: 600', text: 'Transcript Recording Turn timing 0:00' },
  { style: 'font-weight: 650', text: 'Inbound call' },
  { style: 'font-weight: 700', text: 'Agent Caller' },
  { style: 'font-style: italic', text: 'estimated from the transcript times' },
  { style: 'font-family: var(--mono)', text: 'CA0123456789abcdef 0:00:00 +15551234567' },
  { style: 'font-family: var(--mono); font-weight: 600', text: 'CA0123456789abcdef 1:05' },
];

/**
 * Lays out {@link SAMPLES} off screen when the page is first idle and removes them (nothing is
 * shown, nothing read back but one layout).
 * @returns a function that cancels the warm-up if it has not run
 */
export function warmUpFonts(): () => void {
  return whenIdle(() => {
    const box = document.createElement('div');
    box.setAttribute('aria-hidden', 'true');
    box.style.cssText = 'position: fixed; left: -10000px; top: 0; visibility: hidden; pointer-events: none';
    for (const sample of SAMPLES) {
      const line = document.createElement('div');
      line.style.cssText = sample.style;
      line.textContent = sample.text;
      box.append(line);
    }
    document.body.append(box);
    box.getBoundingClientRect();
    box.remove();
  });
}
