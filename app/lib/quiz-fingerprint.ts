// What a student got of a quiz, as one SHA-256 (issue 47): each question's id, type, text and options, in order. A
// quiz downloaded for offline use stores it at the download; its submission is refused when the questions no longer
// give the same one (an edit of a text or an option in between), since the answers were given to other questions.
// The difficulty and the topic's name are left out: they change without changing what was asked.

export type AskedQuestion = {
  id: number;
  type: string;
  question_text: string;
  options: readonly { option_text: string }[];
};

export async function quizFingerprint(questions: readonly AskedQuestion[]): Promise<string> {
  const asked = questions.map((q) => [q.id, q.type, q.question_text, q.options.map((o) => o.option_text)]);
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(JSON.stringify(asked)));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
