/**
 * Writes that cannot be double-submitted (ground rule 4): a svelte-query mutation plus a flag set
 * synchronously on submit. svelte-query's `isPending` only becomes true a tick after `mutate`, too
 * late for a double click or a double Enter, so forms call {@link SingleFlightMutation.submit}
 * instead of `mutate`.
 */
import { createMutation, type CreateMutationOptions, type CreateMutationResult } from '@tanstack/svelte-query';

/** A mutation whose `submit` refuses to start while a previous call is still running. */
export interface SingleFlightMutation<TData, TError, TVariables> {
  /** The underlying mutation (for `isPending`, `error`, `reset`...). */
  mutation: CreateMutationResult<TData, TError, TVariables>;
  /**
   * Starts the mutation with `variables` unless one is already in flight.
   * @returns true when started, false when refused because a call is still running.
   */
  submit(variables: TVariables): boolean;
}

/**
 * Creates a {@link SingleFlightMutation}. Call during component initialisation, like
 * `createMutation`; `options` is the same options function (its `onSettled` still runs).
 */
export function createSingleFlightMutation<TData, TError, TVariables>(
  options: () => CreateMutationOptions<TData, TError, TVariables>,
): SingleFlightMutation<TData, TError, TVariables> {
  let inFlight = false;
  const mutation = createMutation<TData, TError, TVariables>(() => {
    const base = options();
    return {
      ...base,
      onSettled: (...args: Parameters<NonNullable<typeof base.onSettled>>) => {
        inFlight = false;
        return base.onSettled?.(...args);
      },
    };
  });
  return {
    mutation,
    submit(variables) {
      if (inFlight || mutation.isPending) return false;
      inFlight = true;
      mutation.mutate(variables);
      return true;
    },
  };
}
