/**
 * `npm run verify-export -- file.jsonl [--public-key <base64 | file | http(s) URL of /api/export/public-key>]
 *   [--earlier earlier-export.jsonl]`
 * Prints OK (with the count, head and signing key) or the first line that was altered, removed
 * or reordered, or whose content no longer hashes to its link in the store's chain; with
 * --earlier, also the first line whose event or link differs from the earlier export's. A file
 * that is not an export is said to be one. Exits 0 when OK, 1 when not, 2 on bad usage.
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
  if (!result.ok && result.notAnExport) {
    process.stdout.write(`FAILED: ${file} is ${result.reason}\n`);
    return 1;
  }
  if (result.ok && earlierFile) {
    const earlierText = await readFile(earlierFile, 'utf8');
    const earlier = await verifyExport(earlierText, nodeExportCrypto, trusted);
    if (!earlier.ok) {
      process.stdout.write(
        earlier.notAnExport
          ? `FAILED: the earlier file ${earlierFile} is ${earlier.reason}\n`
          : `FAILED: the earlier export fails at line ${earlier.line}: ${earlier.reason}\n`,
      );
      return 1;
    }
    const problem = compareExports(earlier, earlierText, text, result);
    if (problem) {
      process.stdout.write(`FAILED: ${problem}\n`);
      return 1;
    }
  }
  if (result.ok) {
    const whose = key ? ' (the trusted key)' : ' (compare it with /api/export/public-key)';
    const chain = result.chainHead ? `, store chain at link ${result.chainHead.seq}` : '';
    const kept = earlierFile ? ', keeps the earlier export’s history line by line' : '';
    const withheld = result.chainHead ? result.count - result.recomputed : 0;
    const recomputed = result.chainHead
      ? `, ${result.recomputed} chain links recomputed from their lines${withheld ? ` (${withheld} account events hold withheld secrets)` : ''}`
      : '';
    process.stdout.write(
      `OK: ${result.count} events, head ${result.head}${chain}${recomputed}${kept}, exported ${result.exportedAt}, signed by key ${result.publicKey}${whose}\n`,
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
