/**
 * Which of our source files run for one `POST /api/loans`, from the request to the ledger row:
 * V8 precise coverage of this process around the second of two identical creates (the first
 * warms lazy imports), in embedded mode so the projections run in the same process.
 */
import { Session } from 'node:inspector/promises';

import { createTestApp, loanInput } from '@kosh/command-api/testing';

const homeLoan = loanInput();
const repo = new URL('../..', import.meta.url).pathname;
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
const t = await createTestApp({ mode: 'embedded' });
// createTestApp seeds the catalog and waits for it.
const headers = await t.signedInHeader('trace-user');
const create = async () => {
  const res = await t.app.inject({ method: 'POST', url: '/api/loans', headers, payload: homeLoan });
  if (res.statusCode !== 201) throw new Error(`${res.statusCode} ${res.body}`);
  await new Promise((r) => setTimeout(r, 1500)); // every projection settles (embedded queue)
};
await create();
await session.post('Profiler.takePreciseCoverage');
await create();
const { result } = await session.post('Profiler.takePreciseCoverage');
const files = result
  .filter(
    (s) =>
      s.url.startsWith(`file://${repo}`) && !s.url.includes('node_modules') && !s.url.includes('/bench/'),
  )
  .filter((s) => s.functions.some((f) => (f.ranges[0]?.count ?? 0) > 0 && f.functionName !== ''))
  .map((s) => s.url.slice(`file://${repo}`.length))
  .sort();
const byPackage = new Map<string, number>();
for (const f of files) {
  const pkg = f.split('/')[0] ?? f;
  byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + 1);
}
console.log(files.join('\n'));
console.log(`${files.length} files in ${byPackage.size} packages:`, Object.fromEntries(byPackage));
await t.close();
process.exit(0);
