/**
 * Reviewing a call end to end, by its buttons and keys: the built renderer in Debian's Chromium
 * with the built preload, main built by the app's composition root over a settings folder the
 * test owns (so the app can be restarted on it) and the embedded demo service, with the save
 * dialog stood in by a chooser that answers a path in a temporary folder.
 *
 * A note dropped with M at the playback time is drawn on the waveform and beside its transcript
 * entry, survives a restart of the app, and plays from its time; a call is given a verdict, a
 * rubric score and tags, and the Reviews screen finds it by tag; an evidence pack of a range
 * holding a card or account number read aloud has a clip as long as the range whose masked entry
 * is digital silence (measured from the samples, and not silent in a pack made without masking),
 * and a masked excerpt; the Reviews export is CSV that parses back, formula cells escaped.
 *
 * Screenshots (test-artifacts/): review-notes.png (notes on the waveform and in the transcript),
 * review-panel.png (the panel with a rubric), reviews-screen.png, evidence-preview.png (what will
 * be masked), masking-settings.png (the masking rules and their preview).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../electron/main/keys/keychain';
import type { Interaction, LogEntry } from '../../electron/shared/domain';
import { redact } from '../../electron/shared/redaction';
import { ensureBuilt } from './build';
import {
  ARTIFACTS_DIR,
  openDemoAfresh,
  playerTimeSeconds,
  showInteraction,
  startHarness,
  type Harness,
} from './harness';
import { checkPageErrorsEachTest } from './page-errors';
import { blurFocus, clickEntry, waitForWaveform } from './review-helpers';

/** Demo calls with a recording and a timed transcript, read through main's handlers. */
async function playableCalls(h: Harness): Promise<Interaction[]> {
  const calls: Interaction[] = [];
  for (const demo of (await h.session.info()).demoInteractions) {
    const result = await h.handlers.getInteraction([demo.sid]);
    if (result.ok && (result.value as Interaction).recording.available) calls.push(result.value as Interaction);
  }
  return calls.filter((c) => c.log.some((e) => e.offsetSeconds !== null && e.offsetSeconds < 3600));
}

/** How many note marks on the marker track under the waveform carry `text` in their tooltip. */
function noteMarksWith(h: Harness, text: string): Promise<number> {
  return h.page.evaluate(
    (words) =>
      [...document.querySelectorAll<HTMLElement>('.track [data-kind="note"]')].filter((m) => m.title.includes(words))
        .length,
    text,
  );
}

/** The call's Review tab, brought forward in the side panel. */
async function reviewTab(h: Harness) {
  await h.page.getByRole('tab', { name: 'Review' }).click();
  return h.page.getByRole('region', { name: 'Review' });
}

async function section(h: Harness, name: string) {
  await h.page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name }).click();
}

/** A 16-bit PCM WAV file's sample rate and first channel, in [-1, 1]. */
function readWav(bytes: Buffer): { sampleRate: number; channels: number; samples: Float32Array } {
  let at = 12;
  let sampleRate = 0;
  let channels = 0;
  while (at + 8 <= bytes.length) {
    const id = bytes.toString('ascii', at, at + 4);
    const size = bytes.readUInt32LE(at + 4);
    if (id === 'fmt ') {
      channels = bytes.readUInt16LE(at + 10);
      sampleRate = bytes.readUInt32LE(at + 12);
      expect(bytes.readUInt16LE(at + 22)).toBe(16);
    } else if (id === 'data') {
      const frames = size / 2 / channels;
      const samples = new Float32Array(frames);
      for (let i = 0; i < frames; i += 1) samples[i] = bytes.readInt16LE(at + 8 + i * 2 * channels) / 32768;
      return { sampleRate, channels, samples };
    }
    at += 8 + size + (size % 2);
  }
  throw new Error('No data chunk in the WAV file.');
}

/** The longest run of exactly-zero samples, in seconds from the clip's start. */
function longestSilence(samples: Float32Array, sampleRate: number): { startSeconds: number; endSeconds: number } {
  let best = { start: 0, end: 0 };
  let start = -1;
  for (let i = 0; i <= samples.length; i += 1) {
    const zero = i < samples.length && samples[i] === 0;
    if (zero && start < 0) start = i;
    if (!zero && start >= 0) {
      if (i - start > best.end - best.start) best = { start, end: i };
      start = -1;
    }
  }
  return { startSeconds: best.start / sampleRate, endSeconds: best.end / sampleRate };
}

