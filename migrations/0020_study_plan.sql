CREATE TABLE `sitting_grades` (
	`user_id` integer NOT NULL,
	`edition_id` integer NOT NULL,
	`sitting_date` text NOT NULL,
	`subject_id` integer NOT NULL,
	`grade` real,
	`entered_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `edition_id`, `sitting_date`, `subject_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`edition_id`) REFERENCES `exam_editions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sitting_grades_sitting_idx` ON `sitting_grades` (`edition_id`,`sitting_date`,`subject_id`);--> statement-breakpoint
CREATE TABLE `study_plans` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`edition_id` integer NOT NULL,
	`sitting_date` text NOT NULL,
	`minutes_per_day` integer NOT NULL,
	`weekday_minutes` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`edition_id`) REFERENCES `exam_editions`(`id`) ON UPDATE no action ON DELETE cascade
);
