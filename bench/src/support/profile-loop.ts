import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';

/** Runs `fn` `times` times under the V8 CPU profiler; writes `file` (.cpuprofile). */
export async function profileLoop(file: string, times: number, fn: () => Promise<unknown>) {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
  for (let i = 0; i < times; i++) await fn();
  const { profile } = await session.post('Profiler.stop');
  writeFileSync(file, JSON.stringify(profile));
  session.disconnect();
}
