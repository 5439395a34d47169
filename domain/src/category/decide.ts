import type { Decider } from '../shared/decider';
import { type FieldError, NotFoundError, ValidationError } from '../shared/errors';
import { assertNever, type Command } from '../shared/messages';
import type { CategoryEvent, CategoryNode } from './events';
import { CATEGORY_KINDS, CATEGORY_SEEDS, type CategoryKind, SYSTEM_CATEGORY_KEYS } from './seed';
import { type CategoryState, evolveCategories, initialCategoryState } from './state';

export const CATEGORY_NAME_MAX_LENGTH = 60;

export const CATEGORY_MESSAGES = {
  notFound: 'Category not found',
  nameRequired: 'Name is required',
  nameTooLong: `Name must not exceed ${CATEGORY_NAME_MAX_LENGTH} characters`,
  nameTaken: 'A category with this name already exists here',
  kindInvalid: 'Kind must be income or expense',
  kindRequired: 'Kind is required: income or expense',
  parentNotFound: 'Parent category not found',
  parentKind: 'A subcategory must be of the same kind as its parent',
  cycle: 'A category cannot be moved under itself or one of its own subcategories',
  thirdLevel: 'Categories have two levels: a subcategory cannot hold subcategories',
  hasChildren: 'Move or delete its subcategories first',
  targetNotFound: 'Category not found',
  targetSame: 'Choose another category',
  targetKind: 'Choose a category of the same kind',
  system: 'This category is kept by the system',
} as const;

/**
 * Every command carries `seedIds` (one fresh id per `CATEGORY_SEEDS` entry): a user whose tree
 * was never seeded (every user before issue 31, and a new one) gets the seeded set in the same
 * append, before the command's own events. Ids and `now` come in: the domain has no clock.
 */
type Base = { userId: string; seedIds: readonly string[]; now: string };

export type SeedCategories = Command<'SeedCategories', Base>;
export type CreateCategory = Command<
  'CreateCategory',
  /** `kind` null: the parent's (required at the top level). */
  Base & { categoryId: string; name: string; kind: CategoryKind | null; parentId: string | null }
>;
/** `name` / `parentId` undefined: unchanged. */
export type UpdateCategory = Command<
  'UpdateCategory',
  Base & { categoryId: string; name?: string; parentId?: string | null }
>;
export type MergeCategory = Command<'MergeCategory', Base & { categoryId: string; intoId: string }>;
/** `moveTo` null: its transactions are left in no category. */
export type DeleteCategory = Command<'DeleteCategory', Base & { categoryId: string; moveTo: string | null }>;

export type CategoryCommand =
  | SeedCategories
  | CreateCategory
  | UpdateCategory
  | MergeCategory
  | DeleteCategory;

type Tree = ReadonlyMap<string, CategoryNode>;

/** The seeded set with the command's ids; parents before their children. */
export function seededCategories(seedIds: readonly string[]): CategoryNode[] {
  if (seedIds.length !== CATEGORY_SEEDS.length) throw new Error('One id per seeded category is needed');
  const idOf = new Map(CATEGORY_SEEDS.map((seed, i) => [seed.key, seedIds[i] as string]));
  const positions = new Map<string, number>();
  return CATEGORY_SEEDS.map((seed, i) => {
    const parentId = seed.parent ? (idOf.get(seed.parent) ?? null) : null;
    const siblings = `${seed.kind}/${parentId ?? ''}`;
    const position = positions.get(siblings) ?? 0;
    positions.set(siblings, position + 1);
    return {
      categoryId: seedIds[i] as string,
      name: seed.name,
      kind: seed.kind,
      parentId,
      systemKey: seed.key,
      position,
    };
  });
}

const fail = (field: string, message: string): never => {
  throw new ValidationError([{ field, message }]);
};

