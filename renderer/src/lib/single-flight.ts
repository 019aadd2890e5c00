/**
 * Writes that cannot be double-submitted: a svelte-query mutation plus a flag set synchronously
 * on submit. svelte-query's `isPending` only becomes true a tick after `mutate`, too late for a
 * double click or a double Enter, so forms call {@link SingleFlightMutation.submit} instead of
 * `mutate`.
 */
import {
  createMutation,
  useQueryClient,
  type CreateMutationOptions,
  type CreateMutationResult,
  type QueryClient,
} from '@tanstack/svelte-query';

/** A mutation whose `submit` refuses to start while a previous call is still running. */
export interface SingleFlightMutation<TData, TError, TVariables> {
  /** The underlying mutation (for `isPending`, `error`, `reset`...). */
  mutation: CreateMutationResult<TData, TError, TVariables>;
  /**
   * Starts the mutation with `variables` unless one is already in flight.
   * @returns true when started, false when refused because a call is still running.
   */
  submit: (variables: TVariables) => boolean;
}

/** Names of the shared flights running now, per query client (see `flight` below). */
const runningFlights = new WeakMap<QueryClient, Set<string>>();

/**
 * Creates a {@link SingleFlightMutation}. Call during component initialisation, like
 * `createMutation`; `options` is the same options function (its `onSettled` still runs).
 * @param flight when given, every single-flight mutation of the app with this name shares one
 *   flight: while one runs (in any component), the others refuse to start too.
 */
export function createSingleFlightMutation<TData, TError, TVariables>(
  options: () => CreateMutationOptions<TData, TError, TVariables>,
  flight?: string,
): SingleFlightMutation<TData, TError, TVariables> {
  let inFlight = false;
  let shared: Set<string> | undefined;
  if (flight !== undefined) {
    const client = useQueryClient();
    shared = runningFlights.get(client) ?? new Set<string>();
    runningFlights.set(client, shared);
  }
  const mutation = createMutation<TData, TError, TVariables>(() => {
    const base = options();
    return {
      ...base,
      onSettled: (...args: Parameters<NonNullable<typeof base.onSettled>>) => {
        inFlight = false;
        if (flight !== undefined) shared?.delete(flight);
        return base.onSettled?.(...args);
      },
    };
  });
  return {
    mutation,
    submit: (variables) => {
      if (inFlight || mutation.isPending) return false;
      if (flight !== undefined) {
        if (shared?.has(flight)) return false;
        shared?.add(flight);
      }
      inFlight = true;
      mutation.mutate(variables);
      return true;
    },
  };
}