/** Peak level of `samples` between two times (seconds from the clip's start). */
function peakBetween(samples: Float32Array, sampleRate: number, from: number, to: number): number {
  let peak = 0;
  for (let i = Math.floor(from * sampleRate); i < Math.min(samples.length, Math.ceil(to * sampleRate)); i += 1)
    peak = Math.max(peak, Math.abs(samples[i] ?? 0));
  return peak;
}

describe('a note kept across a restart', () => {
  const userDataDir = mkdtempSync(join(tmpdir(), 'vr-e2e-reviews-profile-'));
  const secrets = createMemoryStore();
  let h: Harness | undefined;
  checkPageErrorsEachTest(() => h);

  afterAll(async () => {
    await h?.close();
    rmSync(userDataDir, { recursive: true, force: true });
  });

  it('drops a note with M at the playback time, shows it on the waveform and in the transcript, and keeps it', async () => {
    ensureBuilt();
    mkdirSync(ARTIFACTS_DIR, { recursive: true });
    h = await startHarness({ userDataDir, secrets, viewport: { width: 1440, height: 1000 } });
    await openDemoAfresh(h);
    const call = (await playableCalls(h))[0]!;
    await showInteraction(h.page, call.sid);
    await waitForWaveform(h.page);
    await clickEntry(h.page, 3);
    await blurFocus(h.page);
    await h.page.keyboard.press('k');
    await expect.poll(() => h!.page.evaluate(() => document.querySelector('audio')?.paused)).toBe(true);
    const at = await playerTimeSeconds(h.page);
    await h.page.keyboard.press('m');
    const text = 'Agent asked for the date of birth twice';
    const box = h.page.getByRole('textbox', { name: /^Note at / });
    await expect.poll(() => h!.page.evaluate(() => document.activeElement?.tagName)).toBe('TEXTAREA');
    await h.page.keyboard.type(text);
    const panel = h.page.getByRole('region', { name: 'Review' });
    await panel
      .getByRole('status')
      .filter({ hasText: /^\s*Saved\s*$/ })
      .first()
      .waitFor();
    await expect.poll(() => noteMarksWith(h!, text)).toBe(1);
    const inTranscript = h.page
      .getByRole('list', { name: 'Notes on this entry' })
      .getByRole('button', { name: new RegExp(text) });
    await inTranscript.waitFor();
    expect(await box.inputValue()).toBe(text);
    // Playback moved on, so the note's mark and the playhead are apart in the screenshot.
    await clickEntry(h.page, 9);
    await blurFocus(h.page);
    await h.page.keyboard.press('k');
    await h.page.getByRole('region', { name: 'Recording' }).scrollIntoViewIfNeeded();
    await h.page.screenshot({ path: join(ARTIFACTS_DIR, 'review-notes.png') });

    // Restart: the same settings folder and keys, a new main and a new page.
    await h.close();
    h = await startHarness({ userDataDir, secrets, viewport: { width: 1440, height: 1000 } });
    const demoButton = h.page.getByRole('button', { name: 'Open demo workspace' });
    const restored = h.page.getByLabel('Current workspace');
    await demoButton.or(restored).first().waitFor();
    if (await demoButton.isVisible()) await demoButton.click();
    await showInteraction(h.page, call.sid);
    // The note is on the track before its tab is looked at.
    await expect.poll(() => noteMarksWith(h!, text)).toBe(1);
    const restoredPanel = await reviewTab(h);
    const kept = restoredPanel.getByRole('textbox', { name: /^Note at / });
    await expect.poll(() => kept.inputValue()).toBe(text);
    await restoredPanel.getByRole('button', { name: /^Play from / }).click();
    await expect.poll(() => playerTimeSeconds(h!.page)).toBeGreaterThanOrEqual(Math.round(at * 10) / 10 - 0.05);
    expect(await playerTimeSeconds(h.page)).toBeLessThan(at + 1.5);
    await h.page
      .getByRole('list', { name: 'Notes on this entry' })
      .getByRole('button', { name: new RegExp(text) })
      .waitFor();
  }, 120_000);
});

