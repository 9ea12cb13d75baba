CREATE TABLE `assignment_questions` (
	`assignment_id` integer NOT NULL,
	`position` integer NOT NULL,
	`question_id` integer NOT NULL,
	PRIMARY KEY(`assignment_id`, `position`),
	FOREIGN KEY (`assignment_id`) REFERENCES `assignments`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`question_id`) REFERENCES `questions`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `assignment_quizzes` (
	`assignment_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`quiz_id` integer NOT NULL,
	PRIMARY KEY(`assignment_id`, `user_id`),
	FOREIGN KEY (`assignment_id`) REFERENCES `assignments`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`quiz_id`) REFERENCES `quizzes`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `assignment_quizzes_quiz_unique` ON `assignment_quizzes` (`quiz_id`);--> statement-breakpoint
CREATE TABLE `assignments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`class_id` integer NOT NULL,
	`created_by` integer NOT NULL,
	`title` text NOT NULL,
	`subject_id` integer NOT NULL,
	`question_count` integer NOT NULL,
	`time_limit_sec` integer,
	`mode` text DEFAULT 'comune' NOT NULL,
	`units` text,
	`edition_id` integer,
	`opens_at` integer NOT NULL,
	`due_at` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`class_id`) REFERENCES `classes`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`subject_id`) REFERENCES `subjects`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `assignments_class_due_idx` ON `assignments` (`class_id`,`due_at`);