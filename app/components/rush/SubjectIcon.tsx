import { subjectIconKind, type SubjectIconKind } from "~/lib/rush";

// Line icons (24×24, stroke) chosen from the subject's name; decorative, hidden from screen readers.
const ICONS: Record<SubjectIconKind, React.ReactNode> = {
  biology: (
    <>
      <path d="M7 3c0 6 10 6 10 12s-10 3-10 6" />
      <path d="M17 3c0 6-10 6-10 12s10 3 10 6" />
      <path d="M8.5 7h7M8.5 17h7M10 12h4" />
    </>
  ),
  chemistry: (
    <>
      <path d="M9 3h6M10 3v6L4.5 19a1.5 1.5 0 0 0 1.3 2h12.4a1.5 1.5 0 0 0 1.3-2L14 9V3" />
      <path d="M7 15h10" />
    </>
  ),
  physics: (
    <>
      <circle cx="12" cy="12" r="1.6" />
      <ellipse cx="12" cy="12" rx="10" ry="4" />
      <ellipse cx="12" cy="12" rx="10" ry="4" transform="rotate(60 12 12)" />
      <ellipse cx="12" cy="12" rx="10" ry="4" transform="rotate(120 12 12)" />
    </>
  ),
  maths: (
    <>
      <path d="M4 6h6M7 3v6M14 6h6M4 17l5 5M9 17l-5 5M14 16h6M14 20h6" />
    </>
  ),
  logic: (
    <>
      <path d="M9 18h6M10 21h4" />
      <path d="M12 3a6 6 0 0 0-3.5 10.9c.6.5 1 1.2 1 2V16h5v-.1c0-.8.4-1.5 1-2A6 6 0 0 0 12 3z" />
    </>
  ),
  book: (
    <>
      <path d="M4 5a2 2 0 0 1 2-2h14v16H6a2 2 0 0 0-2 2z" />
      <path d="M4 21a2 2 0 0 1 2-2h14v2H6" />
    </>
  ),
};

export function SubjectIcon({ name }: { name: string }) {
  const kind = subjectIconKind(name);
  return (
    <svg
      className={`rush-icon rush-icon--${kind}`}
      data-icon={kind}
      viewBox="0 0 24 24"
      width="28"
      height="28"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.6"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {ICONS[kind]}
    </svg>
  );
}
