import { type CatalogEvent, catalogEventTypes } from '@kosh/domain';
import { defineProjection } from '../runner/define';

export type BankRow = Readonly<{
  id: number;
  userId: string | null;
  bankName: string;
  branchName: string | null;
  createdAt: string;
}>;
export type LoanTypeRow = Readonly<{
  id: number;
  userId: string | null;
  typeName: string;
  createdAt: string;
}>;

/** Catalog entries never change once added, so the fold is "first event wins". */
export function evolveBankRow(row: BankRow | null, event: CatalogEvent): BankRow | null {
  if (row || event.type !== 'BankAdded') return row;
  const d = event.data;
  return {
    id: d.bankId,
    userId: d.ownerUserId,
    bankName: d.bankName,
    branchName: d.branchName,
    createdAt: d.addedAt,
  };
}

export function evolveLoanTypeRow(row: LoanTypeRow | null, event: CatalogEvent): LoanTypeRow | null {
  if (row || event.type !== 'LoanTypeAdded') return row;
  const d = event.data;
  return { id: d.loanTypeId, userId: d.ownerUserId, typeName: d.typeName, createdAt: d.addedAt };
}

/** Inserts each new entry once (a redelivered event hits ON CONFLICT DO NOTHING). */
export const catalogProjection = defineProjection({
  name: 'catalog',
  handles: catalogEventTypes,
  tables: ['catalog_banks', 'catalog_loan_types'],
  migrations: new URL('./migrations', import.meta.url),
  async apply(tx, events) {
    const banks = events.map((e) => evolveBankRow(null, e)).filter((r): r is BankRow => r !== null);
    const loanTypes = events
      .map((e) => evolveLoanTypeRow(null, e))
      .filter((r): r is LoanTypeRow => r !== null);
    if (banks.length > 0) {
      await tx.query(
        `INSERT INTO catalog_banks (id, user_id, bank_name, branch_name, created_at)
         SELECT r."id", r."userId", r."bankName", r."branchName", r."createdAt"
           FROM jsonb_to_recordset($1::jsonb) AS r("id" integer, "userId" text, "bankName" text,
                "branchName" text, "createdAt" timestamptz)
         ON CONFLICT (id) DO NOTHING`,
        [JSON.stringify(banks)],
      );
    }
    if (loanTypes.length > 0) {
      await tx.query(
        `INSERT INTO catalog_loan_types (id, user_id, type_name, created_at)
         SELECT r."id", r."userId", r."typeName", r."createdAt"
           FROM jsonb_to_recordset($1::jsonb) AS r("id" integer, "userId" text, "typeName" text,
                "createdAt" timestamptz)
         ON CONFLICT (id) DO NOTHING`,
        [JSON.stringify(loanTypes)],
      );
    }
  },
});
