/**
 * Accessibility end to end: axe-core checks every screen of the app in Chromium, in the light and
 * the dark theme (the page follows `prefers-color-scheme`, emulated here), and finds no serious
 * or critical violation. Screens: Connect (the welcome screen before any workspace), a demo call
 * under review with its waveform drawn, the review queue (a reviewed call, the side panel's Timing
 * tab, the Export menu open), a call without a recording, Phones with a phone open, SIP trunks, Webhooks with the
 * delete confirmation open, and Settings. Also here: an excerpt of picked transcript entries read
 * back from the clipboard, and screenshots of a call in either theme (test-artifacts/call-light.png,
 * call-dark.png) and of a picked range in the dark theme (dark-mode.png).
 *
 * Injecting axe: the app's CSP allows no inline or injected scripts, and the harness keeps it as
 * Electron serves it. Playwright's `evaluate` runs through the DevTools protocol
 * (Runtime.evaluate), which the page's CSP does not govern, so axe's source is evaluated that way
 * and the CSP stays as strict as shipped (no `bypassCSP`).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AxeResults } from 'axe-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Interaction, Phone } from '../../electron/shared/domain';
import { ensureBuilt } from './build';
import { checkPageErrorsEachTest } from './page-errors';
import { ARTIFACTS_DIR, openDemoAfresh, ROOT, showInteraction, startHarness, type Harness } from './harness';
import { waitForWaveform } from './review-helpers';

const AXE_SOURCE = readFileSync(join(ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8');
const THEMES = ['light', 'dark'] as const;

let h: Harness;
/** A demo call with a recording and the longest transcript. */
let call: Interaction;

/** The violations axe finds on the page as it is now that are serious or critical, in words. */
async function seriousViolations(): Promise<string[]> {
  if (!(await h.page.evaluate(() => 'axe' in window))) await h.page.evaluate(AXE_SOURCE);
  const results = await h.page.evaluate(async () => {
    const { axe } = window as unknown as { axe: { run: (context: Document) => Promise<AxeResults> } };
    return axe.run(document);
  });
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) =>
      v.nodes.map((n) => `${v.id} (${v.impact ?? ''}): ${n.target.join(' ')} — ${n.failureSummary ?? v.help}`),
    );
}

async function section(name: string) {
  await h.page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name }).click();
}

beforeAll(async () => {
  ensureBuilt();
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  h = await startHarness();
  await h.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: h.origin });
  await h.session.openDemo();
  const calls: Interaction[] = [];
  for (const demo of (await h.session.info()).demoInteractions) {
    const result = await h.handlers.getInteraction([demo.sid]);
    if (result.ok) calls.push(result.value as Interaction);
  }
  call = calls.filter((c) => c.recording.available).sort((a, b) => b.log.length - a.log.length)[0]!;
}, 120_000);

checkPageErrorsEachTest(() => h);

afterAll(async () => {
  await h.close();
});

