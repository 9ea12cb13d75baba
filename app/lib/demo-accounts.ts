// The demo accounts the seed creates and the development sign-in lists.
export const DEMO_ACCOUNTS = [
  { email: "studente@example.com", label: "Studente", role: "studente" },
  { email: "amico@example.com", label: "Amico (studente)", role: "studente" },
  { email: "docente@example.com", label: "Docente", role: "docente" },
  { email: "moderatore@example.com", label: "Moderatore", role: "moderator" },
  { email: "admin@example.com", label: "Admin", role: "admin" },
  { email: "sospeso@example.com", label: "Studente sospeso", role: "studente" },
] as const;
