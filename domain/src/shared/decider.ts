import type { Command, DomainEvent } from './messages';

/** A pure aggregate: state is the fold of its events; `decide` turns a command into new events. */
export type Decider<State, C extends Command, E extends DomainEvent> = {
  initialState: () => State;
  evolve: (state: State, event: E) => State;
  /** Throws a `DomainError` (see errors.ts) when the command is not allowed. */
  decide: (command: C, state: State) => E[];
};