function nameErrors(name: unknown): FieldError[] {
  if (typeof name !== 'string' || name.trim() === '')
    return [{ field: 'name', message: CATEGORY_MESSAGES.nameRequired }];
  if ([...name.trim()].length > CATEGORY_NAME_MAX_LENGTH)
    return [{ field: 'name', message: CATEGORY_MESSAGES.nameTooLong }];
  return [];
}

const childrenOf = (tree: Tree, id: string | null, kind?: CategoryKind) =>
  [...tree.values()].filter((c) => c.parentId === id && (kind === undefined || c.kind === kind));

function nextPosition(tree: Tree, parentId: string | null, kind: CategoryKind): number {
  return childrenOf(tree, parentId, kind).reduce((max, c) => Math.max(max, c.position + 1), 0);
}

/** A sibling (same parent and kind, another id) already has the name, letter case aside. */
function nameTaken(tree: Tree, name: string, parentId: string | null, kind: CategoryKind, self?: string) {
  const folded = name.trim().toLocaleLowerCase('en-IN');
  return childrenOf(tree, parentId, kind).some(
    (c) => c.categoryId !== self && c.name.toLocaleLowerCase('en-IN') === folded,
  );
}

/** Where a category (`self`, when it exists) may hang: refuses a cycle, a third level, another kind. */
function checkParent(tree: Tree, parentId: string | null, kind: CategoryKind, self?: CategoryNode) {
  if (parentId === null) return;
  const parent = tree.get(parentId);
  if (!parent) return fail('parent_id', CATEGORY_MESSAGES.parentNotFound);
  if (self) {
    for (
      let at: CategoryNode | undefined = parent;
      at;
      at = at.parentId ? tree.get(at.parentId) : undefined
    ) {
      if (at.categoryId === self.categoryId) return fail('parent_id', CATEGORY_MESSAGES.cycle);
    }
  }
  if (parent.kind !== kind) return fail('parent_id', CATEGORY_MESSAGES.parentKind);
  if (parent.parentId !== null) return fail('parent_id', CATEGORY_MESSAGES.thirdLevel);
  if (self && childrenOf(tree, self.categoryId).length > 0)
    return fail('parent_id', CATEGORY_MESSAGES.thirdLevel);
}

function existing(tree: Tree, id: string): CategoryNode {
  const node = tree.get(id);
  if (!node) throw new NotFoundError(CATEGORY_MESSAGES.notFound);
  return node;
}

/** The category another one's transactions move to: live, another one, of the same kind. */
function target(tree: Tree, field: string, id: string, from: CategoryNode): CategoryNode {
  const node = tree.get(id);
  if (!node) return fail(field, CATEGORY_MESSAGES.targetNotFound);
  if (node.categoryId === from.categoryId) return fail(field, CATEGORY_MESSAGES.targetSame);
  if (node.kind !== from.kind) return fail(field, CATEGORY_MESSAGES.targetKind);
  return node;
}

/** A category that leaves the tree: not the system's, and without subcategories. */
function removable(tree: Tree, node: CategoryNode) {
  if (node.systemKey !== null && SYSTEM_CATEGORY_KEYS.has(node.systemKey))
    fail('id', CATEGORY_MESSAGES.system);
  if (childrenOf(tree, node.categoryId).length > 0) fail('id', CATEGORY_MESSAGES.hasChildren);
}

