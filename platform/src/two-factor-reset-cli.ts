/**
 * `npm run reset-two-factor -- <email> --reason "<why>" [--operator <name>]`: turns two-factor
 * sign-in off for someone who lost both the authenticator and the recovery codes, once you have
 * checked who they are out of band. Every session of the account ends, the owner is mailed, and
 * their History shows "Two-factor sign-in turned off by support (<why>)"; the event keeps the
 * operator's name (default: the system user running the command).
 * Connects like the app (DATABASE_URL, ...; embedded PGlite in DATA_DIR otherwise: stop an embedded
 * server first, PGlite allows one process per directory).
 */
import { userInfo } from 'node:os';
import { parseArgs } from 'node:util';
import { resetTwoFactor } from '@kosh/command-api';
import { ConflictError, NotFoundError, ValidationError } from '@kosh/domain';
import { loadConfig } from './config';
import { createLogger } from './logger';
import { runCli } from './run-cli';
import { createRuntime } from './runtime';

const USAGE = 'Usage: npm run reset-two-factor -- <email> --reason "<why>" [--operator <name>]\n';

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { reason: { type: 'string' }, operator: { type: 'string' }, help: { type: 'boolean' } },
  });
  const [email] = positionals;
  if (values.help || !email || !values.reason?.trim()) {
    process.stderr.write(USAGE);
    return values.help ? 0 : 1;
  }
  const config = loadConfig();
  const platform = await createRuntime(config, {
    role: 'api',
    logger: createLogger({ ...config, LOG_LEVEL: 'warn' }, 2),
  });
  try {
    const outcome = await resetTwoFactor(platform, {
      email,
      reason: values.reason,
      operator: values.operator ?? userInfo().username,
    });
    process.stdout.write(
      `Two-factor sign-in is off for ${email} (user ${outcome.userId}); ${outcome.sessionsEnded} session(s) ended; the owner is mailed.\n`,
    );
    return 0;
  } catch (error) {
    if (error instanceof NotFoundError || error instanceof ConflictError) {
      process.stderr.write(`${error.message}\n`);
      return 1;
    }
    if (error instanceof ValidationError) {
      process.stderr.write(`${error.errors.map((e) => e.message).join('\n')}\n`);
      return 1;
    }
    throw error;
  } finally {
    await platform.close();
  }
}

runCli(main);
