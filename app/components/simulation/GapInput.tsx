import { useRef } from "react";
import { GAP_BOXES_SIMULATION } from "~/lib/constants";
import { T } from "./texts";

/**
 * 20 single-letter boxes: typing moves to the next box, Backspace on an empty box moves back;
 * letters are lowercased as typed. The answer is the letters joined.
 */
export function GapInput({
  value,
  onChange,
  disabled,
  questionId,
}: {
  value: string;
  onChange: (v: string) => void;
  disabled?: boolean;
  questionId: number;
}) {
  const refs = useRef<(HTMLInputElement | null)[]>([]);
  const chars = Array.from({ length: GAP_BOXES_SIMULATION }, (_, i) => value[i] ?? "");
  const emit = (next: string[]) => onChange(next.join("").replace(/\s+$/, ""));
  const setAt = (i: number, ch: string) => {
    const next = [...chars];
    // Keep positions: a blank box inside the word is a space.
    for (let k = 0; k < i; k++) if (!next[k]) next[k] = " ";
    next[i] = ch;
    emit(next);
  };
  return (
    <div className="sim-gap">
      <p className="muted small" id={`gap-hint-${questionId}`}>
        {T.gapHint}
      </p>
      <div className="sim-gap__boxes" role="group" aria-label="Risposta" aria-describedby={`gap-hint-${questionId}`}>
        {chars.map((ch, i) => (
          <input
            key={i}
            ref={(el) => {
              refs.current[i] = el;
            }}
            className="sim-gap__box"
            value={ch === " " ? "" : ch}
            maxLength={1}
            disabled={disabled}
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
            aria-label={`Lettera ${i + 1}`}
            onChange={(e) => {
              const typed = e.target.value.slice(-1).toLowerCase();
              if (!typed.trim()) return;
              setAt(i, typed);
              refs.current[i + 1]?.focus();
            }}
            onKeyDown={(e) => {
              if (e.key === "Backspace") {
                if (!chars[i] || chars[i] === " ") {
                  e.preventDefault();
                  refs.current[i - 1]?.focus();
                } else {
                  e.preventDefault();
                  setAt(i, "");
                }
              } else if (e.key === "ArrowLeft") refs.current[i - 1]?.focus();
              else if (e.key === "ArrowRight") refs.current[i + 1]?.focus();
            }}
          />
        ))}
      </div>
    </div>
  );
}
