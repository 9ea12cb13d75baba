CREATE TABLE `forecast_days` (
	`user_id` integer NOT NULL,
	`day` text NOT NULL,
	`subject_id` integer NOT NULL,
	`pass_probability` real NOT NULL,
	`predicted` real,
	PRIMARY KEY(`user_id`, `subject_id`, `day`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
