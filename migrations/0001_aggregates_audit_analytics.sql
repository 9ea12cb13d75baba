CREATE TABLE `audit_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`actor_id` integer,
	`actor_email` text NOT NULL,
	`action` text NOT NULL,
	`target_type` text,
	`target_id` text,
	`details` text,
	`at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `audit_log_at_idx` ON `audit_log` (`at`);--> statement-breakpoint
CREATE TABLE `consent_records` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`visitor_id` text NOT NULL,
	`user_id` integer,
	`preferences` integer NOT NULL,
	`analytics` integer NOT NULL,
	`marketing` integer NOT NULL,
	`policy_version` text NOT NULL,
	`at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `consent_records_visitor_idx` ON `consent_records` (`visitor_id`,`at`);--> statement-breakpoint
CREATE TABLE `page_views` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`path` text NOT NULL,
	`user_id` integer,
	`visitor_id` text,
	`referrer` text,
	`at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `page_views_at_idx` ON `page_views` (`at`);--> statement-breakpoint
CREATE TABLE `stat_daily_scores` (
	`subject_id` integer NOT NULL,
	`day` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`score_sum` real DEFAULT 0 NOT NULL,
	PRIMARY KEY(`subject_id`, `day`)
);
--> statement-breakpoint
CREATE TABLE `stat_score_histogram` (
	`subject_id` integer NOT NULL,
	`score` integer NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`subject_id`, `score`)
);
--> statement-breakpoint
CREATE TABLE `stat_topic_accuracy` (
	`topic_id` integer PRIMARY KEY NOT NULL,
	`subject_id` integer NOT NULL,
	`answered` integer DEFAULT 0 NOT NULL,
	`correct` integer DEFAULT 0 NOT NULL
);
