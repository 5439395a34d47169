/**
 * Given/when/then for deciders, after emmett's `DeciderSpecification`: given past events, when a
 * command is decided, then these events are produced (or this error is thrown).
 */
import { expect } from 'vitest';
import type { Decider } from '../shared/decider';
import type { Command, DomainEvent } from '../shared/messages';

export type DeciderThen<E> = {
  then: (expected: E[]) => void;
  thenThrows: <Err extends Error>(
    errorType: abstract new (...args: never[]) => Err,
    check?: (error: Err) => void,
  ) => void;
};

export const DeciderSpecification = {
  for<State, C extends Command, E extends DomainEvent>(decider: Decider<State, C, E>) {
    return (given: E[]) => ({
      when(command: C): DeciderThen<E> {
        const run = () => decider.decide(command, given.reduce(decider.evolve, decider.initialState()));
        return {
          // biome-ignore lint/suspicious/noThenProperty: the given/when/then vocabulary of emmett's specification
          then: (expected) => expect(run()).toEqual(expected),
          thenThrows: (errorType, check) => {
            let thrown: unknown;
            try {
              run();
            } catch (error) {
              thrown = error;
            }
            expect(thrown).toBeInstanceOf(errorType);
            check?.(thrown as Parameters<NonNullable<typeof check>>[0]);
          },
        };
      },
    });
  },
};
