// What the screens say about their forms, apart from the schemas: a screen that only shows these words does not
// ship zod (the schemas validate on the server; a form that checks as you type loads its schema when used).

/** What the report dialog says when the report cannot reach the server. */
export const REPORT_UNREACHABLE = "Errore di rete";
