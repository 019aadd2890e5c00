/**
 * The Interaction view, as the app shows it in a connected demo workspace (Root -> App ->
 * InteractionView), over a fake `window.api`.
 *
 * wavesurfer.js needs canvas and media decoding, which jsdom does not have, so it is replaced by
 * a small fake that the test drives (emits 'ready', 'timeupdate'). Every other part is real.
 * Tests that do not exercise the player use interactions without a recording.
 */
import '@testing-library/svelte/vitest';
import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { DemoInteractionSummary } from '../../electron/shared/contract';
import type { Interaction } from '../../electron/shared/domain';
import Root from '../../renderer/src/Root.svelte';
import { deferred, demoSession, fail, installFakeApi, interaction, ok, type Replies } from './fake-api';

const fakeWaveSurfer = vi.hoisted(() => {
  type Listener = (...args: unknown[]) => void;
  class FakeWaveSurfer {
    readonly listeners = new Map<string, Listener[]>();
    readonly setTime = vi.fn<(seconds: number) => void>();
    readonly play = vi.fn(async () => {});
    destroyed = false;
    constructor(readonly options: { url?: string }) {}
    on(event: string, listener: Listener) {
      this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
      return () => {};
    }
    emit(event: string, ...args: unknown[]) {
      for (const listener of this.listeners.get(event) ?? []) listener(...args);
    }
    setPlaybackRate() {}
    playPause = vi.fn(async () => {});
    getCurrentTime() {
      return 0;
    }
    destroy() {
      this.destroyed = true;
    }
  }
  const instances: FakeWaveSurfer[] = [];
  return {
    instances,
    create: (options: { url?: string }) => {
      const ws = new FakeWaveSurfer(options);
      instances.push(ws);
      return ws;
    },
  };
});

vi.mock('wavesurfer.js', () => ({ default: { create: fakeWaveSurfer.create } }));

// jsdom has no layout, so no scrollIntoView; the transcript calls it to keep the current row in view.
const scrollIntoView = vi.fn();
beforeEach(() => {
  scrollIntoView.mockClear();
  Element.prototype.scrollIntoView = scrollIntoView;
});

const SID = 'interaction_1b4e28ba-2fa1-11d2-883f-0016d3cca427';
const OTHER_SID = 'interaction_6fa459ea-ee8a-3ca4-894e-db77e160355e';

/** Renders the app connected to a demo workspace and waits for the Interaction view. */
async function openWorkspace(replies: Replies = {}, demoInteractions: DemoInteractionSummary[] = []) {
  const fake = installFakeApi({ getSession: ok(demoSession('Sample Clinic (demo)', demoInteractions)), ...replies });
  const user = userEvent.setup();
  render(Root);
  await screen.findByRole('textbox', { name: 'Interaction SID' });
  return { fake, user };
}

const sidInput = () => screen.getByRole('textbox', { name: 'Interaction SID' });

async function lookUp(user: ReturnType<typeof userEvent.setup>, text: string) {
  await user.click(sidInput());
  await user.paste(text);
  await user.click(screen.getByRole('button', { name: 'Show call' }));
}

/** The value shown next to a label in the call details. */
function detail(label: string): HTMLElement {
  const details = screen.getByRole('region', { name: 'Call details' });
  const term = within(details).getByText(label, { selector: 'dt' });
  const value = term.nextElementSibling;
  if (!(value instanceof HTMLElement)) throw new Error(`No value next to "${label}"`);
  return value;
}

describe('Interaction view: finding the SID', () => {
  it('explains the SID shape when the text holds none, and loads nothing', async () => {
    const { fake, user } = await openWorkspace({ getInteraction: ok(interaction({ sid: SID })) });

    await lookUp(user, 'ticket 4411: caller says the agent hung up');

    expect(sidInput()).toHaveAccessibleDescription(/No interaction SID found in that text\..*interaction_ followed by a UUID/);
    expect(sidInput()).toHaveAttribute('aria-invalid', 'true');
    expect(fake.calls.getInteraction).toHaveLength(0);
  });

  it('asks for a SID when the field is empty', async () => {
    const { fake, user } = await openWorkspace({ getInteraction: ok(interaction({ sid: SID })) });

    await user.click(screen.getByRole('button', { name: 'Show call' }));

    expect(sidInput()).toHaveAccessibleDescription(/Paste an interaction SID\..*interaction_ followed by a UUID/);
    expect(fake.calls.getInteraction).toHaveLength(0);
  });

  it('finds an upper-case SID inside a pasted link and looks it up in lower case', async () => {
    const { fake, user } = await openWorkspace({ getInteraction: ok(interaction({ sid: SID, direction: 'inbound' })) });

    await lookUp(user, 'https://console.example.com/calls/interaction_1B4E28BA-2FA1-11D2-883F-0016D3CCA427?tab=log');

    expect(await screen.findByRole('heading', { name: 'Inbound call' })).toBeInTheDocument();
    expect(fake.calls.getInteraction).toEqual([[SID]]);
    expect(sidInput()).toHaveValue(SID);
    expect(sidInput()).toHaveAccessibleDescription('Looks up the call in Sample Clinic (demo).');
  });
});