describe.each(THEMES)('axe in the %s theme', (theme) => {
  beforeAll(async () => {
    await h.page.emulateMedia({ colorScheme: theme });
  });

  it('Connect: the welcome screen before any workspace is open', async () => {
    await h.session.disconnect();
    await h.page.reload();
    await h.page.getByRole('button', { name: 'Open demo workspace' }).waitFor();
    expect(await seriousViolations()).toEqual([]);
  });

  it('Calls: a demo call with its waveform drawn', async () => {
    await openDemoAfresh(h);
    await showInteraction(h.page, call.sid);
    await waitForWaveform(h.page);
    expect(await seriousViolations()).toEqual([]);
    await h.page.screenshot({ path: join(ARTIFACTS_DIR, `call-${theme}.png`) });
  });

  it('Calls: a queue of three calls, one reviewed, with the side panel on Timing', async () => {
    await openDemoAfresh(h);
    await h.handlers.clearQueue([]);
    const others = (await h.session.info()).demoInteractions.map((d) => d.sid).filter((sid) => sid !== call.sid);
    const sids = [call.sid, ...others.slice(0, 2)];
    await h.page.evaluate((text) => {
      const data = new DataTransfer();
      data.setData('text/plain', text);
      document.body.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true }));
    }, sids.join('\n'));
    const queue = h.page.getByRole('region', { name: 'Queue' });
    await expect.poll(() => queue.getByRole('button', { name: /^Open call \d of 3/ }).count()).toBe(3);
    await h.page.keyboard.press('r');
    await queue.getByText('1 of 3 reviewed').waitFor();
    await h.page.getByRole('tab', { name: 'Timing' }).click();
    await h.page.getByRole('region', { name: 'Turn timing' }).waitFor();
    await h.page.getByRole('button', { name: 'Export', exact: true }).click();
    expect(await seriousViolations()).toEqual([]);
    await h.page.keyboard.press('Escape');
    await h.handlers.clearQueue([]);
  });

  it('Calls: a call without a recording', async () => {
    await openDemoAfresh(h);
    const calls: Interaction[] = [];
    for (const demo of (await h.session.info()).demoInteractions) {
      const result = await h.handlers.getInteraction([demo.sid]);
      if (result.ok) calls.push(result.value as Interaction);
    }
    await showInteraction(h.page, calls.find((c) => !c.recording.available)!.sid);
    expect(await seriousViolations()).toEqual([]);
  });

  it('Phones with a phone open', async () => {
    await openDemoAfresh(h);
    await section('Phones');
    const phones = (await h.handlers.listPhones([])) as { ok: true; value: Phone[] };
    const phone = phones.value[0]!;
    await h.page
      .getByRole('region', { name: 'Phones' })
      .getByRole('button', { name: `Open ${phone.name}` })
      .click();
    await h.page.getByRole('form', { name: 'Edit phone' }).waitFor();
    expect(await seriousViolations()).toEqual([]);
  });

  it('SIP trunks', async () => {
    await openDemoAfresh(h);
    await section('SIP trunks');
    await h.page.getByRole('region', { name: 'SIP trunks' }).getByRole('table').waitFor();
    expect(await seriousViolations()).toEqual([]);
  });

  it('Reviews with a review listed', async () => {
    await openDemoAfresh(h);
    const workspaceId = (await h.session.info()).workspace!.id;
    await h.handlers.setReviewTags([{ workspaceId, sid: call.sid, tags: ['accessibility'] }]);
    await h.handlers.setReviewVerdict([{ workspaceId, sid: call.sid, verdict: 'needs_work' }]);
    await section('Reviews');
    await h.page.getByRole('region', { name: 'Reviews' }).getByRole('table').waitFor();
    expect(await seriousViolations()).toEqual([]);
  });

  it('Webhooks with the delete confirmation open', async () => {
    await openDemoAfresh(h);
    await section('Webhooks');
    const region = h.page.getByRole('region', { name: 'Webhooks' });
    await region
      .getByRole('button', { name: /^Delete / })
      .first()
      .click();
    await h.page.getByRole('dialog', { name: 'Delete this webhook?' }).waitFor();
    expect(await seriousViolations()).toEqual([]);
  });

  it('Settings', async () => {
    await openDemoAfresh(h);
    await h.page
      .getByLabel('Current workspace')
      .getByRole('button', { name: /^Workspace:/ })
      .click();
    await h.page
      .getByRole('menu', { name: 'Workspaces' })
      .getByRole('menuitem', { name: /Settings/ })
      .click();
    await h.page.getByRole('heading', { name: 'Settings' }).first().waitFor();
    expect(await seriousViolations()).toEqual([]);
  });
});

describe('a call in the dark theme, and an excerpt on the clipboard', () => {
  it('picks three transcript entries, copies them as text and reads the excerpt back', async () => {
    await h.page.emulateMedia({ colorScheme: 'dark' });
    await openDemoAfresh(h);
    await showInteraction(h.page, call.sid);
    await waitForWaveform(h.page);
    const transcript = h.page.locator('section[aria-labelledby="transcript-title"]');
    await transcript.getByRole('checkbox', { name: 'Select entry 2 for an excerpt' }).click();
    await transcript.getByRole('checkbox', { name: 'Select entry 4 for an excerpt' }).click({ modifiers: ['Shift'] });
    const bar = transcript.getByRole('group', { name: 'Excerpt' });
    await expect.poll(() => bar.getByText('3 entries selected').isVisible()).toBe(true);
    for (const [entry, picked] of [
      [1, false],
      [2, true],
      [3, true],
      [4, true],
      [5, false],
    ] as const) {
      const box = transcript.getByRole('checkbox', { name: `Select entry ${entry} for an excerpt` });
      await expect.poll(() => box.isChecked()).toBe(picked);
    }
    // Part of the call played, so the screenshot shows both wave colours and the current entry.
    const slider = h.page.getByRole('slider', { name: /Playback position/ });
    for (let i = 0; i < 8; i += 1) await slider.press('ArrowRight');
    await h.page.mouse.move(0, 0);
    await h.page.screenshot({ path: join(ARTIFACTS_DIR, 'dark-mode.png') });

    await bar.getByRole('button', { name: 'Copy as text' }).click();
    await bar.getByText(/copied as text/).waitFor();
    const text = await h.page.evaluate(() => navigator.clipboard.readText());
    const lines = text.split('\n');
    expect(lines[0]).toMatch(new RegExp(`^Interaction ${call.sid} · Demo workspace · \\d+:\\d\\d`));
    expect(lines.slice(2)).toHaveLength(3);
    for (const [i, entry] of call.log.slice(1, 4).entries()) {
      expect(lines[2 + i]).toMatch(/^\[\d+:\d\d\] \w+: /);
      expect(lines[2 + i]).toContain(entry.message.split('\n')[0]!);
    }

    await transcript.getByRole('checkbox', { name: 'Select entry 4 for an excerpt' }).press('Escape');
    await expect.poll(() => bar.count()).toBe(0);
  });
});
