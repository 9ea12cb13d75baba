CREATE TABLE `simulation_seats` (
	`simulation_id` text NOT NULL,
	`user_id` integer NOT NULL,
	`shard` integer NOT NULL,
	PRIMARY KEY(`simulation_id`, `user_id`),
	FOREIGN KEY (`simulation_id`) REFERENCES `simulations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sim_seats_shard_idx` ON `simulation_seats` (`simulation_id`,`shard`);--> statement-breakpoint
ALTER TABLE `simulation_attempts` ADD `rank_row` integer;--> statement-breakpoint
ALTER TABLE `simulation_attempts` ADD `rank_pos` integer;--> statement-breakpoint
ALTER TABLE `simulation_attempts` ADD `rank_below` integer;--> statement-breakpoint
CREATE INDEX `sim_attempts_sim_rank_idx` ON `simulation_attempts` (`simulation_id`,`rank_row`);--> statement-breakpoint
ALTER TABLE `simulations` ADD `ranked_count` integer;