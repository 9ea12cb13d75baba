CREATE TABLE `attempt_answers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`attempt_id` integer NOT NULL,
	`position` integer NOT NULL,
	`question_id` integer NOT NULL,
	`option_id` integer,
	`answer_text` text,
	`correct` integer,
	`time_sec` integer DEFAULT 0 NOT NULL,
	`answered_at` integer NOT NULL,
	FOREIGN KEY (`attempt_id`) REFERENCES `attempts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`question_id`) REFERENCES `questions`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `attempt_answers_attempt_pos_unique` ON `attempt_answers` (`attempt_id`,`position`);--> statement-breakpoint
CREATE INDEX `attempt_answers_question_idx` ON `attempt_answers` (`question_id`);--> statement-breakpoint
CREATE TABLE `attempts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`quiz_id` integer,
	`subject_id` integer,
	`status` text DEFAULT 'completed' NOT NULL,
	`started_at` integer NOT NULL,
	`finished_at` integer,
	`time_taken` integer,
	`total` integer DEFAULT 0 NOT NULL,
	`correct` integer DEFAULT 0 NOT NULL,
	`wrong` integer DEFAULT 0 NOT NULL,
	`blank` integer DEFAULT 0 NOT NULL,
	`score` real,
	`rush_event_id` integer,
	`idempotency_key` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`quiz_id`) REFERENCES `quizzes`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`subject_id`) REFERENCES `subjects`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `attempts_user_date_idx` ON `attempts` (`user_id`,`started_at`);--> statement-breakpoint
CREATE INDEX `attempts_date_idx` ON `attempts` (`started_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `attempts_quiz_unique` ON `attempts` (`quiz_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `attempts_user_idem_unique` ON `attempts` (`user_id`,`idempotency_key`);--> statement-breakpoint
CREATE TABLE `friendships` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`requester_id` integer NOT NULL,
	`addressee_id` integer NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`responded_at` integer,
	FOREIGN KEY (`requester_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`addressee_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `friendships_pair_unique` ON `friendships` (`requester_id`,`addressee_id`);--> statement-breakpoint
CREATE INDEX `friendships_addressee_idx` ON `friendships` (`addressee_id`,`status`);--> statement-breakpoint
CREATE TABLE `login_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`at` integer NOT NULL,
	`is_new_user` integer DEFAULT false NOT NULL,
	`method` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `login_events_at_idx` ON `login_events` (`at`);--> statement-breakpoint
CREATE TABLE `questions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`subject_id` integer NOT NULL,
	`topic_id` integer,
	`type` text NOT NULL,
	`stem` text NOT NULL,
	`options` text,
	`correct_index` integer,
	`accepted_answers` text,
	`explanation` text DEFAULT '' NOT NULL,
	`difficulty` integer DEFAULT 3 NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer,
	FOREIGN KEY (`subject_id`) REFERENCES `subjects`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`topic_id`) REFERENCES `topics`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `questions_subject_topic_idx` ON `questions` (`subject_id`,`topic_id`,`active`);--> statement-breakpoint
CREATE TABLE `quiz_questions` (
	`quiz_id` integer NOT NULL,
	`position` integer NOT NULL,
	`question_id` integer NOT NULL,
	PRIMARY KEY(`quiz_id`, `position`),
	FOREIGN KEY (`quiz_id`) REFERENCES `quizzes`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`question_id`) REFERENCES `questions`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `quizzes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`subject_id` integer,
	`topic_id` integer,
	`kind` text DEFAULT 'random' NOT NULL,
	`time_limit_sec` integer,
	`rush_event_id` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`subject_id`) REFERENCES `subjects`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `quizzes_user_idx` ON `quizzes` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `reports` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`question_id` integer NOT NULL,
	`attempt_id` integer,
	`status` text DEFAULT 'open' NOT NULL,
	`message` text DEFAULT '(nessun dettaglio)' NOT NULL,
	`user_answer_key` text,
	`assigned_score` real,
	`admin_notes` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`question_id`) REFERENCES `questions`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`attempt_id`) REFERENCES `attempts`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `reports_status_date_idx` ON `reports` (`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `reports_user_idx` ON `reports` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `rush_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`title` text NOT NULL,
	`starts_at` integer NOT NULL,
	`ends_at` integer NOT NULL,
	`published` integer DEFAULT false NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `rush_events_window_idx` ON `rush_events` (`published`,`starts_at`,`ends_at`);--> statement-breakpoint
CREATE TABLE `rush_progress` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`event_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`subject_id` integer NOT NULL,
	`attempt_id` integer,
	`score` real,
	`time_sec` integer,
	`started_at` integer NOT NULL,
	`finished_at` integer,
	FOREIGN KEY (`event_id`) REFERENCES `rush_events`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`subject_id`) REFERENCES `subjects`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`attempt_id`) REFERENCES `attempts`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `rush_progress_unique` ON `rush_progress` (`event_id`,`user_id`,`subject_id`);--> statement-breakpoint
CREATE INDEX `rush_progress_rank_idx` ON `rush_progress` (`event_id`,`subject_id`,`score`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sessions_user_idx` ON `sessions` (`user_id`);--> statement-breakpoint
CREATE TABLE `simulation_allowed_users` (
	`simulation_id` text NOT NULL,
	`user_id` integer NOT NULL,
	PRIMARY KEY(`simulation_id`, `user_id`),
	FOREIGN KEY (`simulation_id`) REFERENCES `simulations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sim_allowed_user_idx` ON `simulation_allowed_users` (`user_id`);--> statement-breakpoint
CREATE TABLE `simulation_attempts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`simulation_id` text NOT NULL,
	`user_id` integer NOT NULL,
	`answers` text NOT NULL,
	`subjects_result` text NOT NULL,
	`score` real NOT NULL,
	`perc` integer NOT NULL,
	`time_sec` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`simulation_id`) REFERENCES `simulations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sim_attempts_sim_user_unique` ON `simulation_attempts` (`simulation_id`,`user_id`);--> statement-breakpoint
CREATE INDEX `sim_attempts_sim_score_idx` ON `simulation_attempts` (`simulation_id`,`score`);--> statement-breakpoint
CREATE TABLE `simulation_questions` (
	`simulation_id` text NOT NULL,
	`subject_position` integer NOT NULL,
	`position` integer NOT NULL,
	`question_id` integer NOT NULL,
	PRIMARY KEY(`simulation_id`, `subject_position`, `position`),
	FOREIGN KEY (`simulation_id`) REFERENCES `simulations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`question_id`) REFERENCES `questions`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `simulation_subjects` (
	`simulation_id` text NOT NULL,
	`position` integer NOT NULL,
	`subject_id` integer NOT NULL,
	`time_min` integer NOT NULL,
	`question_count` integer NOT NULL,
	`break_after_min` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`simulation_id`, `position`),
	FOREIGN KEY (`simulation_id`) REFERENCES `simulations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`subject_id`) REFERENCES `subjects`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `simulations` (
	`id` text PRIMARY KEY NOT NULL,
	`title` text NOT NULL,
	`started` integer DEFAULT false NOT NULL,
	`start_time` integer,
	`graded_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `subjects` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `topics` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`subject_id` integer NOT NULL,
	`parent_id` integer,
	`name` text NOT NULL,
	FOREIGN KEY (`subject_id`) REFERENCES `subjects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `topics_subject_idx` ON `topics` (`subject_id`,`parent_id`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`email` text NOT NULL,
	`name` text DEFAULT '' NOT NULL,
	`first_name` text,
	`last_name` text,
	`avatar_url` text,
	`username` text,
	`phone` text,
	`bio` text,
	`goal` text,
	`city` text,
	`school` text,
	`school_year` integer,
	`birth` text,
	`cf` text,
	`address` text,
	`zip` text,
	`telegram` text,
	`instagram` text,
	`verified` integer DEFAULT false NOT NULL,
	`marketing` integer DEFAULT false NOT NULL,
	`theme` text DEFAULT 'dark' NOT NULL,
	`booked` integer DEFAULT false NOT NULL,
	`role` text DEFAULT 'studente' NOT NULL,
	`status` text DEFAULT 'attivo' NOT NULL,
	`suspension_reason` text,
	`google_sub` text,
	`share_code` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`last_login` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_unique` ON `users` (`email`);--> statement-breakpoint
CREATE UNIQUE INDEX `users_username_unique` ON `users` (`username`);--> statement-breakpoint
CREATE UNIQUE INDEX `users_google_sub_unique` ON `users` (`google_sub`);--> statement-breakpoint
CREATE UNIQUE INDEX `users_share_code_unique` ON `users` (`share_code`);--> statement-breakpoint
CREATE INDEX `users_role_status_idx` ON `users` (`role`,`status`);