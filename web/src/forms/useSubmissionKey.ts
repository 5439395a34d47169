import { useRef } from 'react';
import { newIdempotencyKey } from '../api/idempotency';

/**
 * One Idempotency-Key per form submission. Submitting the same values again after a failure (the
 * answer lost to a network error, say) reuses the key, so the server answers its first write
 * instead of recording a second; other values, or any submission after a success, get a new one.
 */
export function useSubmissionKey() {
  const current = useRef<{ values: string; key: string } | null>(null);
  return {
    keyFor(values: unknown): string {
      const json = JSON.stringify(values);
      if (current.current?.values !== json) current.current = { values: json, key: newIdempotencyKey() };
      return current.current.key;
    },
    succeeded() {
      current.current = null;
    },
  };
}
