// Counts the statements a process sends, by text (first 110 characters), and the HTTP requests it
// serves, into
// /tmp/kosh-statements-<pid>.json every 2 s and at exit. For `npm run bench:writes`:
// BENCH_KOSH_NODE_OPTIONS="--import $PWD/bench/src/support/count-statements.mjs"
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';

const pg = createRequire(import.meta.url)('pg');
const counts = new Map();
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (config, values, callback) {
  const text = String(typeof config === 'string' ? config : config?.text);
  const key = text.replace(/\s+/g, ' ').slice(0, 110);
  counts.set(key, (counts.get(key) ?? 0) + 1);
  return query.call(this, config, values, callback);
};
// The HTTP requests served beside them, so a figure per request can be worked out.
let requests = 0;
const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function (event, ...args) {
  if (event === 'request') requests++;
  return emit.call(this, event, ...args);
};
const dump = () =>
  writeFileSync(
    `/tmp/kosh-statements-${process.pid}.json`,
    JSON.stringify([['(HTTP requests)', requests], ...[...counts].sort((a, b) => b[1] - a[1])], null, 1),
  );
setInterval(dump, 2000).unref();
process.on('exit', dump);
