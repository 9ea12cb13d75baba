CREATE TABLE `question_edition_units` (
	`edition_id` integer NOT NULL,
	`question_id` integer NOT NULL,
	`unit` integer NOT NULL,
	PRIMARY KEY(`edition_id`, `question_id`),
	FOREIGN KEY (`edition_id`) REFERENCES `exam_editions`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`question_id`) REFERENCES `questions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `question_edition_units_question_idx` ON `question_edition_units` (`question_id`);--> statement-breakpoint
-- A database that already holds the bank: its 2025/26 units are the questions' own. (2026/27 units arrive with the
-- bank's next import or seed, from `unit2627`.)
INSERT OR IGNORE INTO `question_edition_units` (`edition_id`, `question_id`, `unit`)
  SELECT e.`id`, q.`id`, q.`unit` FROM `questions` q JOIN `exam_editions` e ON e.`academic_year` = '2025/26'
  WHERE q.`unit` IS NOT NULL AND q.`legacy` = 0;
