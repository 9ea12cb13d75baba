// The spec's business constants (section 9), in one place and referenced by name.

export const PRODUCT_NAME = "Unicum";

/** Dates and times are shown in Italy's time, whatever the server's (UTC) or the browser's zone:
 * the same text on both sides, so a server-rendered page hydrates without a mismatch. */
export const TIME_ZONE = "Europe/Rome";
export const SCORE_SCALE = 31;
export const WRONG_PENALTY = 0.1;
export const MIN_QUESTIONS = 1;
export const MAX_QUESTIONS = 31;
export const DEFAULT_REVIEW_COUNT = 10;
export const DEFAULT_RUSH_QUESTION_COUNT = 31;
export const QUESTION_PRESETS = [10, 20, 31] as const;

/** Seconds per question for each timer level. */
export const TIMER_LEVELS = { poco: 40, giusto: 60, tanto: 90 } as const;
export type TimerLevel = keyof typeof TIMER_LEVELS;

export const REVIEW_COOLDOWN_MS = 24 * 60 * 60 * 1000;
export const REVIEW_PAUSED_SHOWN = 8;
export const ATTEMPT_LIST_LIMIT = 500;
export const PAGE_SIZE = 10;
/** An attempt without a timer counts as abandoned after this long without a submission. */
export const UNTIMED_ABANDON_MS = 3 * 60 * 60 * 1000;
/** A quiz downloaded for offline use stays open this long after its download (the rule: attemptDeadline, lib/timer.ts). */
export const OFFLINE_QUIZ_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** How many downloaded quizzes a device keeps at once ("Scarica per l'offline" on /test/nuovo). */
export const OFFLINE_QUIZZES_KEPT = 3;

/**
 * The longest completamento answer the server stores and grades (older answers and imports were typed into 50
 * boxes). What a student sees is the edition's sheet: its `gapBoxes` (16 on the 2025 sheet), see lib/edition.ts.
 */
export const GAP_ANSWER_MAX_CHARS = 50;
/** The real answer sheet's boxes (2025 rules): what an edition without its own count, and bank:check, assume. */
export const SHEET_GAP_BOXES = 16;
export const SIMULATION_POLL_MS = 5000;
export const SIMULATION_GRACE_MS = 2000;
export const RANKING_TOP = 5;
/** The ranking answer of a simulation (issue 31): the top this many, and this many around the participant (half above, half below). */
export const RANKING_PAGE_TOP = 50;
export const RANKING_AROUND = 10;
/** Rows per page of a simulation's full ranking for staff (and per read of its CSV). */
export const RANKING_STAFF_PAGE = 100;

export const WEAK_TOPIC_THRESHOLD = 0.6;
export const HIGH_PREPARATION = 0.8;
export const SUGGESTED_TOPICS = 3;
export const MOMENTUM_WINDOW = 3;
export const RECENT_STUDY_DAYS = 7;
export const INACTIVITY_NOTICE_DAYS = 5;
export const DEFAULT_ATTEMPT_COUNT = 50;
export const TOPIC_LABEL_MAX = 24;

export const BREAKPOINTS = { sm: 640, md: 768, lg: 1024 } as const;
export const SIDEBAR_WIDTH = 260;
export const SIDEBAR_COLLAPSED_WIDTH = 84;
export const LANDING_MAX_WIDTH = 1150;
export const MANIFESTO_MAX_WIDTH = 900;
export const MOBILE_MENU_MAX_WIDTH = 560;
export const ANCHOR_OFFSET = 80;
export const TOUR_TOOLTIP_WIDTH = 340;
export const TOAST_MS = 1800;
export const CHART_ANIMATION_MS = 1500;

/** A session ends 30 days after its last use (it slides with every use). */
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** However much it is used, a session (its token and cookie) ends 400 days after sign-in: browsers cap cookies there. */
export const SESSION_MAX_AGE_MS = 400 * 24 * 60 * 60 * 1000;
/** The last use of a session is recorded at most this often (one write per session every few minutes, not per call). */
export const SESSION_TOUCH_MS = 5 * 60 * 1000;
export const SESSION_COOKIE = "unicum_session";

export const DIFFICULTY_LABELS: Record<number, string> = {
  1: "Facile",
  2: "Facile",
  3: "Medio",
  4: "Medio",
  5: "Difficile",
};
export const DEFAULT_DIFFICULTY = 3;

export const ROLE_LABELS = {
  admin: "Admin",
  moderator: "Moderatore",
  docente: "Docente",
  studente: "Studente",
} as const;

export const PRIVACY = {
  policyDate: "2025-08-19",
  minimumAge: 14,
  accountRetentionMonths: 24,
  logRetentionMonths: "6-12",
  consentProofYears: 10,
  rightsReplyDays: 30,
} as const;

/** The room fixes the start this far ahead, so every client hears about it before it happens. */
export const SIMULATION_START_LEAD_MS = 4000;
/** New rows of the admin simulation form. */
export const SIMULATION_ROW_DEFAULT = { timeMin: 5, questionCount: 10 } as const;
/** Days of site-wide daily averages the dashboard's trend reads (bounded, whatever the history). */
export const ANALYTICS_TREND_DAYS = 60;
/** Text the student types to confirm deleting the account. */
export const DELETE_ACCOUNT_CONFIRMATION = "ELIMINA";
/** Rows per page of the admin console's server-paginated lists (Tentativi, Utenti). */
export const ADMIN_ATTEMPTS_PAGE_SIZE = 25;
export const ADMIN_USERS_PAGE_SIZE = 50;

/** The most a teacher's simulation may hold (issue 28): its questions are sealed for its pupils while it runs. */
export const TEACHER_SIMULATION_LIMITS = {
  subjects: 3,
  questionsPerSubject: 31,
  minutesPerSubject: 90,
  /** Issue 44: a teacher's break seals its questions too, so it stays short; and at most this many run at once. */
  breakMinutes: 30,
  running: 2,
} as const;
