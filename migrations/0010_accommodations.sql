CREATE TABLE `simulation_accommodations` (
	`simulation_id` text NOT NULL,
	`user_id` integer NOT NULL,
	`extra_time_pct` integer NOT NULL,
	PRIMARY KEY(`simulation_id`, `user_id`),
	FOREIGN KEY (`simulation_id`) REFERENCES `simulations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `class_members` ADD `extra_time_pct` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `extra_time_pct` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `extra_time_practice` integer DEFAULT false NOT NULL;