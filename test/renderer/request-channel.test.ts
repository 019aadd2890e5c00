/**
 * RequestChannel (renderer/src/lib/request-channel.svelte.ts): the one way requests travel
 * between parts of the page (open a call, a menu command, open a phone). Each reader acts on a
 * request once; where its memory starts decides whether a request sent before it counts.
 */
import { describe, expect, it } from 'vitest';
import { RequestChannel } from '../../renderer/src/lib/request-channel.svelte';

describe('RequestChannel', () => {
  it('gives a reader from now only the requests sent after it, each once', () => {
    const channel = new RequestChannel<{ sid: string }>();
    channel.send({ sid: 'a' });
    const reader = channel.reader('now');
    expect(reader.next()).toBeNull();

    const sent = channel.send({ sid: 'b' });
    expect(reader.next()).toEqual({ sid: 'b', id: sent.id });
    expect(reader.next()).toBeNull();
  });

  it('acts twice when the same thing is asked for twice', () => {
    const channel = new RequestChannel<{ sid: string }>();
    const reader = channel.reader('now');
    channel.send({ sid: 'a' });
    const first = reader.next();
    channel.send({ sid: 'a' });
    const second = reader.next();
    expect(first?.sid).toBe('a');
    expect(second?.sid).toBe('a');
    expect(second!.id).toBeGreaterThan(first!.id);
  });

  it('gives a reader from the start the request sent before it existed, once across its users', () => {
    const channel = new RequestChannel<{ sid: string }>();
    channel.send({ sid: 'a' });
    const reader = channel.reader('start');
    expect(reader.next()?.sid).toBe('a');
    // A remounted component reading the same module-level reader does not act again.
    expect(reader.next()).toBeNull();
  });

  it('keeps a request a reader turned down for a later read that takes it', () => {
    const channel = new RequestChannel<{ section: string }>();
    const reader = channel.reader('start');
    channel.send({ section: 'webhooks' });
    expect(reader.next((request) => request.section === 'phones')).toBeNull();
    expect(reader.next((request) => request.section === 'webhooks')?.section).toBe('webhooks');
    expect(reader.next()).toBeNull();
  });

  it('keeps readers apart: one reading a request leaves it unread for another', () => {
    const channel = new RequestChannel<{ sid: string }>();
    const view = channel.reader('now');
    const frame = channel.reader('now');
    channel.send({ sid: 'a' });
    expect(view.next()?.sid).toBe('a');
    expect(frame.next()?.sid).toBe('a');
    expect(channel.latest()?.sid).toBe('a');
  });
});
