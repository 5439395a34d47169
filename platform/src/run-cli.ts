import { ConfigError } from './config';

/**
 * Runs an operator command's `main` and exits with its code; a configuration error is one line,
 * anything else its stack (exit 1).
 */
export function runCli(main: () => Promise<number>): void {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(
        error instanceof ConfigError
          ? `${error.message}\n`
          : `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
      process.exit(1);
    },
  );
}
