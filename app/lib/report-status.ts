// How a report's status reads for its author (spec section 4).
export type UserReportStatus = "resolved" | "in_review";

const RESOLVED = new Set(["resolved", "risolta", "rejected", "respinta", "chiusa"]);

export function normaliseReportStatus(status: string | null | undefined): UserReportStatus {
  return RESOLVED.has(
    String(status ?? "")
      .trim()
      .toLowerCase(),
  )
    ? "resolved"
    : "in_review";
}

export const REPORT_STATUS_LABELS: Record<UserReportStatus, string> = {
  resolved: "Risolta",
  in_review: "In revisione",
};

export const EMPTY_REPORT_MESSAGE = "(nessun dettaglio)";
