import { randomUUID } from 'node:crypto';
import { CATEGORY_SEEDS, type CategoryNode, categoryDecider, categoryStreamId, isUuid } from '@kosh/domain';
import { loadAggregate } from '../../commands/handle';
import type { Platform } from '../../platform';

/** One fresh id per seeded category: every category command carries them (the seed, when first). */
export const freshSeedIds = (): string[] => CATEGORY_SEEDS.map(() => randomUUID());

/**
 * The user's live category of this id, or null. Read from the user's category stream, not the
 * read model: a category just added can take a transaction before its list caught up. For other
 * records that name a category (budgets, recurring entries): a null here is their 422.
 */
export async function ownCategory(
  platform: Platform,
  userId: string,
  categoryId: string,
): Promise<CategoryNode | null> {
  if (!isUuid(categoryId)) return null;
  const { state } = await loadAggregate(platform, categoryStreamId(userId), categoryDecider);
  if (state.status !== 'seeded' || state.userId !== userId) return null;
  return state.categories.get(categoryId.toLowerCase()) ?? null;
}

/** True when `categoryId` is one of the user's live categories. */
export async function ownsCategory(platform: Platform, userId: string, categoryId: string): Promise<boolean> {
  return (await ownCategory(platform, userId, categoryId)) !== null;
}
