import type { ReactNode } from "react";

export type Tone = "success" | "info" | "error" | "warning" | "neutral" | "yellow" | "grey";

export function Pill({ tone, children }: { tone: Tone; children: ReactNode }) {
  return <span className={`pill pill-${tone}`}>{children}</span>;
}
