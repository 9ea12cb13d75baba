// When the data of a screen shown offline was saved, as the label says it (issue 47): "di oggi alle 9:42", "di ieri
// alle 18:05", "del 3 marzo alle 9:42", "del 3 marzo 2025 alle 9:42" (another year), on Italy's clock like every date
// of the app. Nothing shown offline pretends to be fresh: the screens put "Offline · dati " before it.
import { addDays, ITALIAN_MONTHS, italianClock, italianDay } from "./days";

export function savedWhen(savedAt: number, now: number): string {
  const c = italianClock(savedAt);
  const clock = `alle ${Number(c.HH)}:${c.mm}`;
  const day = italianDay(savedAt);
  const today = italianDay(now);
  if (day === today) return `di oggi ${clock}`;
  if (day === addDays(today, -1)) return `di ieri ${clock}`;
  const year = c.yyyy === italianClock(now).yyyy ? "" : ` ${c.yyyy}`;
  return `del ${Number(c.dd)} ${ITALIAN_MONTHS[Number(c.MM) - 1]}${year} ${clock}`;
}
