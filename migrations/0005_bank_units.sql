CREATE TABLE `units` (
	`subject_id` integer NOT NULL,
	`number` integer NOT NULL,
	`title` text NOT NULL,
	`credits` real NOT NULL,
	PRIMARY KEY(`subject_id`, `number`),
	FOREIGN KEY (`subject_id`) REFERENCES `subjects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `questions` ADD `unit` integer;--> statement-breakpoint
ALTER TABLE `questions` ADD `legacy` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `questions` ADD `measure` text;--> statement-breakpoint
ALTER TABLE `questions` ADD `tolerance` real;--> statement-breakpoint
CREATE INDEX `questions_subject_unit_idx` ON `questions` (`subject_id`,`unit`,`type`,`active`);--> statement-breakpoint
ALTER TABLE `topics` ADD `unit` integer;--> statement-breakpoint
ALTER TABLE `topics` ADD `legacy` integer DEFAULT false NOT NULL;