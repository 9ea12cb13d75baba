ALTER TABLE `simulation_attempts` ADD `rank_key` real;--> statement-breakpoint
ALTER TABLE `simulations` ADD `ends_at` integer;--> statement-breakpoint
ALTER TABLE `simulations` ADD `seal_until` integer;--> statement-breakpoint
ALTER TABLE `simulations` ADD `seal_scope` text;--> statement-breakpoint
-- Issue 44, point 1: the timeline of simulations started before it, as sittingTimeline computes it (the latest
-- candidate's end: every subject extended by the largest fixed extra time, the breaks between subjects as they are;
-- sealed 62 s longer: the room's 2-s grace and the 60-s margin). Sealed for every account, as they were.
UPDATE simulations SET ends_at = start_time + (
    SELECT CAST(round(60000 * (
      SUM(ss.time_min) * (1 + COALESCE((SELECT max(sa.extra_time_pct) FROM simulation_accommodations sa
        WHERE sa.simulation_id = simulations.id), 0) / 100.0)
      + COALESCE(SUM(CASE WHEN ss.position < (SELECT max(x.position) FROM simulation_subjects x
        WHERE x.simulation_id = simulations.id) THEN ss.break_after_min ELSE 0 END), 0))) AS INTEGER)
    FROM simulation_subjects ss WHERE ss.simulation_id = simulations.id)
  WHERE started = 1 AND start_time IS NOT NULL AND ends_at IS NULL;
--> statement-breakpoint
UPDATE simulations SET seal_until = ends_at + 62000 WHERE ends_at IS NOT NULL AND seal_until IS NULL;
--> statement-breakpoint
UPDATE simulations SET seal_scope = 'all' WHERE started = 1 AND seal_scope IS NULL;
--> statement-breakpoint
-- Issue 44, point 5: a started simulation's plan cannot change, whatever races (Save against Avvia). Deleting the
-- simulation itself still removes its rows (the cascade runs once the simulation's row is gone). An INSERT OR IGNORE of
-- a row that is already there (the seed run again) is let through to be ignored.
CREATE TRIGGER simulation_subjects_frozen_insert BEFORE INSERT ON simulation_subjects
  WHEN (SELECT started FROM simulations WHERE id = NEW.simulation_id) = 1
    AND NOT EXISTS (SELECT 1 FROM simulation_subjects x WHERE x.simulation_id = NEW.simulation_id
      AND x.position = NEW.position)
  BEGIN SELECT RAISE(ABORT, 'simulation_started'); END;
--> statement-breakpoint
CREATE TRIGGER simulation_subjects_frozen_update BEFORE UPDATE ON simulation_subjects
  WHEN (SELECT started FROM simulations WHERE id = OLD.simulation_id) = 1
  BEGIN SELECT RAISE(ABORT, 'simulation_started'); END;
--> statement-breakpoint
CREATE TRIGGER simulation_subjects_frozen_delete BEFORE DELETE ON simulation_subjects
  WHEN (SELECT started FROM simulations WHERE id = OLD.simulation_id) = 1
  BEGIN SELECT RAISE(ABORT, 'simulation_started'); END;
--> statement-breakpoint
CREATE TRIGGER simulation_questions_frozen_insert BEFORE INSERT ON simulation_questions
  WHEN (SELECT started FROM simulations WHERE id = NEW.simulation_id) = 1
    AND NOT EXISTS (SELECT 1 FROM simulation_questions x WHERE x.simulation_id = NEW.simulation_id
      AND x.subject_position = NEW.subject_position AND x.position = NEW.position)
  BEGIN SELECT RAISE(ABORT, 'simulation_started'); END;
--> statement-breakpoint
CREATE TRIGGER simulation_questions_frozen_update BEFORE UPDATE ON simulation_questions
  WHEN (SELECT started FROM simulations WHERE id = OLD.simulation_id) = 1
  BEGIN SELECT RAISE(ABORT, 'simulation_started'); END;
--> statement-breakpoint
CREATE TRIGGER simulation_questions_frozen_delete BEFORE DELETE ON simulation_questions
  WHEN (SELECT started FROM simulations WHERE id = OLD.simulation_id) = 1
  BEGIN SELECT RAISE(ABORT, 'simulation_started'); END;
