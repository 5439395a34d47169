import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { gatherWakes } from './gather-wakes';

describe('gatherWakes', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('starts a round at once after a quiet moment, then at most one per interval for every wake meanwhile', () => {
    const rounds: number[] = [];
    const start = Date.now();
    const gather = gatherWakes(100, () => rounds.push(Date.now() - start));

    gather.wake();
    expect(rounds).toEqual([0]);
    // A burst: 30 wakes 5 ms apart (to 150 ms) make a round per 100 ms, not 30.
    for (let i = 0; i < 30; i++) {
      vi.advanceTimersByTime(5);
      gather.wake();
    }
    expect(rounds).toEqual([0, 100]);
    // The wakes heard after the round at 100 started are not lost: they bring the one at 200.
    vi.advanceTimersByTime(50);
    expect(rounds).toEqual([0, 100, 200]);
    // Quiet for longer than the interval: the next wake starts a round at once.
    vi.advanceTimersByTime(500);
    gather.wake();
    expect(rounds).toEqual([0, 100, 200, 700]);
  });

  it('with an interval of 0 starts a round on every wake; stop cancels the one waiting', () => {
    let rounds = 0;
    const every = gatherWakes(0, () => rounds++);
    every.wake();
    every.wake();
    expect(rounds).toBe(2);

    const gathered = gatherWakes(100, () => rounds++);
    gathered.wake();
    gathered.wake();
    gathered.stop();
    vi.advanceTimersByTime(1000);
    expect(rounds).toBe(3);
  });
});
