-- Issue 33, point 3: the stats version moves whenever anything a dashboard shares changes, by any path.
-- The bank's shape (rarely written) raises the taxonomy and the version, row by row; the aggregates raise the
-- version through stat_score_histogram, which every attempt landing writes exactly once (a trigger on
-- stat_topic_accuracy would fire once per topic per attempt), and on the deletes of the other two (rebuilds,
-- erasure, reset). The rebuild and the erasure also raise it outright (BUMP_STATS_VERSION_SQL).
INSERT OR IGNORE INTO stats_version (id, version, taxonomy) VALUES (1, 1, 1);
--> statement-breakpoint
CREATE TRIGGER stats_taxonomy_subjects_insert AFTER INSERT ON subjects BEGIN UPDATE stats_version SET version = version + 1, taxonomy = taxonomy + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER stats_taxonomy_subjects_update AFTER UPDATE ON subjects BEGIN UPDATE stats_version SET version = version + 1, taxonomy = taxonomy + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER stats_taxonomy_subjects_delete AFTER DELETE ON subjects BEGIN UPDATE stats_version SET version = version + 1, taxonomy = taxonomy + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER stats_taxonomy_topics_insert AFTER INSERT ON topics BEGIN UPDATE stats_version SET version = version + 1, taxonomy = taxonomy + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER stats_taxonomy_topics_update AFTER UPDATE ON topics BEGIN UPDATE stats_version SET version = version + 1, taxonomy = taxonomy + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER stats_taxonomy_topics_delete AFTER DELETE ON topics BEGIN UPDATE stats_version SET version = version + 1, taxonomy = taxonomy + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER stats_taxonomy_units_insert AFTER INSERT ON units BEGIN UPDATE stats_version SET version = version + 1, taxonomy = taxonomy + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER stats_taxonomy_units_update AFTER UPDATE ON units BEGIN UPDATE stats_version SET version = version + 1, taxonomy = taxonomy + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER stats_taxonomy_units_delete AFTER DELETE ON units BEGIN UPDATE stats_version SET version = version + 1, taxonomy = taxonomy + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER stats_taxonomy_exam_editions_insert AFTER INSERT ON exam_editions BEGIN UPDATE stats_version SET version = version + 1, taxonomy = taxonomy + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER stats_taxonomy_exam_editions_update AFTER UPDATE ON exam_editions BEGIN UPDATE stats_version SET version = version + 1, taxonomy = taxonomy + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER stats_taxonomy_exam_editions_delete AFTER DELETE ON exam_editions BEGIN UPDATE stats_version SET version = version + 1, taxonomy = taxonomy + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER stats_taxonomy_question_edition_units_insert AFTER INSERT ON question_edition_units BEGIN UPDATE stats_version SET version = version + 1, taxonomy = taxonomy + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER stats_taxonomy_question_edition_units_update AFTER UPDATE ON question_edition_units BEGIN UPDATE stats_version SET version = version + 1, taxonomy = taxonomy + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER stats_taxonomy_question_edition_units_delete AFTER DELETE ON question_edition_units BEGIN UPDATE stats_version SET version = version + 1, taxonomy = taxonomy + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER stats_taxonomy_questions_delete AFTER DELETE ON questions BEGIN UPDATE stats_version SET version = version + 1, taxonomy = taxonomy + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER stats_taxonomy_questions_topic AFTER UPDATE OF topic_id ON questions WHEN OLD.topic_id IS NOT NEW.topic_id BEGIN UPDATE stats_version SET version = version + 1, taxonomy = taxonomy + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER stats_version_histogram_insert AFTER INSERT ON stat_score_histogram BEGIN UPDATE stats_version SET version = version + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER stats_version_histogram_update AFTER UPDATE ON stat_score_histogram BEGIN UPDATE stats_version SET version = version + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER stats_version_histogram_delete AFTER DELETE ON stat_score_histogram BEGIN UPDATE stats_version SET version = version + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER stats_version_stat_topic_accuracy_delete AFTER DELETE ON stat_topic_accuracy BEGIN UPDATE stats_version SET version = version + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER stats_version_stat_daily_scores_delete AFTER DELETE ON stat_daily_scores BEGIN UPDATE stats_version SET version = version + 1 WHERE id = 1; END;
