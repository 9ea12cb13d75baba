CREATE TABLE `simulation_rooms` (
	`simulation_id` text NOT NULL,
	`shard` integer NOT NULL,
	`attempts` integer NOT NULL,
	`graded_at` integer NOT NULL,
	PRIMARY KEY(`simulation_id`, `shard`),
	FOREIGN KEY (`simulation_id`) REFERENCES `simulations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `simulation_allowed_users` ADD `shard` integer;--> statement-breakpoint
ALTER TABLE `simulations` ADD `shards` integer DEFAULT 1 NOT NULL;