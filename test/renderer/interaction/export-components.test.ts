/**
 * The components that take a call out of the app, over a fake `window.api`: the export menu
 * (formats, download progress, cancel, errors in words), the excerpt copy buttons, the recent
 * calls list (open, clear with a confirmation) and the routing panel (its words and its links).
 */
import { QueryClient } from '@tanstack/svelte-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import type { Component } from 'svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RecentCall } from '$shared/contract';
import type { Phone } from '$shared/domain';
import { excerptMarkdown, excerptText } from '$shared/excerpt';
import { accountRequests } from '../../../renderer/src/lib/account/open-request.svelte';
import CopyExcerpt from '../../../renderer/src/lib/interaction/CopyExcerpt.svelte';
import ExportMenu from '../../../renderer/src/lib/interaction/ExportMenu.svelte';
import RecentCalls from '../../../renderer/src/lib/interaction/RecentCalls.svelte';
import RoutingPanel from '../../../renderer/src/lib/interaction/RoutingPanel.svelte';
import Host from './export-query-host.svelte';
import { requestFileCommand } from '../../../renderer/src/lib/interaction/file-command.svelte';
import {
  deferred,
  fail,
  installDialogPolyfill,
  installFakeApi,
  ok,
  PRODUCTION,
  type Replies,
  webhook,
} from '../fake-api';

const SID = 'interaction_0b6a4c1e-8a9f-4d2b-9c3e-5f1a2b3c4d5e';
const AGENT_A = 'agent_00000000-0000-4000-8000-00000000000a';
const AGENT_B = 'agent_00000000-0000-4000-8000-00000000000b';

function show<P extends Record<string, unknown>>(component: Component<P>, props: P, replies: Replies = {}) {
  const fake = installFakeApi(replies);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(Host as unknown as Component<{ component: Component<P>; props: P; client: QueryClient }>, {
    props: { component, props, client },
  });
  return { fake, user: userEvent.setup() };
}