describe('Interaction view: loading and errors', () => {
  it('shows a loading status until the call arrives', async () => {
    const pending = deferred<Interaction>();
    const { user } = await openWorkspace({ getInteraction: pending });

    await lookUp(user, SID);

    expect(await screen.findByRole('status')).toHaveTextContent(`Loading ${SID}…`);
    expect(screen.queryByRole('region', { name: 'Call details' })).not.toBeInTheDocument();

    pending.resolve(interaction({ sid: SID, direction: 'outbound' }));
    expect(await screen.findByRole('heading', { name: 'Outbound call' })).toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('shows a not-found error with a Retry that asks again', async () => {
    const { fake, user } = await openWorkspace({
      getInteraction: fail({ kind: 'not_found', status: 404, message: `No interaction ${SID} in this workspace.` }),
    });

    await lookUp(user, SID);

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The call could not be shown');
    expect(alert).toHaveTextContent(`No interaction ${SID} in this workspace.`);
    expect(fake.calls.getInteraction).toHaveLength(1);

    fake.reply('getInteraction', ok(interaction({ sid: SID, direction: 'inbound' })));
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));

    expect(await screen.findByRole('heading', { name: 'Inbound call' })).toBeInTheDocument();
    expect(fake.calls.getInteraction).toEqual([[SID], [SID]]);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('Interaction view: a call without a recording', () => {
  const call = interaction({
    sid: SID,
    fromNumber: '+14155550123',
    toNumber: '+442079460958',
    direction: 'inbound',
    type: 'phone_call',
    status: 'in_progress',
    agentSid: 'agent_3f2b9c1e-8d4a-4e6b-9a0f-1c2d3e4f5a6b',
    startedAtMs: Date.UTC(2024, 4, 2, 9, 30, 0),
    endedAtMs: null,
    durationSeconds: 134,
    variables: { patient_id: 'P-1234', callback_requested: 'true', empty_one: '' },
    log: [
      { index: 0, role: 'agent', message: 'Thanks for calling Sample Clinic.', offsetSeconds: 0.4 },
      { index: 1, role: 'user', message: 'I need to move my appointment.', offsetSeconds: 5.2 },
      { index: 2, role: 'tool_call', message: 'lookup_patient(P-1234)', offsetSeconds: null },
      { index: 3, role: 'agent', message: 'Of course, which day suits you?', offsetSeconds: 71 },
    ],
    recording: { available: false, reason: 'This interaction has no recording.' },
  });

  it('shows the call details in words', async () => {
    const { user } = await openWorkspace({ getInteraction: ok(call) });
    await lookUp(user, SID);

    expect(await screen.findByRole('heading', { name: 'Inbound call' })).toBeInTheDocument();
    const details = screen.getByRole('region', { name: 'Call details' });
    expect(within(details).getByText('In progress')).toBeInTheDocument();
    expect(within(details).getByText(SID)).toBeInTheDocument();
    expect(detail('From')).toHaveTextContent('+1 415 555 0123');
    expect(detail('To')).toHaveTextContent('+44 2079 460 958');
    expect(detail('Direction')).toHaveTextContent('Inbound');
    expect(detail('Type')).toHaveTextContent('Phone call');
    expect(detail('Ended')).toHaveTextContent('Still in progress');
    expect(detail('Duration')).toHaveTextContent('2 min 14 s');
    expect(detail('Agent')).toHaveTextContent('agent_3f2b9c1e-8d4a-4e6b-9a0f-1c2d3e4f5a6b');
  });

  it('says why there is no recording', async () => {
    const { user } = await openWorkspace({ getInteraction: ok(call) });
    await lookUp(user, SID);

    const recording = await screen.findByRole('region', { name: 'Recording' });
    expect(within(recording).getByRole('note')).toHaveTextContent(
      'This interaction has no recording. The transcript is still shown.',
    );
    expect(within(recording).queryByRole('button', { name: 'Play' })).not.toBeInTheDocument();
  });

  it('lists the variables by name', async () => {
    const { user } = await openWorkspace({ getInteraction: ok(call) });
    await lookUp(user, SID);

    const variables = await screen.findByRole('region', { name: 'Variables' });
    const rows = within(within(variables).getByRole('table')).getAllByRole('row');
    expect(rows.map((row) => Array.from(row.children, (cell) => cell.textContent?.trim()))).toEqual([
      ['Name', 'Value'],
      ['callback_requested', 'true'],
      ['empty_one', '—'],
      ['patient_id', 'P-1234'],
    ]);
  });

  it('lists the transcript with roles and m:ss offsets, not clickable without a recording', async () => {
    const { user } = await openWorkspace({ getInteraction: ok(call) });
    await lookUp(user, SID);

    const transcript = await screen.findByRole('region', { name: /Transcript/ });
    expect(within(transcript).getByRole('heading')).toHaveTextContent('Transcript 4 entries');
    const rows = within(transcript).getAllByRole('listitem');
    expect(rows.map((row) => row.textContent?.replace(/\s+/g, ' ').trim())).toEqual([
      'Agent 0:00 Thanks for calling Sample Clinic.',
      'User 0:05 I need to move my appointment.',
      'Tool call — lookup_patient(P-1234)',
      'Agent 1:11 Of course, which day suits you?',
    ]);
    for (const button of within(transcript).getAllByRole('button')) expect(button).toBeDisabled();
  });
});

describe('Interaction view: demo calls', () => {
  const demos: DemoInteractionSummary[] = [
    { sid: SID, label: 'Appointment change (inbound)' },
    { sid: OTHER_SID, label: 'Prescription refill (no recording)' },
  ];

  it('offers the demo SIDs in a list and loads the picked one', async () => {
    const { fake, user } = await openWorkspace(
      { getInteraction: (sid) => ok(interaction({ sid, direction: sid === OTHER_SID ? 'outbound' : 'inbound' })) },
      demos,
    );

    const select = screen.getByRole('combobox', { name: 'Demo calls' });
    expect(within(select).getAllByRole('option').map((o) => [o.getAttribute('value'), o.textContent])).toEqual([
      ['', 'Demo calls…'],
      [SID, 'Appointment change (inbound)'],
      [OTHER_SID, 'Prescription refill (no recording)'],
    ]);

    await user.selectOptions(select, 'Prescription refill (no recording)');

    expect(await screen.findByRole('heading', { name: 'Outbound call' })).toBeInTheDocument();
    expect(fake.calls.getInteraction).toEqual([[OTHER_SID]]);
    expect(sidInput()).toHaveValue(OTHER_SID);
  });

  it('offers the demo calls as buttons before any call is shown', async () => {
    const { fake, user } = await openWorkspace({ getInteraction: (sid) => ok(interaction({ sid, direction: 'inbound' })) }, demos);

    await user.click(screen.getByRole('button', { name: 'Appointment change (inbound)' }));

    expect(await screen.findByRole('heading', { name: 'Inbound call' })).toBeInTheDocument();
    expect(fake.calls.getInteraction).toEqual([[SID]]);
  });
});

describe('Interaction view: with a recording', () => {
  it('waits for the recording, then plays from a transcript row and follows playback', async () => {
    const call = interaction({
      sid: SID,
      direction: 'inbound',
      durationSeconds: 42,
      log: [
        { index: 0, role: 'agent', message: 'Hello, Sample Clinic.', offsetSeconds: 1 },
        { index: 1, role: 'user', message: 'Hi, I would like to cancel.', offsetSeconds: 12.5 },
      ],
      recording: { available: true, src: `vr-recording://ws-demo/${SID}` },
    });
    const { user } = await openWorkspace({ getInteraction: ok(call) });
    const before = fakeWaveSurfer.instances.length;
    await lookUp(user, SID);

    const recording = await screen.findByRole('region', { name: 'Recording' });
    expect(within(recording).getByRole('status')).toHaveTextContent('Loading the recording…');
    expect(within(recording).getByRole('button', { name: 'Play' })).toBeDisabled();
    const ws = fakeWaveSurfer.instances.at(-1);
    expect(fakeWaveSurfer.instances.length).toBe(before + 1);
    expect(ws?.options.url).toBe(`vr-recording://ws-demo/${SID}`);

    ws?.emit('ready', 42);

    expect(await within(recording).findByRole('button', { name: 'Play' })).toBeEnabled();
    expect(within(recording).queryByRole('status')).not.toBeInTheDocument();

    const transcript = screen.getByRole('region', { name: /Transcript/ });
    await user.click(within(transcript).getByRole('button', { name: /Hi, I would like to cancel\./ }));
    expect(ws?.setTime).toHaveBeenCalledWith(12.5);
    expect(ws?.play).toHaveBeenCalled();

    ws?.emit('timeupdate', 13);
    const rows = within(transcript).getAllByRole('listitem');
    await vi.waitFor(() => expect(rows[1]).toHaveAttribute('aria-current', 'true'));
    expect(rows[0]).not.toHaveAttribute('aria-current');
    expect(scrollIntoView.mock.contexts.at(-1)).toBe(rows[1]);
  });
});
