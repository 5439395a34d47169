/**
 * Events of a user's category tree (`categories-{userId}`, one stream per user: a cycle, a third
 * level or a name taken among siblings is decided against the whole tree). A merge or a delete
 * moves the category's transactions to another (or out of any) in that one event: the
 * transactions read model follows it.
 */
import type { DomainEvent } from '../shared/messages';
import type { CategoryKind } from './seed';

/** One category as the tree holds it. `parentId` null: top level. */
export type CategoryNode = Readonly<{
  categoryId: string;
  name: string;
  kind: CategoryKind;
  parentId: string | null;
  /** The seed's key (`CATEGORY_SEEDS`) for a seeded category, else null. */
  systemKey: string | null;
  /** Order among its siblings, from 0. */
  position: number;
}>;

type Owner = { userId: string };

/** The seeded set, once per user (on first use), in one event. */
export type CategoriesSeeded = DomainEvent<
  'CategoriesSeeded',
  Owner & { categories: CategoryNode[]; seededAt: string }
>;
export type CategoryCreated = DomainEvent<'CategoryCreated', Owner & CategoryNode & { createdAt: string }>;
export type CategoryRenamed = DomainEvent<
  'CategoryRenamed',
  Owner & { categoryId: string; name: string; previousName: string; renamedAt: string }
>;
export type CategoryMoved = DomainEvent<
  'CategoryMoved',
  Owner & {
    categoryId: string;
    parentId: string | null;
    position: number;
    previousParentId: string | null;
    previousPosition: number;
    movedAt: string;
  }
>;
/** The category is gone; its transactions are now `intoId`'s. */
export type CategoryMerged = DomainEvent<
  'CategoryMerged',
  Owner & { categoryId: string; name: string; intoId: string; intoName: string; mergedAt: string }
>;
/** The category is gone; its transactions are now `moveTo`'s (null: in no category). */
export type CategoryDeleted = DomainEvent<
  'CategoryDeleted',
  Owner & {
    categoryId: string;
    name: string;
    moveTo: string | null;
    moveToName: string | null;
    deletedAt: string;
  }
>;

export type CategoryEvent =
  | CategoriesSeeded
  | CategoryCreated
  | CategoryRenamed
  | CategoryMoved
  | CategoryMerged
  | CategoryDeleted;

export const CATEGORY_EVENT_TYPES = [
  'CategoriesSeeded',
  'CategoryCreated',
  'CategoryRenamed',
  'CategoryMoved',
  'CategoryMerged',
  'CategoryDeleted',
] as const satisfies readonly CategoryEvent['type'][];

/** The events that move transactions from one category to another (or none). */
export const CATEGORY_MOVE_EVENT_TYPES = [
  'CategoryMerged',
  'CategoryDeleted',
] as const satisfies readonly CategoryEvent['type'][];

export const categoryStreamId = (userId: string): string => `categories-${userId}`;
