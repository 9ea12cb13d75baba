/** Global search of the admin console (users, questions, attempts). */
export function AdminSearch() {
  return null;
}
