/**
 * `npm run verify-export -- file.jsonl [--public-key <base64 | file | http(s) URL of /api/export/public-key>]
 *   [--earlier earlier-export.jsonl]`
 * Prints OK (with the count, head and signing key) or the first line that was altered, removed
 * or reordered; with --earlier, also whether this export keeps the history the earlier one
 * signed (the event store's chain was not rewritten since). Exits 0 when OK, 1 when not, 2 on
 * bad usage.
 */
import { readFile } from 'node:fs/promises';
import { compareExports, verifyExport } from '@kosh/domain';
import { nodeExportCrypto, trustedKey } from './verify-export';

async function main(args: string[]): Promise<number> {
  const option = (name: string) => {
    const at = args.indexOf(name);
    return at >= 0 ? { at: at + 1, value: args[at + 1] } : { at: -1, value: undefined };
  };
  const { at: keyAt, value: key } = option('--public-key');
  const { at: earlierAt, value: earlierFile } = option('--earlier');
  const file = args.find((a, i) => !a.startsWith('--') && i !== keyAt && i !== earlierAt);
  if (!file) {
    process.stderr.write(
      'usage: npm run verify-export -- file.jsonl [--public-key <key | file | url>] [--earlier earlier.jsonl]\n',
    );
    return 2;
  }
  const text = await readFile(file, 'utf8');
  const trusted = await trustedKey(key);
  const result = await verifyExport(text, nodeExportCrypto, trusted);
  if (result.ok && earlierFile) {
    const earlier = await verifyExport(await readFile(earlierFile, 'utf8'), nodeExportCrypto, trusted);
    if (!earlier.ok) {
      process.stdout.write(`FAILED: the earlier export fails at line ${earlier.line}: ${earlier.reason}\n`);
      return 1;
    }
    const problem = compareExports(earlier, text, result);
    if (problem) {
      process.stdout.write(`FAILED: ${problem}\n`);
      return 1;
    }
  }
  if (result.ok) {
    const whose = key ? ' (the trusted key)' : ' (compare it with /api/export/public-key)';
    const chain = result.chainHead ? `, store chain at link ${result.chainHead.seq}` : '';
    const kept = earlierFile ? ', keeps the earlier export’s history' : '';
    process.stdout.write(
      `OK: ${result.count} events, head ${result.head}${chain}${kept}, exported ${result.exportedAt}, signed by key ${result.publicKey}${whose}\n`,
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
