/**
 * A request from one part of the page to another that does not hold it: a link or a recent call
 * asking the Calls view to show a call, the native menu asking the call shown to export, a call's
 * routing panel asking the Phones screen to open a phone.
 *
 * A channel keeps only its latest request, each with a fresh `id`, so asking twice for the same
 * thing acts twice. A reader acts on each request once: it remembers the last `id` it returned.
 * Where its memory starts is the one choice a consumer makes:
 * - `'now'`: only requests sent after the reader was made (a component that acts while mounted);
 * - `'start'`: a request sent before the reader existed counts too (a module-level reader of a
 *   component that is mounted because of the request, or remounted while it was on its way).
 */

/** A request as sent: the payload and its `id` (1, 2, 3… per channel). */
export type Request<T extends object> = T & { readonly id: number };

/** Reads a {@link RequestChannel}, returning each request at most once. */
export interface RequestReader<T extends object> {
  /**
   * The latest request when this reader has not returned it yet and `accept` (if given) takes
   * it; null otherwise. Reactive: call it inside an effect to act on each new request. A request
   * `accept` turns down stays unread, so a later call may still take it.
   */
  next(accept?: (request: Request<T>) => boolean): Request<T> | null;
}

/** A one-way, latest-wins request channel (see the file's comment). */
export class RequestChannel<T extends object> {
  #latest = $state.raw<Request<T> | null>(null);
  #lastId = 0;

  /**
   * Sends `payload` as the channel's latest request.
   * @returns the request as sent, with its `id`
   */
  send(payload: T): Request<T> {
    const request: Request<T> = { ...payload, id: ++this.#lastId };
    this.#latest = request;
    return request;
  }

  /** The latest request, read or not, or null before any (reactive). */
  latest(): Request<T> | null {
    return this.#latest;
  }

  /** A reader that returns each request once, counting from `from` (see the file's comment). */
  reader(from: 'now' | 'start'): RequestReader<T> {
    let seenId = from === 'now' ? this.#lastId : 0;
    return {
      next: (accept) => {
        const request = this.#latest;
        if (request === null || request.id <= seenId) return null;
        if (accept && !accept(request)) return null;
        seenId = request.id;
        return request;
      },
    };
  }
}
