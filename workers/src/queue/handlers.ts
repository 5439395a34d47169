import type { JobHandler } from './port';

/** Processors by exact job name, or by prefix when registered as `prefix:*`. */
export function createHandlerRegistry() {
  const exact = new Map<string, JobHandler>();
  const prefixes: [string, JobHandler][] = [];
  return {
    add(name: string, handler: JobHandler): void {
      if (name.endsWith(':*')) prefixes.push([name.slice(0, -1), handler]);
      else exact.set(name, handler);
    },
    find(name: string): JobHandler | undefined {
      return exact.get(name) ?? prefixes.find(([prefix]) => name.startsWith(prefix))?.[1];
    },
  };
}

/** pino-compatible subset. */
export type QueueLogger = {
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
};

export const silentQueueLogger: QueueLogger = { warn() {}, error() {} };
