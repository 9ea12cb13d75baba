import { useRef } from "react";
import { GAP_BOXES_QUIZ } from "~/lib/constants";
import { pastedGapText } from "~/lib/gap-answer";
import { T } from "./messages";

const MIN_VISIBLE = 12;

/**
 * Gap-fill answer as single-character boxes (at most 50): typing moves to the next box, Backspace on an
 * empty box moves back, pasting strips whitespace and fills from the focused box. Lowercased as typed.
 */
export function GapInput({
  value,
  onChange,
  disabled,
  questionNumber,
}: {
  value: string;
  onChange: (v: string) => void;
  disabled?: boolean;
  questionNumber: number;
}) {
  const refs = useRef<(HTMLInputElement | null)[]>([]);
  const chars = value.split("");
  const visible = Math.min(GAP_BOXES_QUIZ, Math.max(MIN_VISIBLE, chars.length + 2));
  const focus = (i: number) => refs.current[Math.max(0, Math.min(visible - 1, i))]?.focus();
  const setAt = (i: number, ch: string) => {
    const next = [...chars];
    while (next.length < i) next.push(" ");
    next[i] = ch;
    onChange(next.join("").replace(/\s+$/, "").toLowerCase());
  };
  return (
    <div className="practice-stack">
      <p className="muted" id={`gap-hint-${questionNumber}`} style={{ margin: 0 }}>
        {T.gapHint}
      </p>
      <div className="gap-boxes" role="group" aria-labelledby={`gap-hint-${questionNumber}`}>
        {Array.from({ length: visible }, (_, i) => (
          <input
            key={i}
            ref={(el) => {
              refs.current[i] = el;
            }}
            className="gap-box"
            type="text"
            inputMode="text"
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            maxLength={2}
            disabled={disabled}
            aria-label={`Lettera ${i + 1} di ${GAP_BOXES_QUIZ}`}
            value={chars[i] === " " ? "" : (chars[i] ?? "")}
            onChange={(e) => {
              const typed = e.target.value.slice(-1).toLowerCase();
              if (!typed) return setAt(i, " ");
              setAt(i, typed);
              if (i + 1 < GAP_BOXES_QUIZ) refs.current[i + 1]?.focus();
            }}
            onKeyDown={(e) => {
              if (e.key === "Backspace" && !(chars[i] && chars[i] !== " ")) {
                e.preventDefault();
                if (i > 0) {
                  setAt(i - 1, " ");
                  focus(i - 1);
                }
              } else if (e.key === "ArrowLeft") {
                e.preventDefault();
                focus(i - 1);
              } else if (e.key === "ArrowRight") {
                e.preventDefault();
                focus(i + 1);
              }
            }}
            onPaste={(e) => {
              e.preventDefault();
              const text = pastedGapText(e.clipboardData.getData("text"));
              if (!text) return;
              const next = [...chars];
              while (next.length < i) next.push(" ");
              next.splice(i, text.length, ...text.split(""));
              onChange(next.join("").slice(0, GAP_BOXES_QUIZ).replace(/\s+$/, ""));
              setTimeout(() => focus(i + text.length));
            }}
          />
        ))}
      </div>
    </div>
  );
}
