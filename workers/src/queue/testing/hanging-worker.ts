/**
 * A worker process that takes one `project:stuck` job and never finishes it, so a test can
 * SIGKILL it while the job is active. Usage: tsx hanging-worker.ts <redis url> <prefix>
 */
import { createBullMqQueue } from '../bullmq';

const [url, prefix] = process.argv.slice(2);
if (!url || !prefix) throw new Error('usage: hanging-worker.ts <redis url> <prefix>');
const queue = createBullMqQueue({ url, prefix });
queue.process('project:stuck', async () => {
  process.stdout.write('taken\n');
  await new Promise(() => {});
});
process.stdout.write('ready\n');
