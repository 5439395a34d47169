/**
 * `npm run projections -- status`: every projection (and the mail reactor) with its checkpoint,
 * lag in events and seconds, and state; a stopped one with its dead letter.
 * `npm run projections -- retry <name>`: after the projector is fixed, clears the stopped state
 * and catches the projection up here and now (exit 1 if it stops again).
 * Connects like the app (DATABASE_URL, REDIS_URL, ...; embedded PGlite in DATA_DIR otherwise:
 * stop an embedded server first, PGlite allows one process per directory).
 */
import type { ProjectionStatus } from '@kosh/projections';
import { loadConfig } from './config';
import { createLogger } from './logger';
import { runCli } from './run-cli';
import { createRuntime } from './runtime';

const USAGE = 'Usage: npm run projections -- status | retry <name>\n';

export function formatStatus(statuses: readonly ProjectionStatus[]): string {
  const header = ['projection', 'state', 'lag events', 'lag seconds', 'checkpoint'];
  const rows = statuses.map((s) => [
    s.name,
    s.status,
    String(s.lagEvents),
    s.lagSeconds.toFixed(1),
    s.position || '(start)',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]?.length ?? 0)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  const letters = statuses
    .filter((s) => s.deadLetter)
    .map(({ name, deadLetter: d }) =>
      d
        ? `${name}: dead letter at ${d.position}, event ${d.eventId} (${d.eventType}) at ${d.at}\n  ${d.error.split('\n')[0]}\n  fix the projector, then: npm run projections -- retry ${name}`
        : '',
    );
  return [line(header), ...rows.map(line), ...(letters.length ? ['', ...letters] : [])].join('\n');
}

async function main(): Promise<number> {
  const [command, name] = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
  if (command !== 'status' && command !== 'retry') {
    process.stderr.write(USAGE);
    return command === undefined || process.argv.includes('--help') ? 0 : 1;
  }
  const config = loadConfig();
  const platform = await createRuntime(config, {
    role: 'api',
    logger: createLogger({ ...config, LOG_LEVEL: 'warn' }, 2),
  });
  try {
    const known = (await platform.runner.status()).map((s) => s.name);
    if (command === 'retry') {
      if (!name || !known.includes(name)) {
        process.stderr.write(
          `${name ? `Unknown projection: ${name}\n` : ''}${USAGE}Projections: ${known.join(', ')}\n`,
        );
        return 1;
      }
      await platform.runner.resume(name);
      const result = await platform.runner.catchUp(name);
      const after = (await platform.runner.status()).find((s) => s.name === name);
      if (result.stopped) {
        process.stderr.write(`${name} stopped again.\n${after ? formatStatus([after]) : ''}\n`);
        return 1;
      }
      process.stdout.write(
        `${name} resumed: applied ${result.events} events, now at ${result.position || '(start)'}\n`,
      );
      return 0;
    }
    const statuses = await platform.runner.status();
    process.stdout.write(`${formatStatus(statuses)}\n`);
    return statuses.some((s) => s.status === 'stopped') ? 2 : 0;
  } finally {
    await platform.close();
  }
}

runCli(main);
