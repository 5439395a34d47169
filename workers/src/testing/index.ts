/** @kosh/workers test support: what the other packages import from it. */
export { freePort, type PrivateRedis, startPrivateRedis } from '../queue/testing/redis-server';
