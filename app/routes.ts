// The route table: the spec's screens (section 2) and JSON calls (section 7), one line each.
import { index, layout, route, type RouteConfig } from "@react-router/dev/routes";

export default [
  // Public
  index("routes/home.tsx"),
  route("policy", "routes/policy.tsx"),
  route("terms", "routes/terms.tsx"),
  route("login", "routes/login.tsx"),

  // Signed-in screens with the side navigation
  layout("routes/app-layout.tsx", [
    route("dashboard", "routes/dashboard.tsx"),
    route("profilo", "routes/profilo.tsx"),
    route("rush", "routes/rush.tsx"),
    // A student's simulations: live, upcoming, past (issue 34)
    route("simulazioni", "routes/simulazioni.tsx"),
    route("quiz-rush/start", "routes/quiz-rush.start.tsx"),
    // The admin console: one route per tab (issue 19)
    route("admin", "routes/admin.tsx", [
      index("routes/admin._index.tsx"),
      route("analytics", "routes/admin.analytics.tsx"),
      route("utenti", "routes/admin.utenti.tsx"),
      route("tentativi", "routes/admin.tentativi.tsx"),
      route("segnalazioni", "routes/admin.segnalazioni.tsx"),
      route("database", "routes/admin.database.tsx"),
      route("classi", "routes/admin.classi.tsx"),
      route("classi/:id/progressi", "routes/admin.classi.$id.progressi.tsx"),
      route("simulazioni", "routes/admin.simulazioni.tsx"),
      route("simulazioni/:id/diretta", "routes/admin.simulazioni.$id.diretta.tsx"),
      route("rush", "routes/admin.rush.tsx"),
      route("edizioni", "routes/admin.edizioni.tsx"),
      route("compiti", "routes/admin.compiti.tsx"),
    ]),
    // The console's small reads through fetchers: search, a question, a user (issue 19)
    route("admin/cerca", "routes/admin.cerca.ts"),
    route("admin/domanda/:id", "routes/admin.domanda.$id.ts"),
    route("admin/utente/:id", "routes/admin.utente.$id.ts"),
    route("admin/utenti/esporta", "routes/admin.utenti.esporta.ts"),
    // The dashboard's friend comparison, through a fetcher
    route("dashboard/amico/:id", "routes/dashboard.amico.$id.ts"),
    route("test/nuovo", "routes/test.nuovo.tsx"),
    // The quizzes downloaded for offline use, and one of them in the runner (issue 47): read from the device only
    route("test/offline/:quizId?", "routes/test.offline.tsx"),
    route("test", "routes/test.tsx"),
    route("ripasso/errori", "routes/ripasso.errori.tsx"),
    // The plan to the sitting and the grades after it (issue 46)
    route("piano", "routes/piano.tsx"),
    // The exam day alone (issue 46, point 2)
    route("giornata", "routes/giornata.tsx"),
    route("tentativi", "routes/tentativi.tsx"),
    route("segnalato", "routes/segnalato.tsx"),
    // A pupil's assignments from their classes (issue 32)
    route("compiti", "routes/compiti.tsx"),
    route("test/riepilogo/:attemptId?", "routes/test.riepilogo.tsx"),
    // Sign-out from the side navigation (a form post)
    route("esci", "routes/esci.ts"),
    // Classes (issue 11): the join link a teacher shares
    route("classi/unisciti/:code", "routes/classi.unisciti.tsx"),
  ]),

  // Simulations: full screen, no side navigation
  route("simulazione", "routes/simulazione.tsx"),
  route("simulazione/riepilogo/:simulationId/:attemptId", "routes/simulazione.riepilogo.tsx"),

  // JSON API (section 7). /api/simulations/:id/ws is routed to the Durable Object by workers/app.ts.

  // -- Sign-in and session
  route("api/auth/google", "routes/api.auth.google.ts"),
  route("api/auth/dev", "routes/api.auth.dev.ts"),
  route("api/auth/logout", "routes/api.auth.logout.ts"),
  route("api/me", "routes/api.me.ts"),

  // -- Practice: subjects, quizzes, grading, attempts, reports, review
  route("api/exam-editions", "routes/api.exam-editions.ts"),
  route("api/subjects", "routes/api.subjects.ts"),
  route("api/subjects/:id/topics", "routes/api.subjects.$id.topics.ts"),
  route("api/quiz", "routes/api.quiz.ts"),
  route("api/quiz/:id", "routes/api.quiz.$id.ts"),
  route("api/quiz/:id/attempt", "routes/api.quiz.$id.attempt.ts"),
  route("api/grade", "routes/api.grade.ts"),
  route("api/report-question", "routes/api.report-question.ts"),
  route("api/attempts", "routes/api.attempts.ts"),
  route("api/attempts/:id/summary", "routes/api.attempts.$id.summary.ts"),
  route("api/me/wrong-questions", "routes/api.me.wrong-questions.ts"),
  route("api/my/reports", "routes/api.my.reports.ts"),

  // -- Learning engine: review of the day (FSRS), score forecast
  route("api/review/due", "routes/api.review.due.ts"),
  route("api/me/forecast", "routes/api.me.forecast.ts"),
  // The road to the sitting (issue 46): the plan to a sitting, the grades received after it
  route("api/me/plan", "routes/api.me.plan.ts"),
  route("api/me/sitting-grades", "routes/api.me.sitting-grades.ts"),
  route("api/me/exam-days", "routes/api.me.exam-days.ts"),

  // -- Analytics, friends, profile
  route("api/me/analytics", "routes/api.me.analytics.ts"),
  route("api/friend/analytics", "routes/api.friend.analytics.ts"),
  route("api/friends", "routes/api.friends.ts"),
  route("api/friends/:id", "routes/api.friends.$id.ts"),
  route("api/friends/:id/accept", "routes/api.friends.$id.accept.ts"),
  route("api/profile", "routes/api.profile.ts"),
  route("api/profile/export", "routes/api.profile.export.ts"),
  route("api/profile/sessions", "routes/api.profile.sessions.ts"),

  // -- Simulations
  route("api/simulations/:id", "routes/api.simulations.$id.ts"),
  route("api/simulations/:id/attempt", "routes/api.simulations.$id.attempt.ts"),
  route("api/simulations/:id/ranking", "routes/api.simulations.$id.ranking.ts"),
  route("api/simulations/:id/skip-break", "routes/api.simulations.$id.skip-break.ts"),
  route("api/admin/simulations", "routes/api.admin.simulations.ts"),
  route("api/admin/simulations/:id", "routes/api.admin.simulations.$id.ts"),
  route("api/admin/simulations/:id/start", "routes/api.admin.simulations.$id.start.ts"),
  route("api/admin/simulations/:id/clock", "routes/api.admin.simulations.$id.clock.ts"),
  route("api/admin/simulations/:id/attempts", "routes/api.admin.simulations.$id.attempts.ts"),
  route("api/admin/simulations/:id/live", "routes/api.admin.simulations.$id.live.ts"),
  // The national bench's D1 meter (404 unless the server runs with BENCH_D1_USAGE=1; issue 31)
  route("api/admin/bench/d1", "routes/api.admin.bench.d1.ts"),

  // -- Classes and teachers (issue 11)
  route("api/classes", "routes/api.classes.ts"),
  route("api/classes/join", "routes/api.classes.join.ts"),
  route("api/classes/invitations", "routes/api.classes.invitations.ts"),
  route("api/classes/invitations/:id", "routes/api.classes.invitations.$id.ts"),
  route("api/classes/invitations/:id/accept", "routes/api.classes.invitations.$id.accept.ts"),
  route("api/classes/:id", "routes/api.classes.$id.ts"),
  route("api/classes/:id/members", "routes/api.classes.$id.members.ts"),
  route("api/classes/:id/members/:userId", "routes/api.classes.$id.members.$userId.ts"),
  route("api/classes/:id/invitations", "routes/api.classes.$id.invitations.ts"),
  route("api/classes/:id/code", "routes/api.classes.$id.code.ts"),
  route("api/classes/:id/progress", "routes/api.classes.$id.progress.ts"),
  route("api/admin/simulations/:id/classes", "routes/api.admin.simulations.$id.classes.ts"),

  // -- Compiti: a teacher's assignments to a class (issue 32)
  route("api/classes/:id/assignments", "routes/api.classes.$id.assignments.ts"),
  route("api/assignments", "routes/api.assignments.ts"),
  route("api/assignments/:id", "routes/api.assignments.$id.ts"),
  route("api/assignments/:id/start", "routes/api.assignments.$id.start.ts"),

  // -- Quiz Rush
  route("api/rush/event", "routes/api.rush.event.ts"),
  route("api/rush/progress", "routes/api.rush.progress.ts"),
  route("api/rush/leaderboard", "routes/api.rush.leaderboard.ts"),
  route("api/admin/rush-events", "routes/api.admin.rush-events.ts"),
  route("api/admin/rush-events/:id", "routes/api.admin.rush-events.$id.ts"),

  // -- Admin console
  route("api/admin/users", "routes/api.admin.users.ts"),
  route("api/admin/users/:id", "routes/api.admin.users.$id.ts"),
  route("api/admin/users/:id/ban", "routes/api.admin.users.$id.ban.ts"),
  route("api/admin/reports", "routes/api.admin.reports.ts"),
  route("api/admin/reports/:id", "routes/api.admin.reports.$id.ts"),
  route("api/admin/reports/:id/resolve", "routes/api.admin.reports.$id.resolve.ts"),
  route("api/admin/questions/:id", "routes/api.admin.questions.$id.ts"),
  route("api/admin/analytics", "routes/api.admin.analytics.ts"),
  route("api/admin/attempts", "routes/api.admin.attempts.ts"),
  route("api/admin/search", "routes/api.admin.search.ts"),
  route("api/admin/audit", "routes/api.admin.audit.ts"),
  route("api/admin/import", "routes/api.admin.import.ts"),
  route("api/admin/import-taxonomy", "routes/api.admin.import-taxonomy.ts"),
  route("api/admin/import-difficulty", "routes/api.admin.import-difficulty.ts"),
  route("api/admin/import-users", "routes/api.admin.import-users.ts"),
  route("api/admin/import-attempts", "routes/api.admin.import-attempts.ts"),
  route("api/admin/reprocess-attempt-answers", "routes/api.admin.reprocess-attempt-answers.ts"),
  route("api/admin/recalc-stats", "routes/api.admin.recalc-stats.ts"),
  route("api/admin/reset-db", "routes/api.admin.reset-db.ts"),

  // -- Public: page views, consent
  route("api/consent", "routes/api.consent.ts"),
  route("api/page-view", "routes/api.page-view.ts"),

  // -- Fallbacks: JSON 404s (admin paths check the role first)
  route("api/admin/*", "routes/api.admin.$.ts"),
  route("api/*", "routes/api.$.ts"),
] satisfies RouteConfig;