describe('reviewing calls', () => {
  let h: Harness;
  let calls: Interaction[] = [];
  let saveDir: string;
  let workspaceId: string;
  checkPageErrorsEachTest(() => h);

  beforeAll(async () => {
    ensureBuilt();
    mkdirSync(ARTIFACTS_DIR, { recursive: true });
    saveDir = mkdtempSync(join(tmpdir(), 'vr-e2e-review-saves-'));
    h = await startHarness({
      chooseSavePath: (request) => Promise.resolve(join(saveDir, request.defaultName)),
      viewport: { width: 1440, height: 1000 },
    });
    await h.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: h.origin });
    await h.session.openDemo();
    calls = await playableCalls(h);
    expect(calls.length, 'the demo seed has calls with a recording and a timed transcript').toBeGreaterThanOrEqual(3);
  }, 120_000);

  beforeEach(async () => {
    rmSync(saveDir, { recursive: true, force: true });
    mkdirSync(saveDir);
    await openDemoAfresh(h);
    workspaceId = (await h.session.info()).workspace!.id;
    // Each test starts with no reviews.
    for (const call of calls) await h.handlers.deleteReview([{ workspaceId, sid: call.sid }]);
  });

  afterAll(async () => {
    await h.close();
    rmSync(saveDir, { recursive: true, force: true });
  });

  it('scores a call against the rubric, tags it, and finds it in Reviews by tag', async () => {
    const [scored, other] = calls;
    await h.handlers.setReviewTags([{ workspaceId, sid: other!.sid, tags: ['other'] }]);
    await showInteraction(h.page, scored!.sid);
    const panel = await reviewTab(h);
    await panel.getByRole('radio', { name: 'Needs work' }).check();
    await panel.getByRole('combobox', { name: 'Gave correct information' }).selectOption('3');
    await panel.getByRole('combobox', { name: "Understood the caller's need" }).selectOption('4');
    await expect.poll(() => panel.getByText(/^Score \d/).innerText()).toMatch(/^Score 8\d/);
    // Two of the five criteria are scored: the total says it is a total so far.
    await panel.getByText('so far: 3 of 5 not scored', { exact: true }).waitFor();
    await panel.getByRole('textbox', { name: /^Tags/ }).fill('Billing, callback');
    await panel.getByRole('textbox', { name: /^Ticket/ }).fill('SUP-1042');
    await expect.poll(() => panel.getByText('Saved', { exact: true }).count()).toBe(2);
    await panel.screenshot({ path: join(ARTIFACTS_DIR, 'review-panel.png') });
    const saved = (await h.handlers.getReview([{ workspaceId, sid: scored!.sid }])) as {
      ok: true;
      value: { verdict: string; tags: string[]; rubricVersion: number; scores: Record<string, number> };
    };
    expect(saved.value).toMatchObject({
      verdict: 'needs_work',
      tags: ['billing', 'callback'],
      rubricVersion: 1,
      scores: { correct: 3, understood: 4 },
    });

    await section(h, 'Reviews');
    const reviews = h.page.getByRole('region', { name: 'Reviews' });
    await reviews.getByRole('table').waitFor();
    await expect.poll(() => reviews.getByRole('row').count()).toBe(3);
    await reviews.getByRole('searchbox', { name: 'Tag' }).fill('billing');
    await expect.poll(() => reviews.getByRole('row').count()).toBe(2);
    const row = reviews.getByRole('button', { name: `Open call ${scored!.sid}` });
    await row.waitFor();
    // The call just reviewed is named by its numbers (it is among the recent calls), then its SID.
    await expect(reviews.getByRole('row').nth(1).innerText()).resolves.toMatch(
      /\+[\d ]+ → \+[\d ]+[\s\S]*Needs work[\s\S]*billing[\s\S]*SUP-1042/,
    );
    await reviews.getByRole('searchbox', { name: 'Tag' }).fill('');
    await expect.poll(() => reviews.getByRole('row').count()).toBe(3);
    await h.page.screenshot({ path: join(ARTIFACTS_DIR, 'reviews-screen.png') });
    // Keyboard: the arrow keys move between rows, Enter opens the call in Calls.
    await reviews
      .getByRole('button', { name: /^Open call / })
      .first()
      .focus();
    await h.page.keyboard.press('ArrowDown');
    const focused = await h.page.evaluate(() => document.activeElement?.getAttribute('aria-label'));
    expect(focused).toMatch(/^Open call interaction_/);
    const sid = focused!.replace('Open call ', '');
    await h.page.keyboard.press('Enter');
    await h.page
      .getByRole('region', { name: 'Call details' })
      .getByText(sid.replace(/^interaction_/, ''), { exact: false })
      .first()
      .waitFor();
  });

  it('makes an evidence pack whose clip silences the masked entry, with a masked excerpt', async () => {
    // A call with a timed entry that holds a number the masking rules catch, and a timed entry after it.
    let found: { call: Interaction; entry: LogEntry; next: LogEntry } | null = null;
    for (const call of calls) {
      const timed = call.log.filter((e) => e.offsetSeconds !== null);
      const i = timed.findIndex((e, k) => k > 0 && k + 1 < timed.length && redact(e.message).spans.length > 0);
      if (i > 0) {
        found = { call, entry: timed[i]!, next: timed[i + 1]! };
        break;
      }
    }
    expect(found, 'a demo call reads a number aloud').not.toBeNull();
    const { call, entry, next } = found!;
    const start = Math.max(0, Math.floor(entry.offsetSeconds! - 2));
    const end = Math.ceil(next.offsetSeconds! + 2);
    await showInteraction(h.page, call.sid);
    await waitForWaveform(h.page);
    const panel = await reviewTab(h);
    const clock = (s: number) => `${String(Math.floor(s / 60))}:${String(s % 60).padStart(2, '0')}`;
    await panel.getByRole('textbox', { name: 'From' }).fill(clock(start));
    await panel.getByRole('textbox', { name: 'To' }).fill(clock(end));

    const makePack = async (masked: boolean) => {
      await panel.getByRole('checkbox', { name: 'Mask personal data' }).setChecked(masked);
      await panel.getByRole('button', { name: 'Copy for ticket or make pack…' }).click();
      const dialog = h.page.getByRole('dialog', { name: 'Evidence preview' });
      await dialog.waitFor();
      if (masked) {
        await expect.poll(() => dialog.locator('mark.masked').count()).toBeGreaterThan(0);
        await h.page.screenshot({ path: join(ARTIFACTS_DIR, 'evidence-preview.png') });
        await dialog.getByRole('button', { name: 'Copy for ticket (Markdown)' }).click();
        const copied = await h.page.evaluate(() => navigator.clipboard.readText());
        expect(copied).toMatch(/^\*\*Voice Review evidence\*\* · \[Open at /);
        expect(copied).toContain('**Excerpt** (personal data masked)');
        expect(copied).not.toContain(entry.message);
        expect(copied).toContain('voice-review://');
      }
      await dialog.getByRole('button', { name: 'Save evidence pack…' }).click();
      await panel.getByRole('status').filter({ hasText: 'Evidence pack saved' }).waitFor({ timeout: 30_000 });
      const folder = readdirSync(saveDir).find((name) => name.startsWith(call.sid))!;
      const dir = join(saveDir, masked ? 'masked' : 'plain');
      rmSync(dir, { recursive: true, force: true });
      // Moved aside so the next pack (same suggested name) gets a new folder.
      renameSync(join(saveDir, folder), dir);
      return dir;
    };

    const masked = await makePack(true);
    const plain = await makePack(false);
    expect(readdirSync(masked).sort()).toEqual(
      ['README.txt', 'clip.wav', 'excerpt.txt', 'link.txt', 'ticket.md', 'timing.txt'].sort(),
    );
    const excerpt = readFileSync(join(masked, 'excerpt.txt'), 'utf8');
    expect(excerpt).toContain(redact(entry.message).text);
    expect(excerpt).not.toContain(entry.message);
    expect(readFileSync(join(plain, 'excerpt.txt'), 'utf8')).toContain(entry.message);
    expect(readFileSync(join(masked, 'link.txt'), 'utf8')).toMatch(
      new RegExp(`^voice-review://.*${call.sid}.*t=${String(start)}`),
    );

    const clip = readWav(readFileSync(join(masked, 'clip.wav')));
    expect(clip.samples.length / clip.sampleRate).toBeCloseTo(end - start, 2);
    const silence = longestSilence(clip.samples, clip.sampleRate);
    const speech = { startSeconds: entry.offsetSeconds! - start, endSeconds: next.offsetSeconds! - start };
    // At least the entry's speech is silenced (erring wide), and not the whole clip.
    expect(silence.startSeconds).toBeLessThanOrEqual(speech.startSeconds + 0.01);
    expect(silence.endSeconds).toBeGreaterThanOrEqual(speech.endSeconds - 0.01);
    expect(silence.endSeconds - silence.startSeconds).toBeLessThan(end - start);
    const unmasked = readWav(readFileSync(join(plain, 'clip.wav')));
    expect(unmasked.samples.length).toBe(clip.samples.length);
    expect(peakBetween(unmasked.samples, unmasked.sampleRate, speech.startSeconds, speech.endSeconds)).toBeGreaterThan(
      0.01,
    );
    expect(readFileSync(join(masked, 'README.txt'), 'utf8')).toMatch(/silenced/i);
  });

  it('exports the listed reviews as CSV that parses back, formula cells escaped', async () => {
    const [a, b] = calls;
    await h.handlers.addReviewNote([
      { workspaceId, sid: a!.sid, text: '=HYPERLINK("http://x.example","y")', place: { startSeconds: 1 } },
    ]);
    await h.handlers.setReviewVerdict([{ workspaceId, sid: a!.sid, verdict: 'fail' }]);
    await h.handlers.setReviewTicket([{ workspaceId, sid: a!.sid, ticket: '=1+2' }]);
    await h.handlers.setReviewVerdict([{ workspaceId, sid: b!.sid, verdict: 'pass' }]);
    await section(h, 'Reviews');
    const reviews = h.page.getByRole('region', { name: 'Reviews' });
    await reviews.getByRole('combobox', { name: 'Verdict' }).selectOption('fail');
    await expect.poll(() => reviews.getByRole('row').count()).toBe(2);
    await reviews.getByRole('button', { name: 'Export CSV' }).click();
    await reviews
      .getByRole('status')
      .filter({ hasText: /Saved “reviews_.*\.csv”/ })
      .waitFor();
    const file = readdirSync(saveDir).find((name) => name.endsWith('.csv'))!;
    const rows = parse<Record<string, string>>(readFileSync(join(saveDir, file)), { bom: true, columns: true });
    expect(rows.map((r) => r.sid)).toEqual([a!.sid.toLowerCase()]);
    expect(rows[0]).toMatchObject({ verdict: 'Fail', workspace: 'Demo workspace', note_count: '1' });
    expect(rows[0]?.notes).toBe('[00:01] =HYPERLINK("http://x.example","y")');
    // A cell that would start with = is read by a spreadsheet as text, not run as a formula.
    expect(rows[0]?.ticket).toBe("'=1+2");
  });

  it('shows what the masking rules hide in Settings', async () => {
    await h.page
      .getByLabel('Current workspace')
      .getByRole('button', { name: /^Workspace:/ })
      .click();
    await h.page
      .getByRole('menu', { name: 'Workspaces' })
      .getByRole('menuitem', { name: /Settings/ })
      .click();
    const preview = h.page.getByRole('figure', { name: 'Masking preview' });
    await preview.waitFor();
    const before = await preview.locator('mark.masked').count();
    expect(before).toBeGreaterThanOrEqual(4);
    await h.page.getByRole('checkbox', { name: 'E-mail addresses' }).uncheck();
    await expect.poll(() => preview.locator('mark.masked').count()).toBe(before - 1);
    await preview.scrollIntoViewIfNeeded();
    await h.page.screenshot({ path: join(ARTIFACTS_DIR, 'masking-settings.png') });
    const rules = (await h.handlers.getRedactionSettings([])) as { ok: true; value: { email: boolean } };
    expect(rules.value.email).toBe(false);
    await h.handlers.setRedactionSettings([
      { card: true, account: true, phone: true, email: true, dateOfBirth: true, spokenDigits: true },
    ]);
  });
});
