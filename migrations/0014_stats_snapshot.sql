CREATE TABLE `stats_snapshot` (
	`id` integer PRIMARY KEY NOT NULL,
	`version` integer NOT NULL,
	`taxonomy` integer NOT NULL,
	`daily_from` text NOT NULL,
	`body` text NOT NULL,
	`built_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `stats_version` (
	`id` integer PRIMARY KEY NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`taxonomy` integer DEFAULT 1 NOT NULL
);