function decideOnTree(command: CategoryCommand, tree: Tree): CategoryEvent[] {
  const { type, data } = command;
  const { userId, now } = data;
  switch (type) {
    case 'SeedCategories':
      return [];
    case 'CreateCategory': {
      const errors = nameErrors(data.name);
      const kind = data.kind ?? (data.parentId ? tree.get(data.parentId)?.kind : undefined);
      if (kind === undefined && data.parentId === null)
        errors.push({ field: 'kind', message: CATEGORY_MESSAGES.kindRequired });
      else if (kind !== undefined && !CATEGORY_KINDS.includes(kind))
        errors.push({ field: 'kind', message: CATEGORY_MESSAGES.kindInvalid });
      if (errors.length > 0) throw new ValidationError(errors);
      if (kind === undefined) return fail('parent_id', CATEGORY_MESSAGES.parentNotFound);
      checkParent(tree, data.parentId, kind);
      const name = data.name.trim();
      if (nameTaken(tree, name, data.parentId, kind)) fail('name', CATEGORY_MESSAGES.nameTaken);
      const node: CategoryNode = {
        categoryId: data.categoryId,
        name,
        kind,
        parentId: data.parentId,
        systemKey: null,
        position: nextPosition(tree, data.parentId, kind),
      };
      return [{ type: 'CategoryCreated', data: { userId, ...node, createdAt: now } }];
    }
    case 'UpdateCategory': {
      const node = existing(tree, data.categoryId);
      const name = data.name === undefined ? node.name : data.name;
      const errors = nameErrors(name);
      if (errors.length > 0) throw new ValidationError(errors);
      const parentId = data.parentId === undefined ? node.parentId : data.parentId;
      const renamed = name.trim() !== node.name;
      const moved = parentId !== node.parentId;
      if (!renamed && !moved) return [];
      if (node.systemKey !== null && SYSTEM_CATEGORY_KEYS.has(node.systemKey))
        fail('id', CATEGORY_MESSAGES.system);
      if (moved) checkParent(tree, parentId, node.kind, node);
      if (nameTaken(tree, name, parentId, node.kind, node.categoryId))
        fail('name', CATEGORY_MESSAGES.nameTaken);
      const events: CategoryEvent[] = [];
      if (renamed)
        events.push({
          type: 'CategoryRenamed',
          data: {
            userId,
            categoryId: node.categoryId,
            name: name.trim(),
            previousName: node.name,
            renamedAt: now,
          },
        });
      if (moved)
        events.push({
          type: 'CategoryMoved',
          data: {
            userId,
            categoryId: node.categoryId,
            parentId,
            position: nextPosition(tree, parentId, node.kind),
            previousParentId: node.parentId,
            previousPosition: node.position,
            movedAt: now,
          },
        });
      return events;
    }
    case 'MergeCategory': {
      const node = existing(tree, data.categoryId);
      const into = target(tree, 'into_id', data.intoId, node);
      removable(tree, node);
      return [
        {
          type: 'CategoryMerged',
          data: {
            userId,
            categoryId: node.categoryId,
            name: node.name,
            intoId: into.categoryId,
            intoName: into.name,
            mergedAt: now,
          },
        },
      ];
    }
    case 'DeleteCategory': {
      const node = existing(tree, data.categoryId);
      const moveTo = data.moveTo === null ? null : target(tree, 'move_to', data.moveTo, node);
      removable(tree, node);
      return [
        {
          type: 'CategoryDeleted',
          data: {
            userId,
            categoryId: node.categoryId,
            name: node.name,
            moveTo: moveTo?.categoryId ?? null,
            moveToName: moveTo?.name ?? null,
            deletedAt: now,
          },
        },
      ];
    }
    default:
      return assertNever(type);
  }
}

/** The command's events, after the seeded set when the user's tree was never seeded. */
export function decideCategories(command: CategoryCommand, state: CategoryState): CategoryEvent[] {
  const { userId, seedIds, now } = command.data;
  if (state.status === 'seeded' && state.userId !== userId)
    throw new NotFoundError(CATEGORY_MESSAGES.notFound);
  const seed: CategoryEvent[] =
    state.status === 'none'
      ? [{ type: 'CategoriesSeeded', data: { userId, categories: seededCategories(seedIds), seededAt: now } }]
      : [];
  const current = seed.reduce(evolveCategories, state);
  const tree = current.status === 'seeded' ? current.categories : new Map<string, CategoryNode>();
  return [...seed, ...decideOnTree(command, tree)];
}

export const categoryDecider: Decider<CategoryState, CategoryCommand, CategoryEvent> = {
  initialState: initialCategoryState,
  evolve: evolveCategories,
  decide: decideCategories,
};
