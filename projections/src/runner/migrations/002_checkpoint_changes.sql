-- What the answer cache keys on (command-api/src/checkpoint-tags.ts): how many times a read
-- model's rows changed, and the position of the last change. `position` moves with every event
-- of the log, handled or not, so a tag made of it renewed every cached answer on any user's
-- write to anything; `changes` moves only with a batch that applied an event the projection
-- handles, or a rebuild's swap.
ALTER TABLE projection_checkpoints
  ADD COLUMN changes bigint NOT NULL DEFAULT 0,
  ADD COLUMN changed_position text NOT NULL DEFAULT '' COLLATE "C";
UPDATE projection_checkpoints SET changed_position = position;
