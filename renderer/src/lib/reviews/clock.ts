/**
 * Reading a time a reviewer types: `m:ss`, `h:mm:ss` or plain seconds (`65`, `12.5`).
 * @returns seconds, or null when the text is not a time
 */
export function parseClock(text: string): number | null {
  const t = text.trim();
  if (t === '') return null;
  if (/^\d+(?:\.\d+)?$/.test(t)) return Number(t);
  const m = /^(?:(\d+):)?(\d{1,2}):(\d{2}(?:\.\d+)?)$/.exec(t);
  if (!m) return null;
  const hours = Number(m[1] ?? 0);
  const minutes = Number(m[2]);
  const seconds = Number(m[3]);
  if (seconds >= 60 || (m[1] !== undefined && minutes >= 60)) return null;
  return hours * 3600 + minutes * 60 + seconds;
}
