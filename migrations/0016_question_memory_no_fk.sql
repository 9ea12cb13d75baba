-- Issue 31: question_memory without its foreign keys. Each memory row written by a grading checked both parents
-- (users, questions): three rows read per row, 93 per student on a national day. No table references question_memory,
-- so the rebuild needs no PRAGMA. WITHOUT ROWID (written here by hand: drizzle cannot say it): the rows live in the
-- primary key's b-tree, so a memory row is two writes (the table and the due index), not three. The cascades become
-- the two triggers at the end: deleting a user (account deletion, an admin's deletion, the reset) or a question
-- deletes their memories, by any path, present or future.
CREATE TABLE `__new_question_memory` (
	`user_id` integer NOT NULL,
	`question_id` integer NOT NULL,
	`due` integer NOT NULL,
	`stability` real NOT NULL,
	`difficulty` real NOT NULL,
	`scheduled_days` integer DEFAULT 0 NOT NULL,
	`learning_steps` integer DEFAULT 0 NOT NULL,
	`reps` integer DEFAULT 0 NOT NULL,
	`lapses` integer DEFAULT 0 NOT NULL,
	`state` integer DEFAULT 0 NOT NULL,
	`last_review` integer NOT NULL,
	`last_correct` integer,
	PRIMARY KEY(`user_id`, `question_id`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__new_question_memory`("user_id", "question_id", "due", "stability", "difficulty", "scheduled_days", "learning_steps", "reps", "lapses", "state", "last_review", "last_correct") SELECT "user_id", "question_id", "due", "stability", "difficulty", "scheduled_days", "learning_steps", "reps", "lapses", "state", "last_review", "last_correct" FROM `question_memory`;--> statement-breakpoint
DROP TABLE `question_memory`;--> statement-breakpoint
ALTER TABLE `__new_question_memory` RENAME TO `question_memory`;--> statement-breakpoint
CREATE INDEX `question_memory_user_due_idx` ON `question_memory` (`user_id`,`due`);--> statement-breakpoint
CREATE TRIGGER question_memory_user_delete AFTER DELETE ON users BEGIN DELETE FROM question_memory WHERE user_id = OLD.id; END;
--> statement-breakpoint
CREATE TRIGGER question_memory_question_delete AFTER DELETE ON questions BEGIN DELETE FROM question_memory WHERE question_id = OLD.id; END;
