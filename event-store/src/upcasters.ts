import type { RecordedEvent } from '@kosh/domain';

/**
 * Turns an event recorded as (`type`, `schemaVersion`) into its next shape. The result must
 * have a higher `metadata.schemaVersion` (and may change `type`); upcasters chain until no
 * upcaster matches, so a v1 event passes v1->v2 then v2->v3.
 */
export type Upcaster = Readonly<{
  type: string;
  schemaVersion: number;
  upcast(event: RecordedEvent): RecordedEvent;
}>;

export type UpcasterRegistry = Readonly<{
  /** Applies every matching upcaster in turn; returns the event unchanged when none matches. */
  upcast(event: RecordedEvent): RecordedEvent;
}>;

const key = (type: string, schemaVersion: number) => `${type}\u0000${schemaVersion}`;

export function createUpcasterRegistry(upcasters: readonly Upcaster[] = []): UpcasterRegistry {
  const byKey = new Map<string, Upcaster>();
  for (const u of upcasters) {
    const k = key(u.type, u.schemaVersion);
    if (byKey.has(k)) throw new Error(`Two upcasters for ${u.type} schema version ${u.schemaVersion}`);
    byKey.set(k, u);
  }
  return {
    upcast(event) {
      if (byKey.size === 0) return event;
      let current = event;
      for (;;) {
        const u = byKey.get(key(current.type, current.metadata.schemaVersion));
        if (!u) return current;
        const next = u.upcast(current);
        if (next.metadata.schemaVersion <= current.metadata.schemaVersion) {
          throw new Error(
            `Upcaster for ${u.type} v${u.schemaVersion} must raise metadata.schemaVersion (got ${next.metadata.schemaVersion})`,
          );
        }
        current = next;
      }
    },
  };
}

export const noUpcasters: UpcasterRegistry = createUpcasterRegistry([]);