beforeEach(() => installDialogPolyfill());
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('export menu', () => {
  it('exports the transcript in the format picked and says where it went', async () => {
    const { fake, user } = show(
      ExportMenu,
      { sid: SID, recordingAvailable: true },
      { exportTranscript: (_sid, format) => ok({ saved: `call.${format}` }) },
    );
    const opener = screen.getByRole('button', { name: 'Export' });
    expect(opener).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('button', { name: 'Export transcript as SRT' })).not.toBeInTheDocument();
    await user.click(opener);
    await user.click(screen.getByRole('button', { name: 'Export transcript as SRT' }));
    expect(await screen.findByText('Transcript saved as call.srt.')).toBeInTheDocument();
    expect(fake.calls.exportTranscript).toEqual([[SID, 'srt']]);
    // A choice closes the choices; Escape does too, giving the focus back to the button.
    expect(opener).toHaveAttribute('aria-expanded', 'false');
    await user.click(opener);
    await user.keyboard('{Escape}');
    expect(opener).toHaveAttribute('aria-expanded', 'false');
    expect(opener).toHaveFocus();
  });

  it('carries out File > Download Recording… and File > Export… from the menu on the call shown', async () => {
    const { fake } = show(
      ExportMenu,
      { sid: SID, recordingAvailable: true },
      { downloadRecording: ok({ saved: 'call.mp3' }) },
    );
    requestFileCommand('download');
    expect(await screen.findByText('Recording saved as call.mp3.')).toBeInTheDocument();
    expect(fake.calls.downloadRecording).toEqual([[SID]]);
    requestFileCommand('export');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Export transcript as TXT' })).toHaveFocus());
    expect(screen.getByText('Choose a format: TXT, JSON, SRT or VTT.')).toBeInTheDocument();
  });

  it('shows the download’s progress, cancels it, and says nothing was saved', async () => {
    const download = deferred<{ saved: string | null }>();
    const { fake, user } = show(
      ExportMenu,
      // The progress as the call's recording session has it from main's pushes.
      {
        sid: SID,
        recordingAvailable: true,
        downloadProgress: { receivedBytes: 500_000, totalBytes: 1_000_000 },
      },
      { downloadRecording: download, cancelDownload: ok(undefined) },
    );
    await user.click(screen.getByRole('button', { name: 'Export' }));
    await user.click(screen.getByRole('button', { name: 'Download recording' }));
    expect(await screen.findByText('0.5 MB of 1.0 MB')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Download progress' })).toHaveAttribute('value', '500000');
    await user.click(screen.getByRole('button', { name: 'Cancel download' }));
    expect(fake.calls.cancelDownload).toEqual([[SID]]);
    download.resolve({ saved: null });
    expect(await screen.findByText('Recording: nothing saved.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Cancel download' })).not.toBeInTheDocument());
  });

  it('says a failed download in words; no recording disables the button', async () => {
    const message = '"call.ogg" could not be saved: the disk is full. Nothing was written.';
    const { user } = show(
      ExportMenu,
      { sid: SID, recordingAvailable: true },
      { downloadRecording: fail({ kind: 'bad_input', message }) },
    );
    await user.click(screen.getByRole('button', { name: 'Export' }));
    await user.click(screen.getByRole('button', { name: 'Download recording' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
  });

  it('disables the download when the call has no recording, saying why', async () => {
    const { user } = show(ExportMenu, { sid: SID, recordingAvailable: false });
    await user.click(screen.getByRole('button', { name: 'Export' }));
    const download = screen.getByRole('button', { name: 'Download recording' });
    expect(download).toBeDisabled();
    expect(download).toHaveAttribute('title', expect.stringMatching(/^No recording: /));
  });
});

describe('copy excerpt', () => {
  const entries = [
    { index: 0, role: 'agent', message: 'Hello *there*', offsetSeconds: 1 },
    { index: 1, role: 'user', message: 'Hi', offsetSeconds: 65 },
  ];

  it('copies the entries as text and as Markdown', async () => {
    const user = userEvent.setup();
    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue(undefined);
    render(CopyExcerpt, { props: { sid: SID, workspaceName: 'Production', entries } });
    await user.click(screen.getByRole('button', { name: 'Copy as text' }));
    expect(writeText).toHaveBeenLastCalledWith(excerptText({ sid: SID, workspaceName: 'Production', entries }));
    await user.click(screen.getByRole('button', { name: 'Copy as Markdown' }));
    expect(writeText).toHaveBeenLastCalledWith(excerptMarkdown({ sid: SID, workspaceName: 'Production', entries }));
    expect(await screen.findByText('Excerpt of 2 entries copied as Markdown.')).toBeInTheDocument();
  });
});

describe('recent calls', () => {
  const recent: RecentCall[] = [
    {
      sid: SID,
      fromNumber: '+14155550123',
      toNumber: '+14155550199',
      direction: 'inbound',
      status: 'completed',
      startedAtMs: Date.UTC(2025, 2, 4, 10, 12),
      openedAtMs: 2,
    },
  ];

  it('opens a call when picked, and clears the list after a confirmation', async () => {
    const onOpen = vi.fn();
    const { fake, user } = show(
      RecentCalls,
      { workspace: PRODUCTION, onOpen },
      { listRecentCalls: ok(recent), clearRecentCalls: ok(undefined) },
    );
    await user.click(await screen.findByRole('button', { name: new RegExp(`^Open call .*${SID}`) }));
    expect(onOpen).toHaveBeenCalledWith(SID);
    await user.click(screen.getByRole('button', { name: 'Clear' }));
    const dialog = screen.getByRole('dialog', { name: 'Clear recent calls?' });
    expect(fake.calls.clearRecentCalls).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Clear' }));
    expect(await screen.findByText('No calls opened in this workspace yet.')).toBeInTheDocument();
    expect(fake.calls.clearRecentCalls).toHaveLength(1);
  });
});

describe('recent calls with their reviews', () => {
  it('shows the verdict and tags of a reviewed call beside it', async () => {
    show(
      RecentCalls,
      { workspace: PRODUCTION },
      {
        listRecentCalls: ok([
          {
            sid: SID,
            fromNumber: null,
            toNumber: null,
            direction: 'inbound',
            startedAtMs: null,
            status: null,
            openedAtMs: 2,
          },
        ]),
        reviewSummaries: ok({
          [SID.toLowerCase()]: { verdict: 'needs_work', tags: ['billing'], noteCount: 1, scorePercent: 70 },
        }),
      },
    );
    const button = await screen.findByRole('button', { name: /^Open call/ });
    await vi.waitFor(() => expect(button).toHaveTextContent(/Needs work\s*billing/));
  });
});

describe('routing panel', () => {
  const phone: Phone = {
    sid: 'phone_1',
    name: 'Front desk',
    number: '+14155550199',
    sipTrunk: { sid: 'sip_1', name: 'Main trunk', system: false },
    createdAt: null,
    updatedAt: null,
    inboundAgentId: AGENT_B,
    outboundAgentId: null,
  };
  const hook = webhook({ callEndedEvent: false });
  const call = { direction: 'inbound', fromNumber: '+14155550123', toNumber: '+14155550199', agentSid: AGENT_A };

  it('says the number now routes to another agent, names the trunk and the webhook, and opens them', async () => {
    const { user } = show(
      RoutingPanel,
      { workspace: PRODUCTION, interaction: call },
      { listPhones: ok([phone]), listWebhooks: ok([hook]) },
    );
    expect(await screen.findByText(/This number now routes inbound calls to another agent/)).toBeInTheDocument();
    expect(screen.getByText(/Main trunk/)).toBeInTheDocument();
    expect(screen.getByText('call-ended notification off')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Open phone' }));
    expect(accountRequests.latest()).toMatchObject({
      workspaceId: PRODUCTION.id,
      section: 'phones',
      key: '+14155550199',
    });
    await user.click(screen.getByRole('button', { name: 'Open webhook https://hooks.example.com/calls' }));
    expect(accountRequests.latest()).toMatchObject({ workspaceId: PRODUCTION.id, section: 'webhooks', key: 'wh_1' });
  });

  it('says when the number has no phone record', async () => {
    show(RoutingPanel, { workspace: PRODUCTION, interaction: call }, { listPhones: ok([]), listWebhooks: ok([hook]) });
    expect(await screen.findByText(/No phone record for/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Open webhook/ })).not.toBeInTheDocument();
  });

  it('says when the number still routes to the call’s agent and no webhook is tied to it', async () => {
    show(
      RoutingPanel,
      { workspace: PRODUCTION, interaction: { ...call, agentSid: AGENT_B } },
      { listPhones: ok([phone]), listWebhooks: ok([{ ...hook, phoneNumber: null }]) },
    );
    expect(await screen.findByText(/This number still routes inbound calls to this call’s agent/)).toBeInTheDocument();
    expect(screen.getByText('No webhook is tied to this phone.')).toBeInTheDocument();
  });
});
