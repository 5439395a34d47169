import { describe } from 'vitest';
import { oracleShare } from './oracle-suite';

describe('loan arithmetic against an independent exact oracle, share 4 of 4', () => {
  oracleShare(7500, 2500);
});
