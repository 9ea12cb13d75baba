ALTER TABLE `simulations` ADD `solo_user_id` integer;--> statement-breakpoint
CREATE INDEX `simulations_solo_user_idx` ON `simulations` (`solo_user_id`);