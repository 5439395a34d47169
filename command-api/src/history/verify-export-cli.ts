/**
 * `npm run verify-export -- file.jsonl [--public-key <base64 | file | http(s) URL of /api/export/public-key>]`
 * Prints OK (with the count, head and signing key) or the first line that was altered, removed
 * or reordered; exits 0 when OK, 1 when not, 2 on bad usage.
 */
import { readFile } from 'node:fs/promises';
import { verifyExport } from '@kosh/domain';
import { nodeExportCrypto, trustedKey } from './verify-export';

async function main(args: string[]): Promise<number> {
  const keyAt = args.indexOf('--public-key');
  const key = keyAt >= 0 ? args[keyAt + 1] : undefined;
  const file = args.find((a, i) => !a.startsWith('--') && (keyAt < 0 || i !== keyAt + 1));
  if (!file) {
    process.stderr.write('usage: npm run verify-export -- file.jsonl [--public-key <key | file | url>]\n');
    return 2;
  }
  const result = await verifyExport(await readFile(file, 'utf8'), nodeExportCrypto, await trustedKey(key));
  if (result.ok) {
    const trusted = key ? ' (the trusted key)' : ' (compare it with /api/export/public-key)';
    process.stdout.write(
      `OK: ${result.count} events, head ${result.head}, exported ${result.exportedAt}, signed by key ${result.publicKey}${trusted}\n`,
    );
    return 0;
  }
  process.stdout.write(`FAILED at line ${result.line}: ${result.reason}\n`);
  return 1;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  },
);
