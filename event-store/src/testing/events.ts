import { randomUUID } from 'node:crypto';
import type { EventMetadata } from '@kosh/domain';
import type { NewEvent } from '../port';

/** A new event with a fresh id and metadata of no user, recorded now (`metadata` overrides). */
export function newTestEvent(type: string, data: unknown, metadata: Partial<EventMetadata> = {}): NewEvent {
  return {
    id: randomUUID(),
    type,
    data,
    metadata: {
      userId: null,
      correlationId: randomUUID(),
      causationId: null,
      recordedAt: new Date().toISOString(),
      schemaVersion: 1,
      ...metadata,
    },
  };
}
