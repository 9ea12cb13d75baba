ALTER TABLE `attempts` ADD `offline` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `quizzes` ADD `offline_hash` text;