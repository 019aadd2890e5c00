/**
 * Fragments of secrets for the log's redaction (log.ts): a key may reach a message cut short (a
 * server echoing the first characters), in another letter case, or base64-encoded (a Basic
 * `Authorization` header, a URL-safe token). Any run of 12 or more characters shared with a
 * secret or its base64 forms, in any ASCII letter case, is treated as the secret.
 */

/** Shortest run of a secret's characters treated as the secret (shorter runs are too common to hide). */
const MIN_FRAGMENT_LENGTH = 12;

/**
 * The forms fragments are searched in, lower-cased: the secret and its base64 (standard and
 * URL-safe, unpadded) at each of the three byte alignments, so the base64 of any part of it (or
 * of `user:secret`) shares runs with one of them.
 */
function fragmentSources(secret: string): string[] {
  const sources = [secret];
  for (let shift = 0; shift < 3; shift++) {
    const base64 = Buffer.from(secret.slice(shift), 'utf8').toString('base64').replace(/=+$/, '');
    sources.push(base64, base64.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return sources.map(lowerAscii);
}

/** ASCII letters lower-cased, every other character kept (so indexes stay those of `text`). */
function lowerAscii(text: string): string {
  return text.replace(/[A-Z]/g, (letter) => letter.toLowerCase());
}

/**
 * Every run of {@link MIN_FRAGMENT_LENGTH} characters of the fragment sources of `secrets`
 * (secrets shorter than that have no fragments: only their exact forms are redacted).
 */
export function fragmentGrams(secrets: Iterable<string>): Set<string> {
  const grams = new Set<string>();
  for (const raw of secrets) {
    const secret = typeof raw === 'string' ? raw.trim() : '';
    if (secret.length < MIN_FRAGMENT_LENGTH) continue;
    for (const source of fragmentSources(secret)) {
      for (let at = 0; at + MIN_FRAGMENT_LENGTH <= source.length; at++) {
        grams.add(source.slice(at, at + MIN_FRAGMENT_LENGTH));
      }
    }
  }
  return grams;
}

/**
 * `text` with every run made of overlapping or adjacent grams of `grams` (from
 * {@link fragmentGrams}, matched in any ASCII letter case) replaced by `replacement`.
 */
export function redactFragments(text: string, grams: ReadonlySet<string>, replacement: string): string {
  if (grams.size === 0 || text.length < MIN_FRAGMENT_LENGTH) return text;
  const lower = lowerAscii(text);
  let out = '';
  let copiedTo = 0;
  let coverEnd = -1;
  for (let at = 0; at + MIN_FRAGMENT_LENGTH <= lower.length; at++) {
    if (!grams.has(lower.slice(at, at + MIN_FRAGMENT_LENGTH))) continue;
    if (at > coverEnd) {
      out += text.slice(copiedTo, at) + replacement;
    }
    coverEnd = at + MIN_FRAGMENT_LENGTH;
    copiedTo = coverEnd;
  }
  return out + text.slice(copiedTo);
}
