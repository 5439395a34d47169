import { readFileSync } from 'node:fs';
import { parseStatement } from '../parser';
import type { TableOptions } from '../table';

/** The bytes of a fixture statement in `../fixtures/`. */
export function fixture(name: string): Uint8Array {
  return new Uint8Array(readFileSync(new URL(`../fixtures/${name}`, import.meta.url)));
}

export function parseFixture(name: string, options: TableOptions = {}) {
  return parseStatement(fixture(name), options);
}
